/*
 * test_lookup.c - what use mode does when an object file has no data:
 * why (a moved tree, with the pathmap that would find the data; an
 * object in no program that ran; another build's profile), and the
 * object file of the same source under another output name.
 */
#include <stdlib.h>

#include "unit.h"
#include "xprof_plan.h"
#include "xprof_views.h"

static void pathmap_between_paths(void) {
  unsigned d = 0;
  char *m = xprof_pathmap_between("/b/collect/lib/x.o", "/b/use/lib/x.o", &d);
  CHECK_STR(m, "/b/collect:/b/use");
  CHECK_U64(d, 2);
  free(m);
  /* The shared part starts at a component, not inside "old"/"bold". */
  m = xprof_pathmap_between("/tmp/old/x.o", "/tmp/bold/x.o", &d);
  CHECK_STR(m, "/tmp/old:/tmp/bold");
  CHECK_U64(d, 1);
  free(m);
  /* Only the file name is shared: still a map, of depth 1. */
  m = xprof_pathmap_between("/a/y/x.o", "/c/z/x.o", &d);
  CHECK_STR(m, "/a/y:/c/z");
  CHECK_U64(d, 1);
  free(m);
  /* No map: same path, other file names, a path that is all suffix. */
  CHECK(xprof_pathmap_between("/a/x.o", "/a/x.o", NULL) == NULL);
  CHECK(xprof_pathmap_between("/a/x.o", "/a/ax.o", NULL) == NULL);
  CHECK(xprof_pathmap_between("/a/b/x.o", "/b/x.o", NULL) == NULL);
  CHECK(xprof_pathmap_between("x.o", "/a/x.o", NULL) == NULL);
}

static char *to_use(void *ctx, const char *file) {
  const char *const *map = ctx;
  return xprof_pathmap_use_path(map, 2, file);
}

/* The training's paths as a build elsewhere names them: the first entry
 * whose OLD starts the path; the line profile's sources mapped so, the
 * inlined ones too, so that the use build finds them by its own paths. */
static void pathmap_use_paths(void) {
  const char *const map[2] = {"no-colon", "/old/tree:/new/tree"};
  char *m = xprof_pathmap_use_path(map, 2, "/old/tree/src/a.c");
  CHECK_STR(m, "/new/tree/src/a.c");
  free(m);
  CHECK(xprof_pathmap_use_path(map, 2, "/other/src/a.c") == NULL);
  CHECK(xprof_pathmap_use_path(map, 1, "/old/tree/src/a.c") == NULL);
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *f = xprof_lineprof_func(lp, "work", "/old/tree/src/a.c", 3);
  xprof_lp_func *in = f ? xprof_lineprof_inlined(f, 2, 0, "get", "/old/tree/src/a.h", 40) : NULL;
  xprof_lp_func *g = xprof_lineprof_func(lp, "other", "/elsewhere/b.c", 9);
  CHECK(f && in && g);
  if (f && in && g) {
    xprof_lineprof_add(f, 1, 0, 10);
    xprof_lineprof_add(in, 0, 0, 10);
    xprof_lineprof_add(g, 1, 0, 5);
    CHECK(xprof_lineprof_finish(lp) == 0);
    CHECK(xprof_lineprof_find(lp, "work", "/new/tree/src/a.c") == NULL);
    xprof_lineprof_map_files(lp, to_use, (void *)map);
    const xprof_lp_func *w = xprof_lineprof_find(lp, "work", "/new/tree/src/a.c");
    CHECK(w && w->n_calls == 1);
    if (w && w->n_calls == 1)
      CHECK_STR(w->calls[0].callee->file, "/new/tree/src/a.h");
    const xprof_lp_func *o = xprof_lineprof_find(lp, "other", "/elsewhere/b.c");
    CHECK(o && o->total == 5); /* outside the map: as it was */
  }
  xprof_lineprof_free(lp);
}

/* A profile directory holding object files at `paths`. */
static char *write_profile(const char *name, const char *const *paths, unsigned n) {
  xprof_profile *p = xprof_profile_new();
  for (unsigned i = 0; i < n; i++)
    CHECK(xprof_add_objfile(p, paths[i]) != NULL);
  char *dir = malloc(strlen(unit_tmpdir()) + strlen(name) + 16);
  sprintf(dir, "%s/%s.profile", unit_tmpdir(), name);
  xprof_error err;
  CHECK(xprof_write_profile_dir(p, dir, &err) == 0);
  xprof_profile_free(p);
  dir[strlen(dir) - 8] = 0; /* the name as -xprofile=use:NAME gives it */
  return dir;
}

static void explain_missing(void) {
  static const char *const moved[] = {"/old/tree/main.o", "/old/tree/lib/util.o",
                                      "/other/lib/util.o"};
  char *name = write_profile("moved", moved, 3);
  const char *names[] = {name};
  char *m = NULL;
  /* The deepest shared ending wins: tree/lib/util.o over lib/util.o. */
  CHECK(xprof_use_explain_missing(names, 1, NULL, 0, "/new/tree/lib/util.o", &m) ==
        XPROF_MISSING_MOVED);
  CHECK_STR(m, "/old:/new");
  free(m);
  CHECK(xprof_use_explain_missing(names, 1, NULL, 0, "/new/tree/main.o", &m) ==
        XPROF_MISSING_MOVED);
  CHECK_STR(m, "/old:/new");
  free(m);
  /* Two equally good candidates: no map rather than a guess. */
  CHECK(xprof_use_explain_missing(names, 1, NULL, 0, "/new/lib/util.o", &m) ==
        XPROF_MISSING_FOREIGN);
  CHECK(m == NULL);
  CHECK(xprof_use_explain_missing(names, 1, NULL, 0, "/new/tree/none.o", &m) ==
        XPROF_MISSING_FOREIGN);
  /* Other object files of its directory ran: it was in no program. */
  CHECK(xprof_use_explain_missing(names, 1, NULL, 0, "/old/tree/lib/other.o", &m) ==
        XPROF_MISSING_UNLINKED);
  CHECK(m == NULL);
  /* The same through a pathmap, which also rules out a map of its own. */
  const char *map[] = {"/old/tree:/new/tree"};
  CHECK(xprof_use_explain_missing(names, 1, map, 1, "/new/tree/lib/other.o", &m) ==
        XPROF_MISSING_UNLINKED);
  CHECK(xprof_use_explain_missing(names, 1, map, 1, "/new/tree/x/other.o", &m) ==
        XPROF_MISSING_FOREIGN);
  CHECK(m == NULL);
  /* A missing profile directory: foreign, and no crash. */
  const char *missing[] = {"/nonexistent/dir/prog"};
  CHECK(xprof_use_explain_missing(missing, 1, NULL, 0, "/new/tree/main.o", &m) ==
        XPROF_MISSING_FOREIGN);
  free(name);
}

static void missing_text(void) {
  char buf[512];
  /* Warnings for a moved tree and another build's profile, a note for an
   * object in no program that ran. */
  CHECK(xprof_use_missing_text(XPROF_MISSING_MOVED, "/new/a.o", "/old:/new", buf,
                               sizeof buf) == 1);
  CHECK_HAS(buf, "no profile data for /new/a.o");
  CHECK_HAS(buf, "-xprofile_pathmap=/old:/new maps it");
  CHECK(xprof_use_missing_text(XPROF_MISSING_FOREIGN, "/new/a.o", NULL, buf, sizeof buf) == 1);
  CHECK_HAS(buf, "nor for any object file of its directory");
  CHECK(xprof_use_missing_text(XPROF_MISSING_UNLINKED, "/new/a.o", NULL, buf, sizeof buf) ==
        0);
  CHECK_HAS(buf, "(it was in no program that ran)");
}

/* A profile directory of programs, each with its object files: progs[i]
 * links objs[i] (NULL-terminated). */
static char *write_programs(const char *name, const char *const *progs,
                            const char *const *const *objs, unsigned n) {
  xprof_profile *p = xprof_profile_new();
  for (unsigned i = 0; i < n; i++) {
    xprof_program *g = xprof_add_program(p, progs[i]);
    CHECK(g != NULL);
    for (const char *const *o = objs[i]; *o; o++) {
      if (!xprof_find_objfile(p, *o))
        CHECK(xprof_add_objfile(p, *o) != NULL);
      CHECK(xprof_program_add_objref(p, g, *o) == 0);
    }
  }
  char *dir = malloc(strlen(unit_tmpdir()) + strlen(name) + 16);
  sprintf(dir, "%s/%s.profile", unit_tmpdir(), name);
  xprof_error err;
  CHECK(xprof_write_profile_dir(p, dir, &err) == 0);
  xprof_profile_free(p);
  dir[strlen(dir) - 8] = 0;
  return dir;
}

/* The object of a one-command build (cc -o OUT a.c: OUT-a.o, or a.o when
 * OUT is a) finds the training build's of the same source linked under
 * another name; not another source's, nor one of two candidates. */
static const char *lookup_path(const char *name, const char *objpath) {
  const char *names[] = {name};
  const xprof_objfile *o = NULL;
  int any = 0;
  static char found[256];
  xprof_profile *p = xprof_use_lookup(names, 1, NULL, 0, objpath, &o, &any, NULL, NULL);
  snprintf(found, sizeof found, "%s", p && o ? o->path : "none");
  xprof_profile_free(p);
  return found;
}

static void other_output(void) {
  static const char *const progs[] = {"/w/prog", "/w/tool", "/w/sub/prog"};
  static const char *const prog_objs[] = {"/w/prog-main.o", "/w/prog-util-x.o", NULL};
  static const char *const tool_objs[] = {"/w/tool.o", NULL};
  static const char *const sub_objs[] = {"/w/sub/prog-main.o", NULL};
  static const char *const *const objs[] = {prog_objs, tool_objs, sub_objs};
  char *name = write_programs("outputs", progs, objs, 3);
  CHECK_STR(lookup_path(name, "/w/prog-main.o"), "/w/prog-main.o");
  CHECK_STR(lookup_path(name, "/w/prog-opt-main.o"), "/w/prog-main.o");
  CHECK_STR(lookup_path(name, "/w/main.o"), "/w/prog-main.o");
  CHECK_STR(lookup_path(name, "/w/fast-util-x.o"), "/w/prog-util-x.o");
  CHECK_STR(lookup_path(name, "/w/tool-fast-tool.o"), "/w/tool.o");
  CHECK_STR(lookup_path(name, "/w/sub/x-main.o"), "/w/sub/prog-main.o");
  /* no such source, another directory */
  CHECK_STR(lookup_path(name, "/w/prog-other.o"), "none");
  CHECK_STR(lookup_path(name, "/v/prog-main.o"), "none");
  free(name);
  /* Two programs of the same source in one directory: which is unknown. */
  static const char *const two[] = {"/t/a", "/t/b"};
  static const char *const a_objs[] = {"/t/a-m.o", NULL};
  static const char *const b_objs[] = {"/t/b-m.o", NULL};
  static const char *const *const two_objs[] = {a_objs, b_objs};
  name = write_programs("two", two, two_objs, 2);
  CHECK_STR(lookup_path(name, "/t/c-m.o"), "none");
  CHECK_STR(lookup_path(name, "/t/a-m.o"), "/t/a-m.o");
  free(name);
}

UNIT_TABLE(lookup_tests) = {
    {"lookup/other_output", other_output},
    {"lookup/missing_text", missing_text},
    {"lookup/pathmap_between", pathmap_between_paths},
    {"lookup/pathmap_use_path", pathmap_use_paths},
    {"lookup/explain_missing", explain_missing},
    UNIT_END};
