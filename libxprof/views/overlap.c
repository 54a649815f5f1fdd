/*
 * overlap.c - how alike two trainings are: the overlap measure of
 * gcov-tool overlap and llvm-profdata overlap, on xprof's counters.
 *
 * Each side's counts are taken as shares of that side's total; the
 * overlap of a scope is the sum, over its counters, of the smaller of the
 * two shares (1: the same distribution, 0: nothing in common).  Counters
 * are comparable only in procedures of the same build (same name and
 * signature in the same object file); the counts of the others, and of
 * procedures on one side only, weigh in the totals and overlap nothing.
 */
#include "internal.h"
#include "xprof_views.h"

/* The sum over counters of min(a/ta, b/tb) for two builds of one
 * procedure (counters matched by id). */
static long double proc_overlap(const xprof_proc *a, const xprof_proc *b, uint64_t ta,
                                uint64_t tb) {
  long double s = 0;
  if (!ta || !tb)
    return 0;
  for (uint32_t k = 0; k < a->n_counters; k++) {
    uint32_t id = a->counter_ids ? a->counter_ids[k] : k;
    long double x = (long double)a->counters[k] / ta;
    long double y = (long double)xprof_proc_counter(b, id) / tb;
    s += x < y ? x : y;
  }
  return s;
}

static const xprof_proc *same_build(const xprof_objfile *o, const xprof_proc *f) {
  const xprof_proc *g = o ? xprof_find_proc(o, f->name) : NULL;
  return g && g->signature == f->signature && g->n_counters == f->n_counters ? g : NULL;
}

/* Totals of both sides over a scope: the whole profile (obj NULL) or one
 * object file's path. */
static void totals(const xprof_profile *p, const char *obj, uint64_t *sum) {
  for (uint32_t i = 0; i < p->n_objfiles; i++)
    if (!obj || strcmp(p->objfiles[i].path, obj) == 0)
      for (uint32_t j = 0; j < p->objfiles[i].n_procs; j++)
        *sum = xprof_sat_add(*sum, xprof_proc_sum(&p->objfiles[i].procs[j]));
}

double xprof_overlap_score(const xprof_profile *a, const xprof_profile *b, const char *obj,
                           xprof_overlap_counts *counts) {
  uint64_t ta = 0, tb = 0;
  totals(a, obj, &ta);
  totals(b, obj, &tb);
  xprof_overlap_counts c = {ta, tb, 0, 0, 0, 0};
  long double s = 0;
  for (uint32_t i = 0; i < a->n_objfiles; i++) {
    const xprof_objfile *oa = &a->objfiles[i];
    if (obj && strcmp(oa->path, obj) != 0)
      continue;
    const xprof_objfile *ob = xprof_find_objfile(b, oa->path);
    for (uint32_t j = 0; j < oa->n_procs; j++) {
      const xprof_proc *f = &oa->procs[j];
      const xprof_proc *g = same_build(ob, f);
      if (g) {
        c.procs_both++;
        s += proc_overlap(f, g, ta, tb);
      } else if (ob && xprof_find_proc(ob, f->name)) {
        c.procs_changed++;
      } else {
        c.procs_only_a++;
      }
    }
  }
  for (uint32_t i = 0; i < b->n_objfiles; i++) {
    const xprof_objfile *ob = &b->objfiles[i];
    if (obj && strcmp(ob->path, obj) != 0)
      continue;
    const xprof_objfile *oa = xprof_find_objfile(a, ob->path);
    for (uint32_t j = 0; j < ob->n_procs; j++)
      if (!oa || !xprof_find_proc(oa, ob->procs[j].name))
        c.procs_only_b++;
  }
  if (counts)
    *counts = c;
  if (!ta && !tb)
    return 1.0; /* two empty trainings are alike */
  return (double)s;
}

double xprof_overlap_proc(const xprof_proc *a, const xprof_proc *b, double *lost,
                          uint64_t whole_a, uint64_t whole_b) {
  uint64_t ta = xprof_proc_sum(a), tb = b ? xprof_proc_sum(b) : 0;
  /* Its share of the whole difference: half the sum of |a/A - b/B|. */
  long double diff = 0;
  for (uint32_t k = 0; k < a->n_counters; k++) {
    uint32_t id = a->counter_ids ? a->counter_ids[k] : k;
    long double x = whole_a ? (long double)a->counters[k] / whole_a : 0;
    long double y = b && whole_b ? (long double)xprof_proc_counter(b, id) / whole_b : 0;
    diff += x > y ? x - y : y - x;
  }
  if (lost)
    *lost = (double)(diff / 2);
  if (!b)
    return ta ? 0.0 : 1.0;
  if (!ta && !tb)
    return 1.0;
  return (double)proc_overlap(a, b, ta, tb);
}
