/*
 * driver_order.c - -xprofile_order at the link of a use build: the calls
 * each use compilation recorded in its object (XPROF_CALLS_SECTION), read
 * from the objects and archives of the link, ordered by libxprof's
 * plan/order.c, handed to the linker the way it takes an order: a script
 * that inserts a section of the ordered functions before .text (GNU ld,
 * which has no ordering option before binutils 2.43), a section ordering
 * file (gold), a symbol ordering file (lld).  A link whose order cannot be
 * applied says why and links as without it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "xprof_views.h"

static void note(const char *what) { fprintf(stderr, "%s: note: -xprofile_order: %s\n", me, what); }

/* Whether one word for the linker gives a script, an order or a
 * relocatable link of the user's: -T SCRIPT, -TSCRIPT (not the address
 * options -Ttext=, -Tdata=, -Tbss=, -T*-segment=), --script, -dT,
 * --default-script, the ordering files, -r, --relocatable. */
static int own_linker_word(const char *w) {
  static const char *const exact[] = {"-T", "-r", "--relocatable", "--script", "-dT",
                                      "--default-script"};
  static const char *const addresses[] = {"-Ttext", "-Tdata", "-Tbss", "-Trodata-segment",
                                          "-Tldata-segment"};
  for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
    if (strcmp(w, exact[i]) == 0)
      return 1;
  if (strncmp(w, "--script=", 9) == 0 || strncmp(w, "--default-script=", 17) == 0 ||
      strstr(w, "ordering-file"))
    return 1;
  if (strncmp(w, "-T", 2) != 0)
    return 0;
  for (size_t i = 0; i < sizeof addresses / sizeof *addresses; i++)
    if (strncmp(w, addresses[i], strlen(addresses[i])) == 0)
      return 0;
  return 1;
}

/* Whether -Wl,A,B,... passes such a word. */
static int own_wl(const char *a) {
  char *copy = strdup(a + 4), *save = NULL;
  int own = !copy;
  for (char *w = copy ? strtok_r(copy, ",", &save) : NULL; w && !own; w = strtok_r(NULL, ",", &save))
    own = own_linker_word(w);
  free(copy);
  return own;
}

/* The linker the command chooses (-fuse-ld=), and whether the user gave
 * an order or script of their own, or a relocatable link (1: then the
 * user's stands).  -Wl,-rpath and the like are not. */
static int user_linker(const struct command *c, xprof_linker *l) {
  *l = XPROF_LINKER_BFD;
  int own = 0;
  for (int k = 0; k < c->n_user; k++) {
    const char *a = c->user[k];
    if (strncmp(a, "-fuse-ld=", 9) == 0) {
      const char *ld = a + 9;
      *l = strcmp(ld, "gold") == 0   ? XPROF_LINKER_GOLD
           : strncmp(ld, "lld", 3) == 0 || strstr(ld, "ld.lld") ? XPROF_LINKER_LLD
                                                                : XPROF_LINKER_BFD;
    }
    if (strncmp(a, "-Wl,", 4) == 0)
      own |= own_wl(a);
    else if (k > 0 && strcmp(c->user[k - 1], "-Xlinker") == 0)
      own |= own_linker_word(a);
    else
      own |= strcmp(a, "-r") == 0 || (strncmp(a, "-T", 2) == 0 && own_linker_word(a));
  }
  return own;
}

static int add_section(void *o, const char *name) { return xprof_order_section(o, name); }

/* The calls section, function sizes and section names of one ELF object
 * (buf, len). */
static void add_object(xprof_order *o, const char *name, const unsigned char *buf, size_t len,
                       int *objects) {
  uint64_t off, size;
  if (len < 4 || memcmp(buf, "\177ELF", 4) != 0 ||
      xprof_elf_section(buf, len, XPROF_CALLS_SECTION, &off, &size) < 0)
    return;
  xprof_error err;
  xprof_elf *e;
  if (xprof_order_add(o, (const char *)buf + off, (size_t)size, name, &err) < 0) {
    note(err.msg);
    return;
  }
  ++*objects;
  if (xprof_elf_parse(name, buf, len, &e, &err) < 0)
    return;
  for (uint32_t i = 0; i < e->n_funcs; i++)
    xprof_order_size(o, e->funcs[i].name, e->funcs[i].size);
  xprof_elf_free(e);
  xprof_elf_section_names(buf, len, add_section, o);
}

/* The members of an ar archive, one object each (the symbol and name
 * tables, and thin archives' members, which are elsewhere, are passed
 * over). */
static void add_archive(xprof_order *o, const char *path, const unsigned char *buf, size_t len,
                        int *objects) {
  size_t at = 8;
  while (at + 60 <= len) {
    const char *h = (const char *)buf + at;
    char field[11];
    memcpy(field, h + 48, 10);
    field[10] = 0;
    char *end;
    unsigned long long size = strtoull(field, &end, 10);
    if (end == field || memcmp(h + 58, "`\n", 2) != 0 || size > len - at - 60)
      return;
    if (h[0] != '/') /* "/" and "//": the tables */
      add_object(o, path, buf + at + 60, (size_t)size, objects);
    at += 60 + (size_t)size + (size & 1);
  }
}

/* Inputs up to this size are read whole, larger ones mapped. */
#define READ_WHOLE_MAX ((off_t)1 << 20)

/* The calls, sizes and sections of one input of the link, an object or
 * an archive.  Most objects are small: read into one buffer (*buf, *cap)
 * kept from input to input, as mapping each (and unmapping it, which
 * flushes the TLB) costs more than reading it.  A large one (an object
 * with debugging information, an archive) is mapped: only its headers,
 * symbols and calls section are read. */
static void add_input(xprof_order *o, const char *path, unsigned char **buf, size_t *cap,
                      int *objects) {
  struct stat st;
  const unsigned char *in;
  size_t len;
  xprof_error err;
  int mapped = stat(path, &st) == 0 && st.st_size > READ_WHOLE_MAX;
  if (mapped ? xprof_map(path, &in, &len, &err) < 0
             : xprof_slurp_into(path, buf, cap, &len, &err) < 0)
    return; /* the linker says what is wrong with it */
  if (!mapped)
    in = *buf;
  if (len >= 8 && memcmp(in, "!<arch>\n", 8) == 0)
    add_archive(o, path, in, len, objects);
  else
    add_object(o, path, in, len, objects);
  if (mapped)
    xprof_unmap(in, len);
}

/* The order file for the link's inputs (malloc'd path of a temporary
 * file), or NULL when there is no order to give. */
static char *order_file(const struct command *c, xprof_linker l) {
  xprof_order *o = xprof_order_new();
  int objects = 0;
  unsigned char *buf = NULL;
  size_t cap = 0;
  for (int k = 0; o && k < c->n_objects; k++)
    add_input(o, c->objects[k], &buf, &cap, &objects);
  xprof_free(buf);
  const char **names = NULL;
  uint32_t n = 0;
  if (!o || xprof_order_compute(o, &names, &n) < 0) {
    note("out of memory: the link is not ordered");
  } else if (!objects) {
    note("no object of this link was compiled with -xprofile=use and -xprofile_order: "
         "nothing to order");
  } else if (!n) {
    note("no function of this link ran in the training: nothing to order");
  }
  char *path = NULL;
  if (n) {
    const char *tmp = getenv("TMPDIR");
    if (asprintf(&path, "%s/xprof-order-XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
      path = NULL;
    int fd = path ? mkstemp(path) : -1;
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || xprof_order_write(names, n, l, f) < 0 || fclose(f) != 0) {
      fprintf(stderr, "%s: note: -xprofile_order: cannot write the order (%s): the link is "
                      "not ordered\n",
              me, strerror(errno));
      if (path)
        unlink(path);
      free(path);
      path = NULL;
    }
  }
  xprof_free(names);
  xprof_order_free(o);
  return path;
}

char *add_order(struct args *a, const struct command *c) {
  xprof_linker l;
  if (user_linker(c, &l)) {
    note("the command gives its own linker script, order or relocatable link, which stands");
    return NULL;
  }
  if (c->lto) {
    note("not applied under -flto (the objects hold no code yet)");
    return NULL;
  }
  if (c->sources)
    note("the functions of the sources this command compiles are not ordered (only those "
         "of the objects and archives it links): compile them apart, with -c");
  char *path = order_file(c, l);
  if (!path)
    return NULL;
  switch (l) {
  case XPROF_LINKER_BFD:
    pushf(a, "-Wl,-T,%s", path);
    break;
  case XPROF_LINKER_GOLD:
    pushf(a, "-Wl,--section-ordering-file,%s", path);
    break;
  case XPROF_LINKER_LLD:
    pushf(a, "-Wl,--symbol-ordering-file,%s", path);
    push(a, "-Wl,--no-warn-symbol-ordering");
    break;
  }
  return path;
}
