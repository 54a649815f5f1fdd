/* test_compile.c - what both plugins take from libxprof/plan/naming.c
 * and profile_list.c. */
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "xprof_plan.h"
#include "xprof_views.h"

/* Two C++ instantiations that agree on their first 1,500 characters get
 * different array names; a short name is kept whole. */
static void comdat_names(void) {
  char *a = malloc(2001), *b = malloc(2001);
  memset(a, 'x', 2000);
  memset(b, 'x', 2000);
  a[2000] = b[2000] = 0;
  b[1999] = 'y';
  char *na = xprof_comdat_array_name(XPROF_ABI_STR(XPROF_COMDAT_COUNTERS), a, 0x42);
  char *nb = xprof_comdat_array_name(XPROF_ABI_STR(XPROF_COMDAT_COUNTERS), b, 0x42);
  CHECK(na && nb && strcmp(na, nb) != 0);
  CHECK(na && strlen(na) < 260); /* the name is cut, the hash kept */
  char *again = xprof_comdat_array_name(XPROF_ABI_STR(XPROF_COMDAT_COUNTERS), a, 0x42);
  CHECK_STR(again, na); /* alike in every translation unit */
  char *other_key = xprof_comdat_array_name(XPROF_ABI_STR(XPROF_COMDAT_COUNTERS), a, 0x43);
  CHECK(other_key && strcmp(other_key, na) != 0);
  char *shortname = xprof_comdat_array_name(XPROF_ABI_STR(XPROF_TWIN_VAR), "_Z1fv", 0xab);
  CHECK_STR(shortname, "__xprof_t._Z1fv.ab");
  xprof_free(na);
  xprof_free(nb);
  xprof_free(again);
  xprof_free(other_key);
  xprof_free(shortname);
  free(a);
  free(b);
}

/* The number of value-profile sites is part of a procedure's signature,
 * and the object signature depends on the procedures' order. */
static void signatures(void) {
  CHECK(xprof_proc_signature(0x1234, 0) != xprof_proc_signature(0x1234, 1));
  CHECK(xprof_proc_signature(0x1234, 2) == xprof_proc_signature(0x1234, 2));
  uint64_t ab = xprof_object_signature_add(
      xprof_object_signature_add(XPROF_OBJECT_SIGNATURE_INIT, 1), 2);
  uint64_t ba = xprof_object_signature_add(
      xprof_object_signature_add(XPROF_OBJECT_SIGNATURE_INIT, 2), 1);
  CHECK(ab != ba);
}

static void compile_time(void) {
  uint64_t sec;
  uint32_t usec;
  setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  xprof_compile_time(&sec, &usec);
  CHECK_U64(sec, 1700000000);
  CHECK_U64(usec, 0);
  unsetenv("SOURCE_DATE_EPOCH");
  xprof_compile_time(&sec, &usec);
  CHECK(sec > 1700000000);
}

static void object_paths(void) {
  char *p = xprof_object_path_resolve("/tmp/../tmp/./x.o");
  CHECK_STR(p, "/tmp/x.o");
  xprof_free(p);
  p = xprof_object_path_resolve("/x.o");
  CHECK_STR(p, "/x.o");
  xprof_free(p);
  /* A directory that does not exist: the path as given. */
  p = xprof_object_path_resolve("/nonexistent-xprof-dir/x.o");
  CHECK_STR(p, "/nonexistent-xprof-dir/x.o");
  xprof_free(p);
}

static void ends_and_skips(void) {
  CHECK(xprof_ends_without_profile("abort"));
  CHECK(xprof_ends_without_profile("__stack_chk_fail"));
  CHECK(!xprof_ends_without_profile("exit")); /* exit writes the profile */
  CHECK(!xprof_ends_without_profile("abort2"));
  const char *fns[] = {"*_slow", "main"};
  const char *files[] = {"*/gen/*.c"};
  xprof_skip_list skip = {fns, 2, files, 1, NULL, NULL};
  CHECK(xprof_skip_function(&skip, "parse_slow", NULL, "src/a.c"));
  CHECK(xprof_skip_function(&skip, "_ZN1A4mainEv", "main", NULL));
  CHECK(xprof_skip_function(&skip, "f", NULL, "/b/gen/t.c"));
  CHECK(!xprof_skip_function(&skip, "f", NULL, "/b/src/t.c"));
  CHECK(!xprof_skip_function(&skip, "f", NULL, NULL));
  CHECK(xprof_skip_attributes(XPROF_ATTR_NO_PROFILE) && xprof_skip_attributes(XPROF_ATTR_NAKED));
  CHECK(!xprof_skip_attributes(0));
}

/* GCC's -fprofile-filter-files and -fprofile-exclude-files: extended
 * regular expressions separated by ';', found anywhere in the path;
 * exclusion first, then only the files that match a filter. */
static int regexes_compile(const char *list, xprof_error *err) {
  xprof_profile_list *l = xprof_profile_list_new();
  int rc = xprof_profile_list_add_regexes(l, list, 0, err);
  xprof_profile_list_free(l);
  return rc;
}

static void file_filters(void) {
  xprof_options o;
  xprof_options_init(&o);
  xprof_error err;
  CHECK(xprof_options_set(&o, "filter-files", "main\\.c;lib/.*\\.c$", XPROF_OPT_GCC, &err) == 0);
  xprof_skip_list skip = xprof_options_skip(&o);
  CHECK(!xprof_skip_function(&skip, "f", NULL, "src/main.c"));
  CHECK(!xprof_skip_function(&skip, "f", NULL, "/p/lib/x.c"));
  CHECK(xprof_skip_function(&skip, "f", NULL, "/p/lib/x.h"));
  CHECK(xprof_skip_function(&skip, "f", NULL, "src/mainxc"));
  CHECK(xprof_skip_function(&skip, "f", NULL, NULL));
  CHECK(xprof_options_set(&o, "exclude-files", ";;lib/x;", XPROF_OPT_GCC, &err) == 0);
  skip = xprof_options_skip(&o);
  CHECK(xprof_skip_function(&skip, "f", NULL, "/p/lib/x.c"));
  CHECK(!xprof_skip_function(&skip, "f", NULL, "/p/lib/y.c"));
  xprof_options_free(&o);
  CHECK(xprof_options_set(&o, "exclude-files", ";;lib/x;", XPROF_OPT_GCC, &err) == 0);
  skip = xprof_options_skip(&o);
  CHECK(!xprof_skip_function(&skip, "f", NULL, "a.h"));
  CHECK(xprof_skip_function(&skip, "f", NULL, "/lib/x.h"));
  CHECK(!xprof_skip_function(&skip, "f", NULL, NULL));
  xprof_options_free(&o);

  /* The options refuse a list with an expression that does not compile,
   * naming it, and keep what they had; the drivers and plugins say so. */
  CHECK(xprof_options_set(&o, "filter-files", "ok\\.c;a(b", XPROF_OPT_GCC, &err) < 0);
  CHECK(strstr(err.msg, "'a(b' is not an extended regular expression") != NULL);
  CHECK(o.filter_files == NULL && o.file_filter == NULL);
  /* The C library copies a repeated atom once per repetition: those that
   * would expand past reason are refused before regcomp sees them (the
   * first took gigabytes in the fuzzer). */
  CHECK(regexes_compile("a++++++++++++++++++++++++++++", &err) < 0 &&
        strstr(err.msg, "its repetitions expand it too far"));
  CHECK(regexes_compile("ok;x{999}{999}", &err) < 0 && strstr(err.msg, "'x{999}{999}'"));
  CHECK(regexes_compile("((((((((((((((((((((a+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+", &err) <
        0);
  CHECK(regexes_compile("lib/.*\\.c$;[[:alpha:]]+_x{2,3};(a|b)*c;[]*+]{4}", &err) == 0);
  CHECK(xprof_options_set(&o, "exclude-files", "gen/;test_", XPROF_OPT_LLVM, &err) == 0);
  CHECK(o.exclude_files && strcmp(o.exclude_files, "gen/;test_") == 0);
  xprof_skip_list from = xprof_options_skip(&o);
  CHECK(xprof_skip_function(&from, "f", NULL, "x/test_a.c") &&
        !xprof_skip_function(&from, "f", NULL, "x/a.c"));
  xprof_options_free(&o);
}

/* Writes text to a fresh file under /tmp; its malloc'd path. */
static char *list_file(const char *text) {
  char *path = strdup("/tmp/xprof-unit-list-XXXXXX");
  int fd = path ? mkstemp(path) : -1;
  CHECK(fd >= 0);
  if (fd >= 0) {
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
  }
  return path;
}

/* clang's -fprofile-list, as clang reads it for IR-level profiling:
 * exclusions before inclusions, functions before files, and what no
 * entry names left out once the list names anything to profile. */
static void profile_lists(void) {
  char *a = list_file("# hot paths\n"
                      "fun:parse_*\n"
                      "  !fun:parse_slow  \r\n"
                      "\n"
                      "[clang]\n"
                      "fun:front_end_only\n"
                      "[llvm|csllvm]\n"
                      "src:lib/io*.c\n"
                      "src:lib/io_gen.c=skip\n"
                      "type:ignored\n"
                      "fun:odd=init\n");
  xprof_profile_list *l = xprof_profile_list_new();
  xprof_error err;
  CHECK(xprof_profile_list_read(l, a, &err) == 0);
  CHECK(!xprof_profile_list_excludes(l, "parse_expr", "x.c"));
  CHECK(xprof_profile_list_excludes(l, "parse_slow", "lib/io.c")); /* the function first */
  CHECK(!xprof_profile_list_excludes(l, "main", "lib/io.c"));
  CHECK(xprof_profile_list_excludes(l, "main", "lib/io_gen.c"));
  CHECK(xprof_profile_list_excludes(l, "front_end_only", "x.c")); /* another section */
  CHECK(xprof_profile_list_excludes(l, "odd", "x.c"));            /* another tool's */
  CHECK(xprof_profile_list_excludes(l, "main", NULL));
  CHECK(xprof_profile_list_excludes(l, "xparse_a", "x.c"));       /* anchored */
  xprof_profile_list_free(l);
  CHECK(!xprof_profile_list_excludes(NULL, "f", "x.c"));

  /* Exclusions alone leave the rest in; default: decides what no entry
   * matches. */
  char *b = list_file("!src:gen/*\ndefault:allow\n");
  l = xprof_profile_list_new();
  CHECK(xprof_profile_list_read(l, b, &err) == 0);
  CHECK(xprof_profile_list_excludes(l, "f", "gen/t.c") && !xprof_profile_list_excludes(l, "f", "t.c"));
  xprof_profile_list_free(l);
  char *c = list_file("default:skip\nfun:main\n");
  l = xprof_profile_list_new();
  CHECK(xprof_profile_list_read(l, c, &err) == 0);
  CHECK(!xprof_profile_list_excludes(l, "main", "t.c") && xprof_profile_list_excludes(l, "f", "t.c"));
  xprof_profile_list_free(l);

  /* Errors name the file and the line; a missing file is an error. */
  char *bad = list_file("fun:ok\nnot an entry\n");
  l = xprof_profile_list_new();
  CHECK(xprof_profile_list_read(l, bad, &err) < 0 && strstr(err.msg, ":2: expected PREFIX:PATTERN"));
  CHECK(strstr(err.msg, bad) != NULL);
  xprof_profile_list_free(l);
  char *paren = list_file("[llvm\n");
  l = xprof_profile_list_new();
  CHECK(xprof_profile_list_read(l, paren, &err) < 0 && strstr(err.msg, ":1: a section must end"));
  xprof_profile_list_free(l);
  char *rx = list_file("src:a(b\n");
  l = xprof_profile_list_new();
  CHECK(xprof_profile_list_read(l, rx, &err) < 0 && strstr(err.msg, ":1: not a pattern"));
  xprof_profile_list_free(l);
  l = xprof_profile_list_new();
  CHECK(xprof_profile_list_read(l, "/nonexistent/xprof.list", &err) < 0 &&
        strstr(err.msg, "/nonexistent/xprof.list"));
  xprof_profile_list_free(l);

  /* Through the options: the list is read when the option is set, and
   * the skip list asks it. */
  xprof_options o;
  xprof_options_init(&o);
  CHECK(xprof_options_set(&o, "profile-list", a, XPROF_OPT_LLVM, &err) == 0);
  xprof_skip_list s = xprof_options_skip(&o);
  CHECK(xprof_skip_function(&s, "main", NULL, "x.c") && !xprof_skip_function(&s, "parse_a", NULL, "x.c"));
  CHECK(xprof_options_set(&o, "profile-list", bad, XPROF_OPT_GCC, &err) < 0);
  xprof_options_free(&o);
  char *files[] = {a, b, c, bad, paren, rx};
  for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
    unlink(files[k]);
    free(files[k]);
  }
}

/* Messages a plan says, kept for checks: kind and text of the last two. */
static struct {
  xprof_diag_kind kind[2];
  char text[2][1024];
  unsigned n;
} said;

static void keep(void *ctx, xprof_diag_kind kind, enum xprof_warning w, const char *text) {
  (void)ctx, (void)w;
  unsigned i = said.n++ % 2;
  said.kind[i] = kind;
  snprintf(said.text[i], sizeof said.text[i], "%s", text);
}

static void use_summary(void) {
  xprof_options o;
  xprof_options_init(&o);
  o.verbose = 1;
  o.partial_training = 1;
  xprof_diag d = {&o, keep, NULL};
  xprof_use u;
  memset(&u, 0, sizeof u);
  u.o = &o;
  u.d = &d;
  u.objpath = "/b/x.o";
  u.profile = xprof_profile_new();
  u.st = (xprof_use_stats){
      .matched = 3, .mismatched = 1, .promoted = 1, .untrained = 2, .specialized = 1};
  said.n = 0;
  xprof_use_close(&u);
  CHECK_U64(said.n, 1);
  CHECK(said.kind[0] == XPROF_DIAG_NOTE);
  CHECK_STR(said.text[0], "xprof: /b/x.o: 3 procedures matched the profile, 1 mismatched, 0 "
                          "missing; 1 indirect call promoted, 1 operation specialized to "
                          "profiled values; 2 never ran in training "
                          "(optimized as without a profile)");
  /* Salvaged functions: counted among the matched, said in the note, and
   * a warning of their own. */
  o.partial_training = 0;
  u.profile = xprof_profile_new();
  u.st.salvaged = 2;
  u.st.salvage_mass = 400;
  u.st.salvage_matched = 300;
  said.n = 0;
  xprof_use_close(&u);
  CHECK_U64(said.n, 2);
  CHECK(said.kind[0] == XPROF_DIAG_WARNING);
  CHECK_STR(said.text[0], "xprof: /b/x.o: 2 functions changed since the training build; their "
                          "profile data was salvaged (75% of their counts matched the new "
                          "code)");
  CHECK_HAS(said.text[1], "2 never ran in training; 2 salvaged from changed code");
  /* One of them given the blocks salvage made up by source line. */
  u.profile = xprof_profile_new();
  u.st.filled = 1;
  said.n = 0;
  xprof_use_close(&u);
  CHECK_STR(said.text[0], "xprof: /b/x.o: 2 functions changed since the training build; their "
                          "profile data was salvaged (75% of their counts matched the new "
                          "code; 1 placed the rest by source line)");
  u.st.filled = 0;
  /* The warning as the options make it: an error, or nothing. */
  o.warning[XPROF_W_COVERAGE_MISMATCH] = XPROF_WARN_ERROR;
  o.verbose = 0;
  u.profile = xprof_profile_new();
  said.n = 0;
  xprof_use_close(&u);
  CHECK_U64(said.n, 1);
  CHECK(said.kind[0] == XPROF_DIAG_ERROR);
  o.warning[XPROF_W_COVERAGE_MISMATCH] = XPROF_WARN_OFF;
  u.profile = xprof_profile_new();
  said.n = 0;
  xprof_use_close(&u);
  CHECK_U64(said.n, 0);
  xprof_options_free(&o);
}

/* A profile of two object files, each with one procedure of 3 counters
 * (and, for the first, a value-profile record). */
static xprof_profile *two_objects(void) {
  xprof_profile *p = xprof_profile_new();
  const char *paths[] = {"/b/main.o", "/b/work.o"};
  for (int i = 0; i < 2; i++) {
    xprof_objfile *o = xprof_add_objfile(p, paths[i]);
    o->n_values_per_vp = 2;
    xprof_proc *f = xprof_add_proc(p, o, i ? "work" : "main");
    xprof_proc_alloc_counters(p, f, 3);
    for (uint32_t k = 0; k < 3; k++)
      f->counters[k] = 10 * (k + 1) + (uint64_t)i;
    if (i == 0) {
      f->n_vp_sites = 1;
      xprof_proc_alloc_vp(p, o, f, 1);
      f->vp[0].type = XPROF_VP_INT;
      f->vp[0].values[0].count = 5;
      f->vp[0].values[0].bits = 257;
    }
  }
  return p;
}

static void digest_of(const xprof_profile *p, const char *obj, const xprof_summary *s,
                      unsigned what, char hex[XPROF_DIGEST_HEX]) {
  xprof_use_digest(xprof_find_objfile(p, obj), s, what, hex);
}

/* The digest a compiler cache keys use builds on changes with the
 * object's own counts, value profiles, first runs, shapes and path, and
 * with the summary fields the compiler reads; not with another object's
 * counts. */
static void use_digest(void) {
  xprof_profile *p = two_objects();
  xprof_summary s;
  xprof_compute_summary(p, &s);
  char base[XPROF_DIGEST_HEX], d[XPROF_DIGEST_HEX];
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX, base);
  CHECK_U64(strlen(base), 32);
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX, d);
  CHECK_STR(d, base);

  xprof_objfile *work = xprof_find_objfile(p, "/b/work.o");
  work->procs[0].counters[0]++; /* another object, the max unchanged */
  xprof_compute_summary(p, &s);
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX, d);
  CHECK_STR(d, base);
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX | XPROF_DIGEST_SUMMARY, d);
  CHECK(strcmp(d, base) != 0); /* the sum is in the whole summary */

  work->procs[0].counters[2] = 1000; /* now the hottest count */
  xprof_compute_summary(p, &s);
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX, d);
  CHECK(strcmp(d, base) != 0);
  work->procs[0].counters[2] = 31;
  xprof_compute_summary(p, &s);
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX, d);
  CHECK_STR(d, base);

  xprof_objfile *m = xprof_find_objfile(p, "/b/main.o");
  m->procs[0].vp[0].values[0].count = 6; /* its own value profile */
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX, d);
  CHECK(strcmp(d, base) != 0);
  m->procs[0].vp[0].values[0].count = 5;
  m->procs[0].signature ^= 1; /* its own signature */
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX, d);
  CHECK(strcmp(d, base) != 0);
  m->procs[0].signature ^= 1;
  /* What only binary data holds, which use builds read too: the first-run
   * rank, and the shape that salvage goes by. */
  m->procs[0].first_run = 3;
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX, d);
  CHECK(strcmp(d, base) != 0);
  m->procs[0].first_run = 0;
  static const unsigned char shape_a[] = {1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  static const unsigned char shape_b[] = {1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  char with_a[XPROF_DIGEST_HEX];
  m->procs[0].shape = shape_a, m->procs[0].shape_size = sizeof shape_a;
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX, with_a);
  CHECK(strcmp(with_a, base) != 0);
  m->procs[0].shape = shape_b;
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX, d);
  CHECK(strcmp(d, with_a) != 0);
  m->procs[0].shape = NULL, m->procs[0].shape_size = 0;
  digest_of(p, "/b/main.o", &s, XPROF_DIGEST_MAX, d);
  CHECK_STR(d, base);
  m->path = "/c/main.o"; /* the same data under another path */
  xprof_use_digest(m, &s, XPROF_DIGEST_MAX, d);
  CHECK(strcmp(d, base) != 0);
  xprof_use_digest(NULL, &s, XPROF_DIGEST_MAX, d); /* no data */
  CHECK(strcmp(d, base) != 0);
  xprof_profile_free(p);
}

static void object_names(void) {
  const char *cases[][3] = {
      {"out/x.o", "src/x.c", "out/x.o"},   {"out/x.c.o", "x.c", "out/x.c.o"},
      {"out/x.s", "x.c", "out/x.o"},       {"out.d/x", "x.c", "out.d/x.o"},
      {NULL, "src/y.cc", "y.o"},           {"-", "src/y.c", "y.o"},
      {NULL, "noext", "noext.o"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *n = xprof_compile_object_name(cases[i][0], cases[i][1]);
    CHECK_STR(n, cases[i][2]);
    xprof_free(n);
  }
}

/* Prefix maps as GCC applies them: the last one given that matches. */
static void prefix_maps(void) {
  const char *maps[] = {"/b=.", "/b/sub=S", "bad"};
  char *p = xprof_remap_prefix("/b/sub/x.o", maps, 3);
  CHECK_STR(p, "S/x.o");
  xprof_free(p);
  p = xprof_remap_prefix("/b/y.o", maps, 3);
  CHECK_STR(p, "./y.o");
  xprof_free(p);
  p = xprof_remap_prefix("/c/y.o", maps, 3);
  CHECK_STR(p, "/c/y.o");
  xprof_free(p);
  p = xprof_remap_prefix("/b/y.o", maps, 0);
  CHECK_STR(p, "/b/y.o");
  xprof_free(p);
}

/* What a driver ships to a remote compilation comes back the same: the
 * object file's data, its summary, its path; and the shipped lines leave
 * the rest of the asm as it was. */
static void shipping(void) {
  xprof_profile *p = two_objects();
  xprof_summary s;
  xprof_compute_summary(p, &s);
  s.total_sum = 123456789; /* the whole profile's, not this object's */
  const xprof_objfile *o = xprof_find_objfile(p, "/b/main.o");
  char *line = xprof_use_ship(o, &s, NULL);
  CHECK(line != NULL);
  char *asm_text = xprof_format("nop\n# xprof object /b/main.o\n%s\n.p2align 4\n", line ? line : "");
  size_t n;
  const char *found = xprof_use_find_shipped(asm_text, strlen(asm_text), &n);
  CHECK(found != NULL && line && n == strlen(line));
  xprof_profile *back = NULL;
  xprof_lineprof *lines = NULL;
  xprof_error err;
  CHECK(found && xprof_use_unship(found, n, &back, &lines, &err) == 0);
  CHECK(lines == NULL); /* none shipped */
  if (back) {
    char d1[XPROF_DIGEST_HEX], d2[XPROF_DIGEST_HEX];
    xprof_use_digest(o, &s, XPROF_DIGEST_MAX | XPROF_DIGEST_SUMMARY, d1);
    xprof_use_digest(&back->objfiles[0], back->summary, XPROF_DIGEST_MAX | XPROF_DIGEST_SUMMARY, d2);
    CHECK_STR(d2, d1);
    xprof_profile_free(back);
  }
  char *obj = xprof_find_shipped_object(asm_text, strlen(asm_text));
  CHECK_STR(obj, "/b/main.o");
  size_t kept_len;
  char *kept = xprof_drop_shipped(asm_text, strlen(asm_text), &kept_len);
  CHECK_STR(kept, "nop\n.p2align 4\n");
  /* What the plugins call: all three at once, and nothing from asm
   * without shipped lines. */
  xprof_shipped sh;
  CHECK(xprof_take_shipped(asm_text, strlen(asm_text), &sh) == 1);
  CHECK_STR(sh.objpath, "/b/main.o");
  CHECK(line && sh.n == strlen(line) && sh.data && strcmp(sh.data, line) == 0);
  CHECK(sh.kept_len == 15 && sh.kept && strcmp(sh.kept, "nop\n.p2align 4\n") == 0);
  xprof_shipped_free(&sh);
  CHECK(xprof_take_shipped("nop\n", 4, &sh) == 0 && !sh.kept && !sh.objpath && !sh.data);
  /* Damaged data is an error, not a profile. */
  CHECK(xprof_use_unship("# xprof use data 1 1 2", 22, &back, &lines, &err) < 0);
  CHECK(!back && !lines);
  xprof_free(kept);
  xprof_free(obj);
  xprof_free(asm_text);
  xprof_free(line);
  xprof_profile_free(p);
}

/* A line profile of three functions: C's work and its clone's name,
 * C++'s ns::step(int), and helper, inlined into work. */
static const char ship_lp_text[] =
    "# xprof line profile: exact counts from gcc\n"
    "work:300:10\n 0: 10\n 1: 100 helper:90 other:10\n 2: helper:190\n  0: 190\n"
    "_ZN2ns4stepEi:40:4\n 0: 4\n 3: 36\n"
    "unrelated:5:5\n 0: 5\n";

/* The line profile travels with the object's data, or alone (an object
 * the counts do not know, placed by its lines): what comes back is what
 * went, and a source takes the functions it names. */
static void shipping_lines(void) {
  xprof_lineprof *lp = NULL, *back_lines = NULL;
  xprof_error err;
  CHECK(xprof_lineprof_read_llvm("t", ship_lp_text, strlen(ship_lp_text), &lp, &err) == 0);
  if (!lp)
    return;
  xprof_summary s;
  xprof_lineprof_summary(lp, &s);
  char *line = xprof_use_ship(NULL, &s, lp);
  xprof_profile *back = NULL;
  CHECK(line && xprof_use_unship(line, strlen(line), &back, &back_lines, &err) == 0);
  CHECK(back && back->n_objfiles == 0 && back->summary);
  if (back && back->summary)
    CHECK_U64(back->summary->total_max, s.total_max);
  CHECK(back_lines && back_lines->n_funcs == 3 && !back_lines->from_samples &&
        back_lines->made_by == XPROF_LP_BY_GCC);
  const xprof_lp_func *w = back_lines ? xprof_lineprof_find(back_lines, "work", NULL) : NULL;
  CHECK(w && w->total == 300 && w->head == 10 && w->n_lines == 2 && w->n_calls == 1 &&
        w->n_targets == 2);
  xprof_lineprof_free(back_lines);
  xprof_profile_free(back);
  /* A damaged line profile is named. */
  char *bad = line ? xprof_format("%.*s!", (int)strlen(line) - 1, line) : NULL;
  CHECK(bad && xprof_use_unship(bad, strlen(bad), &back, &back_lines, &err) < 0);
  CHECK_HAS(err.msg, "shipped profile data: bad base64 in its line profile");
  CHECK(!back && !back_lines);
  xprof_free(bad);
  xprof_free(line);

  /* A source that defines work (calling helper) keeps work and helper
   * (folded out of work: an entry of its own) but not unrelated;
   * ns::step by its source names; a number or a longer name is none. */
  CHECK(xprof_lineprof_fold_inlined(lp, 0) == 0);
  CHECK_U64(lp->n_funcs, 4);
  const char *src = "# 1 \"w.c\"\nint work(int n) { return helper(n) + 12unrelated + "
                    "unrelatedness; }\nnamespace ns { int step(int); }\n";
  CHECK(xprof_lines_for_source(lp, src, strlen(src)) == 0);
  CHECK_U64(lp->n_funcs, 3);
  CHECK(xprof_lineprof_find(lp, "work", NULL) && xprof_lineprof_find(lp, "helper", NULL) &&
        xprof_lineprof_find(lp, "_ZN2ns4stepEi", NULL) &&
        !xprof_lineprof_find(lp, "unrelated", NULL));
  CHECK(xprof_lines_for_source(lp, "", 0) == 0);
  CHECK_U64(lp->n_funcs, 0);
  xprof_lineprof_free(lp);
}

/* The summary carries the training runs, and gives the count from which
 * a count is hot; the digest of what GCC reads (a compiler cache's key)
 * and the shipped data change with both, and not with the cutoffs GCC
 * does not read. */
/* The thresholds are LLVM's (ProfileSummaryBuilder): the last of the
 * largest counts that make up the cutoff's share, not the least count of
 * its histogram bucket (1000, 990 and 900 share one: 896-1023). */
static void summary_exact(void) {
  const char *text = "f:2891:1\n 1: 1000\n 2: 990\n 3: 900\n";
  xprof_lineprof *lp;
  xprof_error err;
  CHECK(xprof_lineprof_read_llvm("t", text, strlen(text), &lp, &err) == 0);
  if (!lp)
    return;
  xprof_summary s;
  xprof_lineprof_summary(lp, &s);
  CHECK_U64(s.total_sum, 2891);
  CHECK_U64(xprof_cutoff_count(&s, 600000), 990); /* 1000 + 990 >= 1734 */
  CHECK_U64(s.entry[6].num_counts, 2);
  CHECK_U64(xprof_cutoff_count(&s, 999999), 900); /* 2890 of 2891: the 1 is not needed */
  CHECK_U64(s.entry[15].num_counts, 3);
  CHECK_U64(xprof_cutoff_count(&s, 10000), 1000);
  xprof_lineprof_free(lp);
}

static void summary_runs(void) {
  xprof_profile *p = two_objects(); /* counts 10, 20, 30 and 11, 21, 31 */
  p->runs = 3;
  p->run_max_sum = 90;
  xprof_summary s;
  xprof_compute_summary(p, &s);
  CHECK_U64(s.runs, 3);
  CHECK_U64(s.run_max_sum, 90);
  CHECK_U64(xprof_cutoff_count(&s, XPROF_HOT_CUTOFF), 10); /* 99%: all six */
  CHECK_U64(xprof_cutoff_count(&s, 500000), 30); /* 31 + 30: half of 123, rounded down */
  CHECK_U64(xprof_cutoff_count(&s, 123), 1);                /* not a cutoff */

  const xprof_objfile *o = xprof_find_objfile(p, "/b/main.o");
  char base[XPROF_DIGEST_HEX], d[XPROF_DIGEST_HEX];
  xprof_use_digest(o, &s, XPROF_DIGEST_MAX, base);
  s.runs = 4;
  xprof_use_digest(o, &s, XPROF_DIGEST_MAX, d);
  CHECK(strcmp(d, base) != 0);
  s.runs = 3;
  s.run_max_sum = 91;
  xprof_use_digest(o, &s, XPROF_DIGEST_MAX, d);
  CHECK(strcmp(d, base) != 0);
  s.run_max_sum = 90;
  unsigned hot = 0;
  while (s.entry[hot].cutoff != XPROF_HOT_CUTOFF)
    hot++;
  s.entry[hot].min_count = 11;
  xprof_use_digest(o, &s, XPROF_DIGEST_MAX, d);
  CHECK(strcmp(d, base) != 0);
  s.entry[hot].min_count = 10;
  s.entry[0].min_count++; /* a cutoff GCC does not read */
  xprof_use_digest(o, &s, XPROF_DIGEST_MAX, d);
  CHECK_STR(d, base);
  s.entry[0].min_count--;

  char *line = xprof_use_ship(o, &s, NULL);
  xprof_profile *back = NULL;
  xprof_lineprof *lines = NULL;
  xprof_error err;
  CHECK(line && xprof_use_unship(line, strlen(line), &back, &lines, &err) == 0);
  if (back) {
    CHECK_U64(back->summary->runs, 3);
    CHECK_U64(back->summary->run_max_sum, 90);
    xprof_profile_free(back);
  }
  /* Data an older xprof shipped (without the runs) is refused by name. */
  const char *old = "# xprof use data 1 5 6 7";
  CHECK(xprof_use_unship(old, strlen(old), &back, &lines, &err) < 0);
  CHECK_HAS(err.msg, "shipped profile data of another xprof version ('# xprof use data 1'; "
                     "this one reads '# xprof use data 4')");
  xprof_free(line);
  xprof_profile_free(p);
}

UNIT_TABLE(compile_tests) = {
    {"compile/comdat_names", comdat_names},
    {"compile/shipping_lines", shipping_lines},
    {"compile/signatures", signatures},
    {"compile/compile_time", compile_time},
    {"compile/object_paths", object_paths},
    {"compile/ends_and_skips", ends_and_skips},
    {"compile/file_filters", file_filters},
    {"compile/profile_lists", profile_lists},
    {"compile/use_summary", use_summary},
    {"compile/use_digest", use_digest},
    {"compile/summary_runs", summary_runs},
    {"compile/summary_exact", summary_exact},
    {"compile/object_names", object_names},
    {"compile/prefix_maps", prefix_maps},
    {"compile/shipping", shipping},
    UNIT_END};
