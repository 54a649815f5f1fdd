/* test_util.c - xprof_sort (stable, any size, the work space in use),
 * xprof_format, xprof_map and the ELF section walk, xprof_slurp_into's
 * buffer kept from file to file, the arena's blocks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "unit.h"
#include "xprof_plan.h"
#include "xprof_views.h"

typedef struct item {
  int key;
  int seq; /* the position before sorting: checks stability */
} item;

static int by_key(const void *a, const void *b) {
  int x = ((const item *)a)->key, y = ((const item *)b)->key;
  return x < y ? -1 : x > y;
}

/* Sorted by key, and equal keys in their old order. */
static int sorted_stably(const item *v, size_t n) {
  for (size_t i = 1; i < n; i++)
    if (v[i - 1].key > v[i].key ||
        (v[i - 1].key == v[i].key && v[i - 1].seq > v[i].seq))
      return 0;
  return 1;
}

static void sort_sizes(void) {
  /* Around the insertion runs (8) and the stack work space (256 bytes),
   * with few distinct keys so that ties are everywhere. */
  static const size_t sizes[] = {0, 1, 2, 7, 8, 9, 31, 32, 33, 100, 1000, 4097};
  unsigned seed = 12345;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    size_t n = sizes[s];
    item *v = malloc((n + 1) * sizeof *v);
    long sum = 0;
    for (size_t i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      v[i] = (item){(int)(seed >> 16) % 10, (int)i};
      sum += v[i].key;
    }
    xprof_sort(v, n, sizeof *v, by_key);
    CHECK(sorted_stably(v, n));
    long after = 0;
    for (size_t i = 0; i < n; i++)
      after += v[i].key;
    CHECK(after == sum); /* nothing lost or duplicated */
    free(v);
  }
}

static void sort_reverse(void) {
  enum { N = 500 };
  item v[N];
  for (int i = 0; i < N; i++)
    v[i] = (item){N - i, i};
  xprof_sort(v, N, sizeof *v, by_key);
  CHECK(v[0].key == 1 && v[N - 1].key == N);
  CHECK(sorted_stably(v, N));
}

static void format(void) {
  char *s = xprof_format("%s/%s.%d", "dir", "feedback", 42);
  CHECK_STR(s, "dir/feedback.42");
  xprof_free(s);
  char *dir = xprof_profile_dir_name("prog");
  CHECK_STR(dir, "prog.profile");
  xprof_free(dir);
  dir = xprof_profile_dir_name("/a/prog.profile");
  CHECK_STR(dir, "/a/prog.profile");
  xprof_free(dir);
}

/* -xprofile=use:NAME reads NAME itself only when it is profile data: a
 * program or a script named like its profile is not. */
static void use_profile_name(void) {
  char dir[] = "/tmp/xprof-unit-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  const char *files[][2] = {{"text", "# saved\nPROFILE-FEEDBACK-DATA: 3.1 0 0 0\n"},
                            {"script", "#!/bin/sh\n# PROFILE-FEEDBACK-DATA:\n"},
                            {"elf", "\177ELF"}};
  const int data[] = {1, 0, 0};
  for (int i = 0; i < 3; i++) {
    char *path = xprof_format("%s/%s", dir, files[i][0]);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
      fputs(files[i][1], f);
      fclose(f);
    }
    char *name = xprof_use_profile_name(path);
    char *dirname = xprof_format("%s.profile", path);
    CHECK_STR(name, data[i] ? path : dirname);
    remove(path);
    xprof_free(name);
    xprof_free(dirname);
    xprof_free(path);
  }
  char *missing = xprof_use_profile_name("/nonexistent-xprof/prog");
  CHECK_STR(missing, "/nonexistent-xprof/prog.profile");
  xprof_free(missing);
  rmdir(dir);
}

/* xprof_map: a whole file mapped, a clear error for what cannot be; the
 * sections of an ELF file by name (this test program itself). */
struct seen {
  int text, symtab, n;
};

static int see_section(void *ctx, const char *name) {
  struct seen *s = ctx;
  s->text |= strcmp(name, ".text") == 0;
  s->symtab |= strcmp(name, ".symtab") == 0;
  return ++s->n == 1000 ? 7 : 0;
}

static int stop_at_text(void *ctx, const char *name) {
  (void)ctx;
  return strcmp(name, ".text") == 0;
}

static void map_sections(void) {
  const unsigned char *buf;
  size_t len;
  xprof_error err;
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  CHECK(n > 0);
  self[n > 0 ? n : 0] = 0;
  CHECK(xprof_map(self, &buf, &len, &err) == 0);
  CHECK(len > 4 && memcmp(buf, "\177ELF", 4) == 0);
  struct seen s = {0, 0, 0};
  CHECK(xprof_elf_section_names(buf, len, see_section, &s) == 0);
  CHECK(s.text && s.symtab && s.n > 10);
  CHECK(xprof_elf_section_names(buf, len, stop_at_text, NULL) == 1);
  uint64_t off = 0, size = 0;
  CHECK(xprof_elf_section(buf, len, ".text", &off, &size) == 0 && size > 0 && off + size <= len);
  CHECK(xprof_elf_section(buf, len, ".no.such.section", &off, &size) == -1);
  CHECK(xprof_elf_section_names(buf, 16, see_section, &s) == -1); /* cut short */
  /* A program: what it calls in libc is in its dynamic symbols, undefined,
   * which is not an export; main is in the full table only. */
  CHECK(xprof_elf_program_exports(buf, len, "malloc") == 0);
  CHECK(xprof_elf_program_exports(buf, len, "main") == 0);
  CHECK(xprof_elf_program_exports(buf, 64, "malloc") == -1);
  CHECK(xprof_elf_program_dynamic(buf, len) == 1);
  CHECK(xprof_elf_program_dynamic(buf, 16) == -1);
  xprof_unmap(buf, len);
  CHECK(xprof_map("/", &buf, &len, &err) == -1);
  CHECK_STR(err.msg, "/: is a directory");
  CHECK(xprof_map("/no/such/file", &buf, &len, &err) == -1);
  CHECK_HAS(err.msg, "/no/such/file: cannot open: ");
  CHECK(buf == NULL && len == 0);
}

/* Write n bytes of `fill` to dir/name; its path (xprof_malloc'd). */
static char *file_of(const char *dir, const char *name, size_t n, int fill) {
  char *path = xprof_format("%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  for (size_t i = 0; f && i < n; i++)
    fputc(fill, f);
  if (f)
    fclose(f);
  return path;
}

/* One buffer for a large file, a small one, an empty one and ones that
 * cannot be read: each read whole and NUL-terminated, the buffer grown
 * once and kept (also through errors). */
static void slurp_into(void) {
  char dir[] = "/tmp/xprof-unit-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char *big = file_of(dir, "big", 100000, 'b'), *small = file_of(dir, "small", 3, 's');
  char *empty = file_of(dir, "empty", 0, 0);
  unsigned char *buf = NULL;
  size_t cap = 0, len = 99;
  xprof_error err;
  CHECK(xprof_slurp_into(big, &buf, &cap, &len, &err) == 0);
  CHECK(len == 100000 && cap > len && buf[0] == 'b' && buf[len - 1] == 'b' && buf[len] == 0);
  unsigned char *kept = buf;
  size_t kept_cap = cap;
  CHECK(xprof_slurp_into(small, &buf, &cap, &len, &err) == 0);
  CHECK(len == 3 && memcmp(buf, "sss", 4) == 0);
  CHECK(buf == kept && cap == kept_cap);
  CHECK(xprof_slurp_into(empty, &buf, &cap, &len, &err) == 0);
  CHECK(len == 0 && buf[0] == 0);
  CHECK(xprof_slurp_into(dir, &buf, &cap, &len, &err) == -1);
  CHECK_HAS(err.msg, ": is a directory");
  char *missing = xprof_format("%s/missing", dir);
  CHECK(xprof_slurp_into(missing, &buf, &cap, &len, &err) == -1);
  CHECK_HAS(err.msg, "missing: cannot open: ");
  CHECK(len == 0 && buf == kept && cap == kept_cap);
  xprof_free(buf);
  /* xprof_slurp: a buffer of its own each time. */
  CHECK(xprof_slurp(small, &buf, &len, &err) == 0);
  CHECK(len == 3 && memcmp(buf, "sss", 4) == 0);
  xprof_free(buf);
  CHECK(xprof_slurp(missing, &buf, &len, &err) == -1 && buf == NULL);
  remove(big), remove(small), remove(empty), rmdir(dir);
  xprof_free(big), xprof_free(small), xprof_free(empty), xprof_free(missing);
}

/* Pieces of many sizes, small ones and ones of a block of their own:
 * each zeroed, 16-byte aligned, and apart from every other (each filled
 * with its own byte, all checked at the end). */
static void arena_pieces(void) {
  enum { N = 3000 };
  struct xprof_arena *a = xprof_arena_new();
  CHECK(a != NULL);
  static unsigned char *p[N];
  static size_t size[N];
  int zeroed = 1, aligned = 1, apart = 1;
  for (int i = 0; a && i < N; i++) {
    size[i] = i % 97 == 0 ? (size_t)(i % 7 + 1) * 70000 : (size_t)(i * 37 % 900) + 1;
    p[i] = xprof_arena_alloc(a, size[i]);
    CHECK(p[i] != NULL);
    if (!p[i])
      return;
    for (size_t k = 0; k < size[i]; k++)
      zeroed &= p[i][k] == 0;
    aligned &= ((uintptr_t)p[i] & 15) == 0;
    memset(p[i], i & 255, size[i]);
  }
  for (int i = 0; a && i < N; i++)
    for (size_t k = 0; k < size[i]; k++)
      apart &= p[i][k] == (i & 255);
  CHECK(zeroed && aligned && apart);
  xprof_arena_free(a);
}

UNIT_TABLE(util_tests) = {
    {"util/sort_sizes", sort_sizes},
    {"util/use_profile_name", use_profile_name},
    {"util/sort_reverse", sort_reverse},
    {"util/format", format},
    {"util/map_sections", map_sections},
    {"util/slurp_into", slurp_into},
    {"util/arena_pieces", arena_pieces},
    UNIT_END};
