/* test_shapes_file.c - a profile directory's shapes file: which shapes go
 * into it, how it is updated and joined to the counts again, and what a
 * damaged one costs. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "xprof.h"

static const unsigned char shape_a[] = {2, 3, 2, 9, 9}, shape_b[] = {2, 4, 3, 7};

/* Two object files: /o/a.o with shapes on both its procedures, /o/b.o
 * with none; counts on f only. */
static xprof_profile *two(uint64_t sig_a) {
  xprof_profile *p = xprof_profile_new();
  xprof_objfile *a = xprof_add_objfile(p, "/o/a.o");
  a->signature = sig_a;
  xprof_proc *f = xprof_add_proc(p, a, "f");
  f->signature = 0x11;
  xprof_proc_alloc_counters(p, f, 2);
  f->counters[1] = 40;
  xprof_proc_set_shape(p, f, shape_a, sizeof shape_a);
  xprof_proc *g = xprof_add_proc(p, a, "g");
  g->signature = 0x22;
  xprof_proc_set_shape(p, g, shape_b, sizeof shape_b);
  xprof_objfile *b = xprof_add_objfile(p, "/o/b.o");
  b->signature = 0xb;
  xprof_add_proc(p, b, "h")->signature = 0x33;
  return p;
}

static void shapes_of(void) {
  xprof_profile *p = two(0xa), *known = two(0xa), *other = two(0xaa);
  xprof_profile *s = xprof_shapes_of(p, NULL);
  CHECK(s && s->n_objfiles == 1); /* b.o has none */
  if (s) {
    CHECK_STR(s->objfiles[0].path, "/o/a.o");
    CHECK_U64(s->objfiles[0].n_procs, 2);
    CHECK_U64(s->objfiles[0].procs[0].n_counters, 0); /* no counts */
    CHECK_U64(s->objfiles[0].procs[1].shape_size, sizeof shape_b);
  }
  xprof_profile_free(s);
  s = xprof_shapes_of(p, known); /* the counts know this build */
  CHECK(s && s->n_objfiles == 0);
  xprof_profile_free(s);
  s = xprof_shapes_of(p, other); /* they know another build of a.o */
  CHECK(s && s->n_objfiles == 1);
  xprof_profile_free(s);
  xprof_profile_free(p);
  xprof_profile_free(known);
  xprof_profile_free(other);
}

static void update_and_attach(void) {
  xprof_profile *old = two(0xa), *new_a = two(0xaa);
  xprof_profile *shapes = xprof_shapes_of(old, NULL), *fresh = xprof_shapes_of(new_a, NULL);
  xprof_objfile *z = xprof_add_objfile(fresh, "/o/0.o"); /* sorts first */
  z->signature = 0x0;
  xprof_proc_set_shape(fresh, xprof_add_proc(fresh, z, "z"), shape_b, sizeof shape_b);
  CHECK(xprof_shapes_update(&shapes, fresh) == 0);
  CHECK_U64(shapes->n_objfiles, 2);
  CHECK_STR(shapes->objfiles[0].path, "/o/0.o");
  CHECK_U64(shapes->objfiles[1].signature, 0xaa); /* replaced */

  /* Joined to counts of the same build only, procedure by procedure. */
  xprof_profile *counts = two(0xaa);
  for (uint32_t j = 0; j < counts->objfiles[0].n_procs; j++)
    xprof_proc_set_shape(counts, &counts->objfiles[0].procs[j], NULL, 0);
  counts->objfiles[0].procs[1].signature = 0x99; /* g changed */
  CHECK(xprof_attach_shapes(counts, shapes) == 0);
  CHECK_U64(counts->objfiles[0].procs[0].shape_size, sizeof shape_a);
  CHECK(counts->objfiles[0].procs[1].shape == NULL);
  xprof_profile *stale = two(0xa);
  xprof_proc_set_shape(stale, &stale->objfiles[0].procs[0], NULL, 0);
  CHECK(xprof_attach_shapes(stale, shapes) == 0);
  CHECK(stale->objfiles[0].procs[0].shape == NULL); /* another build */
  xprof_profile_free(stale);
  xprof_profile_free(counts);
  xprof_profile_free(fresh);
  xprof_profile_free(shapes);
  xprof_profile_free(new_a);
  xprof_profile_free(old);
}

static int file_has(const char *path, const char *what) {
  size_t n;
  char *b = unit_read_file(path, &n);
  int found = b && memmem(b, n, what, strlen(what)) != NULL;
  free(b);
  return found;
}

/* A profile directory: counts in feedback, shapes in shapes; read whole
 * or looked up, they come together again. */
static void directory(void) {
  char dir[256], path[300];
  xprof_error err;
  snprintf(dir, sizeof dir, "%s/shapes.profile", unit_tmpdir());
  xprof_profile *p = two(0xa), *q = NULL, *one = NULL;
  CHECK(xprof_write_profile_dir(p, dir, &err) == 0);
  snprintf(path, sizeof path, "%s/feedback", dir);
  CHECK(!file_has(path, "SHAP"));
  snprintf(path, sizeof path, "%s/shapes", dir);
  CHECK(file_has(path, "SHAP"));
  CHECK(xprof_read_profile_dir(dir, &q, &err) == 0);
  CHECK(q && q->objfiles[0].procs[1].shape_size == sizeof shape_b && !q->shapes_problem);
  CHECK(xprof_lookup_objfile(dir, "/o/a.o", &one, &err) == 0);
  CHECK(one && one->objfiles[0].procs[0].shape_size == sizeof shape_a);
  xprof_profile_free(one);
  one = NULL;
  /* The feedback file named directly comes with its shapes too. */
  xprof_profile_free(q);
  q = NULL;
  snprintf(path, sizeof path, "%s/feedback", dir);
  CHECK(xprof_read_profile_dir(path, &q, &err) == 0);
  CHECK(q && q->objfiles[0].procs[0].shape != NULL);
  xprof_profile_free(q);
  q = NULL;

  /* A damaged shapes file: the counts, no shapes, and why. */
  snprintf(path, sizeof path, "%s/shapes", dir);
  CHECK(unit_write_file(path, "garbage", 7) == 0);
  CHECK(xprof_lookup_objfile(dir, "/o/a.o", &one, &err) == 0);
  CHECK(one && one->objfiles[0].procs[0].shape == NULL && one->objfiles[0].procs[0].counters[1] == 40);
  CHECK(one && one->shapes_problem && strstr(one->shapes_problem, "too short"));
  xprof_profile_free(one);

  /* Counts without shapes leave no shapes file behind. */
  xprof_profile *bare = two(0xa);
  xprof_proc_set_shape(bare, &bare->objfiles[0].procs[0], NULL, 0);
  xprof_proc_set_shape(bare, &bare->objfiles[0].procs[1], NULL, 0);
  CHECK(xprof_write_profile_dir(bare, dir, &err) == 0);
  CHECK(access(path, F_OK) != 0);
  xprof_profile_free(bare);

  /* Data of xprof 4.7 kept the shapes among the counts: still read. */
  snprintf(path, sizeof path, "%s/feedback", dir);
  CHECK(xprof_binary_write_file(p, path, &err) == 0);
  CHECK(xprof_read_profile_dir(dir, &q, &err) == 0);
  CHECK(q && q->objfiles[0].procs[0].shape_size == sizeof shape_a);
  xprof_profile_free(q);
  xprof_profile_free(p);
}

UNIT_TABLE(shapes_file_tests) = {
    {"shapes_file/shapes_of", shapes_of},
    {"shapes_file/update_and_attach", update_and_attach},
    {"shapes_file/directory", directory},
    UNIT_END};
