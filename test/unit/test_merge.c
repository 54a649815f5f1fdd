/* test_merge.c - merging: sums, saturation, value profiles, rebuilds. */
#include <stdlib.h>

#include "unit.h"
#include "xprof_plan.h"
#include "xprof_views.h"

/* A profile with program P holding objects a.o and b.o, each with one
 * procedure of 3 counters (c0, c1, c2) and one VP_INT record. */
static xprof_profile *make(uint64_t sig_a, uint64_t tv_a, uint64_t c0,
                           uint64_t c1, uint64_t c2) {
  xprof_profile *p = xprof_profile_new();
  const char *names[] = {"a.o", "b.o"};
  for (int i = 0; i < 2; i++) {
    xprof_objfile *o = xprof_add_objfile(p, names[i]);
    o->signature = i == 0 ? sig_a : 0xb;
    o->tv_sec = i == 0 ? tv_a : 100;
    o->n_values_per_vp = 2;
    xprof_proc *f = xprof_add_proc(p, o, i == 0 ? "fa" : "fb");
    f->signature = o->signature;
    xprof_proc_alloc_counters(p, f, 3);
    f->counters[0] = c0;
    f->counters[1] = c1;
    f->counters[2] = c2;
    f->n_vp_sites = 1;
    xprof_proc_alloc_vp(p, o, f, 1);
    f->vp[0].type = XPROF_VP_INT;
    f->vp[0].values[0].count = c0;
    f->vp[0].values[0].bits = 7;
  }
  xprof_program *g = xprof_add_program(p, "P");
  xprof_program_add_objref(p, g, "a.o");
  xprof_program_add_objref(p, g, "b.o");
  return p;
}

static const xprof_proc *proc(const xprof_profile *p, const char *obj) {
  const xprof_objfile *o = xprof_find_objfile(p, obj);
  return o ? &o->procs[0] : NULL;
}

static void sums_and_weights(void) {
  xprof_profile *d = make(0xa, 100, 1, 2, 3), *s = make(0xa, 100, 10, 20, 30);
  xprof_error err;
  CHECK(xprof_merge(d, s, 3, XPROF_REPLACE_OBJFILE, &err) == 0);
  const xprof_proc *f = proc(d, "a.o");
  CHECK_U64(f->counters[0], 31);
  CHECK_U64(f->counters[1], 62);
  CHECK_U64(f->counters[2], 93);
  CHECK_U64(f->vp[0].values[0].count, 31);
  CHECK_U64(d->n_objfiles, 2);
  CHECK_U64(d->programs[0].n_objrefs, 2);
  CHECK(xprof_merge(d, s, 0, XPROF_REPLACE_OBJFILE, &err) == -1);
  xprof_profile_free(d);
  xprof_profile_free(s);
}

static void saturation(void) {
  xprof_profile *d = make(0xa, 100, UINT64_MAX - 1, UINT64_MAX, 5);
  xprof_profile *s = make(0xa, 100, 5, 1, UINT64_MAX / 2 + 1);
  xprof_error err;
  CHECK(xprof_merge(d, s, 2, XPROF_REPLACE_OBJFILE, &err) == 0);
  const xprof_proc *f = proc(d, "a.o");
  CHECK_U64(f->counters[0], UINT64_MAX);
  CHECK_U64(f->counters[1], UINT64_MAX);
  CHECK_U64(f->counters[2], UINT64_MAX); /* weight overflow saturates too */
  xprof_profile_free(d);
  xprof_profile_free(s);
}

static void counter_id_union(void) {
  xprof_profile *d = make(0xa, 100, 1, 2, 3), *s = make(0xa, 100, 0, 0, 0);
  xprof_error err;
  xprof_proc *f = &s->objfiles[0].procs[0];
  f->counter_ids = xprof_alloc(s, 3 * sizeof(uint32_t));
  f->counter_ids[0] = 1;
  f->counter_ids[1] = 5;
  f->counter_ids[2] = 9;
  f->counters[0] = 10;
  f->counters[1] = 50;
  f->counters[2] = 90;
  CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  const xprof_proc *g = proc(d, "a.o");
  CHECK_U64(g->n_counters, 5);
  CHECK_U64(xprof_proc_counter(g, 0), 1);
  CHECK_U64(xprof_proc_counter(g, 1), 12);
  CHECK_U64(xprof_proc_counter(g, 2), 3);
  CHECK_U64(xprof_proc_counter(g, 5), 50);
  CHECK_U64(xprof_proc_counter(g, 9), 90);
  xprof_profile_free(d);
  xprof_profile_free(s);
}

static void set_values(xprof_vp_record *v, const uint64_t *counts,
                       const int64_t *vals, int n) {
  for (int k = 0; k < n; k++) {
    v->values[k].count = counts[k];
    v->values[k].bits = counts[k] ? (uint64_t)vals[k] : 0;
  }
}

static void value_profiles(void) {
  xprof_error err;
  /* The union fits: exact. */
  xprof_profile *d = make(0xa, 100, 1, 0, 0), *s = make(0xa, 100, 1, 0, 0);
  xprof_vp_record *dv = &d->objfiles[0].procs[0].vp[0];
  xprof_vp_record *sv = &s->objfiles[0].procs[0].vp[0];
  set_values(dv, (uint64_t[]){5, 0}, (int64_t[]){-3, 0}, 2);
  set_values(sv, (uint64_t[]){4, 2}, (int64_t[]){8, -3}, 2);
  CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  dv = &d->objfiles[0].procs[0].vp[0];
  CHECK_U64(dv->values[0].count, 7);
  CHECK_U64(dv->values[0].bits, (uint64_t)-3);
  CHECK_U64(dv->values[1].count, 4);
  CHECK_U64(dv->values[1].bits, 8);
  xprof_profile_free(d);
  xprof_profile_free(s);

  /* Three values for two places: the two largest stay. */
  d = make(0xa, 100, 1, 0, 0);
  s = make(0xa, 100, 1, 0, 0);
  dv = &d->objfiles[0].procs[0].vp[0];
  sv = &s->objfiles[0].procs[0].vp[0];
  set_values(dv, (uint64_t[]){5, 3}, (int64_t[]){1, 2}, 2);
  set_values(sv, (uint64_t[]){6, 1}, (int64_t[]){3, 2}, 2);
  CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  dv = &d->objfiles[0].procs[0].vp[0];
  CHECK_U64(dv->values[0].bits, 3);
  CHECK_U64(dv->values[0].count, 6);
  CHECK_U64(dv->values[1].bits, 1);
  CHECK_U64(dv->values[1].count, 5);
  xprof_profile_free(d);
  xprof_profile_free(s);
}

static void vp_proc_and_new_records(void) {
  xprof_error err;
  xprof_profile *d = make(0xa, 100, 1, 0, 0), *s = make(0xa, 100, 1, 0, 0);
  xprof_proc *sf = &s->objfiles[0].procs[0];
  /* s has an extra record for expression 4, VP_PROC */
  xprof_vp_record *old = sf->vp;
  xprof_proc_alloc_vp(s, &s->objfiles[0], sf, 2);
  sf->vp[0] = old[0];
  sf->vp[1].type = XPROF_VP_PROC;
  sf->vp[1].expr_id = 4;
  sf->vp[1].values[0].count = 9;
  sf->vp[1].values[0].proc = "g:b.o";
  sf->vp[1].values[1].count = 2; /* an unprofiled callee */
  CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  const xprof_proc *f = proc(d, "a.o");
  CHECK_U64(f->n_vp_records, 2);
  CHECK_U64(f->vp[1].expr_id, 4);
  CHECK_STR(f->vp[1].values[0].proc, "g:b.o");
  CHECK_U64(f->vp[1].values[0].count, 18);
  CHECK(f->vp[1].values[1].proc == NULL);
  CHECK_U64(f->vp[1].values[1].count, 4);
  xprof_profile_free(d);
  xprof_profile_free(s);
}

/* An indirect call's record keeps the sum of its counts (the calls made):
 * callees that do not fit go to the empty value, in the last slot. */
static void vp_proc_keeps_calls(void) {
  xprof_error err;
  xprof_profile *d = make(0xa, 100, 1, 0, 0), *s = make(0xa, 100, 1, 0, 0);
  xprof_vp_record *dv = &d->objfiles[0].procs[0].vp[0];
  xprof_vp_record *sv = &s->objfiles[0].procs[0].vp[0];
  dv->type = sv->type = XPROF_VP_PROC;
  dv->values[0] = (xprof_vp_value){5, 0, "f:a.o"};
  dv->values[1] = (xprof_vp_value){3, 0, "g:a.o"};
  sv->values[0] = (xprof_vp_value){6, 0, "h:a.o"};
  sv->values[1] = (xprof_vp_value){4, 0, "g:a.o"};
  CHECK(xprof_merge(d, s, 2, XPROF_REPLACE_OBJFILE, &err) == 0);
  dv = &d->objfiles[0].procs[0].vp[0];
  /* h 12, g 3 + 8, f 5: h stays, g and f go to the empty value. */
  CHECK(dv->values[0].proc == NULL);
  CHECK_U64(dv->values[0].count, 16);
  CHECK_STR(dv->values[1].proc, "h:a.o");
  CHECK_U64(dv->values[1].count, 12);
  /* Merging again keeps the sum: 28 + 28. */
  xprof_profile *q = xprof_profile_new();
  CHECK(xprof_merge(q, d, 1, XPROF_REPLACE_OBJFILE, &err) == 0); /* a copy */
  CHECK(xprof_merge(d, q, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  dv = &d->objfiles[0].procs[0].vp[0];
  CHECK_U64(dv->values[0].count + dv->values[1].count, 56);
  xprof_profile_free(q);
  xprof_profile_free(d);
  xprof_profile_free(s);

  /* One slot: the value kept takes all (as the runtime's recorder does). */
  xprof_vp_value v[3] = {{2, 0, "a"}, {7, 0, NULL}, {4, 0, "b"}}, out[1];
  xprof_vp_keep_largest(XPROF_VP_PROC, v, 3, out, 1);
  CHECK(out[0].proc == NULL);
  CHECK_U64(out[0].count, 13);
  /* Numbers drop what does not fit; all that fits is kept in order. */
  xprof_vp_value n[3] = {{2, 1, NULL}, {7, 2, NULL}, {4, 3, NULL}}, two[2];
  xprof_vp_keep_largest(XPROF_VP_LLONG, n, 3, two, 2);
  CHECK_U64(two[0].bits, 2);
  CHECK_U64(two[1].bits, 3);
  CHECK_U64(two[0].count + two[1].count, 11);
  xprof_vp_value f[1] = {{2, 0, "a"}}, three[3];
  xprof_vp_keep_largest(XPROF_VP_PROC, f, 1, three, 3);
  CHECK_STR(three[0].proc, "a");
  CHECK_U64(three[1].count + three[2].count, 0);
}

/* What the compilers hand their optimizers: values with a count (and a
 * name, for callees) by decreasing count, ties in record order, and the
 * record's whole total. */
static void vp_order(void) {
  xprof_objfile o = {0};
  o.n_values_per_vp = 5;
  xprof_vp_value v[5] = {{3, 7, NULL}, {9, 8, NULL}, {0, 0, NULL}, {3, 5, NULL}, {4, 6, NULL}};
  xprof_vp_record rec = {XPROF_VP_LLONG, 0, v};
  uint32_t order[64];
  uint64_t total;
  CHECK_U64(xprof_vp_order(&o, &rec, order, &total), 4);
  CHECK_U64(total, 19);
  CHECK_U64(order[0], 1);
  CHECK_U64(order[1], 4);
  CHECK_U64(order[2], 0);
  CHECK_U64(order[3], 3);
  /* Callees without a name count in the total only. */
  xprof_vp_value c[2] = {{6, 0, NULL}, {2, 0, "f:/b/x.o"}};
  xprof_vp_record calls = {XPROF_VP_PROC, 0, c};
  o.n_values_per_vp = 2;
  CHECK_U64(xprof_vp_order(&o, &calls, order, &total), 1);
  CHECK_U64(order[0], 1);
  CHECK_U64(total, 8);
}

static void rebuilt_objfile(void) {
  xprof_error err;
  /* objfile: the newer build replaces a.o only */
  xprof_profile *d = make(0xa, 100, 1, 1, 1), *s = make(0xaa, 200, 7, 7, 7);
  CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  CHECK_U64(xprof_find_objfile(d, "a.o")->signature, 0xaa);
  CHECK_U64(proc(d, "a.o")->counters[0], 7);
  CHECK_U64(proc(d, "b.o")->counters[0], 8);
  xprof_profile_free(d);
  xprof_profile_free(s);

  /* objfile: older incoming data is dropped */
  d = make(0xaa, 200, 7, 7, 7);
  s = make(0xa, 100, 1, 1, 1);
  CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  CHECK_U64(xprof_find_objfile(d, "a.o")->signature, 0xaa);
  CHECK_U64(proc(d, "a.o")->counters[0], 7);
  CHECK_U64(proc(d, "b.o")->counters[0], 8);
  xprof_profile_free(d);
  xprof_profile_free(s);

  /* program: b.o, in the same program, is reset as well */
  d = make(0xa, 100, 1, 1, 1);
  s = make(0xaa, 200, 7, 7, 7);
  xprof_objfile *extra = xprof_add_objfile(d, "other.o");
  extra->signature = 0x0;
  CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_PROGRAM, &err) == 0);
  CHECK_U64(proc(d, "a.o")->counters[0], 7);
  CHECK_U64(proc(d, "b.o")->counters[0], 7);
  CHECK(xprof_find_objfile(d, "other.o") != NULL);
  CHECK_U64(d->programs[0].n_objrefs, 2);
  xprof_profile_free(d);
  xprof_profile_free(s);

  /* all: everything older goes, other.o included */
  d = make(0xa, 100, 1, 1, 1);
  s = make(0xaa, 200, 7, 7, 7);
  xprof_add_objfile(d, "other.o");
  CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_ALL, &err) == 0);
  CHECK(xprof_find_objfile(d, "other.o") == NULL);
  CHECK_U64(proc(d, "b.o")->counters[0], 7);
  CHECK_U64(d->n_objfiles, 2);
  xprof_profile_free(d);
  xprof_profile_free(s);

  /* equal timestamps: the incoming side counts as newer */
  d = make(0xa, 100, 1, 1, 1);
  s = make(0xaa, 100, 7, 7, 7);
  CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  CHECK_U64(xprof_find_objfile(d, "a.o")->signature, 0xaa);
  xprof_profile_free(d);
  xprof_profile_free(s);
}

static void programs_united(void) {
  xprof_error err;
  xprof_profile *d = make(0xa, 100, 1, 1, 1), *s = xprof_profile_new();
  xprof_objfile *o = xprof_add_objfile(s, "lib.o");
  o->signature = 3;
  xprof_program *g = xprof_add_program(s, "lib.so");
  xprof_program_add_objref(s, g, "lib.o");
  g = xprof_add_program(s, "P");
  xprof_program_add_objref(s, g, "a.o"); /* not in s: must not dangle */
  xprof_program_add_objref(s, g, "lib.o");
  CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  CHECK_U64(d->n_programs, 2);
  const xprof_program *p = xprof_find_program(d, "P");
  CHECK_U64(p->n_objrefs, 3);
  CHECK(xprof_validate(d, "d", &err) == 0);
  xprof_profile_free(d);
  xprof_profile_free(s);
}

/* A merge into a profile directory's counts (no_shapes) leaves src's
 * shapes out, of procedures it knows and of object files new to it; an
 * ordinary merge copies them. */
static void no_shapes(void) {
  static const unsigned char shape[] = {2, 3, 2, 9};
  xprof_error err;
  for (int counts_only = 0; counts_only <= 1; counts_only++) {
    xprof_profile *d = make(0xa, 100, 1, 2, 3), *s = make(0xa, 100, 10, 20, 30);
    xprof_objfile *o = xprof_add_objfile(s, "c.o");
    o->signature = 0xc;
    xprof_proc *g = xprof_add_proc(s, o, "fc");
    g->signature = 0xc;
    xprof_proc_set_shape(s, g, shape, sizeof shape);
    xprof_proc_set_shape(s, &s->objfiles[0].procs[0], shape, sizeof shape);
    xprof_program_add_objref(s, &s->programs[0], "c.o");
    d->no_shapes = counts_only;
    CHECK(xprof_merge(d, s, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
    CHECK_U64(proc(d, "a.o")->counters[0], 11);
    CHECK_U64(proc(d, "a.o")->shape_size, counts_only ? 0 : sizeof shape);
    CHECK_U64(proc(d, "c.o")->shape_size, counts_only ? 0 : sizeof shape);
    CHECK(counts_only == (proc(d, "c.o")->shape == NULL));
    xprof_profile_free(d);
    xprof_profile_free(s);
  }
}

/* Whether a profile knows every object file of another in its build:
 * a missing object, another signature, another number of values. */
static void knows_builds(void) {
  xprof_profile *d = make(0xa, 100, 1, 2, 3), *s = make(0xa, 200, 4, 5, 6);
  CHECK(xprof_knows_builds(d, s) == 1); /* a later run of the same build */
  xprof_profile *other = make(0xaa, 200, 4, 5, 6);
  CHECK(xprof_knows_builds(d, other) == 0);
  s->objfiles[1].n_values_per_vp = 4;
  CHECK(xprof_knows_builds(d, s) == 0);
  s->objfiles[1].n_values_per_vp = 2;
  xprof_add_objfile(s, "c.o")->signature = 0xc;
  CHECK(xprof_knows_builds(d, s) == 0);
  CHECK(xprof_knows_builds(s, d) == 1); /* s has all of d's */
  xprof_profile_free(d);
  xprof_profile_free(s);
  xprof_profile_free(other);
}

UNIT_TABLE(merge_tests) = {
    {"merge/sums_and_weights", sums_and_weights},
    {"merge/saturation", saturation},
    {"merge/counter_id_union", counter_id_union},
    {"merge/value_profiles", value_profiles},
    {"merge/vp_proc_and_new_records", vp_proc_and_new_records},
    {"merge/vp_proc_keeps_calls", vp_proc_keeps_calls},
    {"merge/vp_order", vp_order},
    {"merge/rebuilt_objfile", rebuilt_objfile},
    {"merge/programs_united", programs_united},
    {"merge/no_shapes", no_shapes},
    {"merge/knows_builds", knows_builds},
    UNIT_END};
