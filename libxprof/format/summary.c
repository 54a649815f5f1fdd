/*
 * summary.c - a profile's counter summary: the percentiles of its counts
 * from which compilers set their hot and cold thresholds (LLVM's
 * ProfileSummary), computed when binary data is written (it is stored)
 * and when a use build reads text.
 */
#include "internal.h"

static const uint32_t cutoffs[XPROF_SUMMARY_CUTOFFS] = {
    10000,  100000, 200000, 300000, 400000, 500000, 600000, 700000,
    800000, 900000, 950000, 990000, 999000, 999900, 999990, 999999};

/* Bucket of a nonzero count: 4 per power of two. */
static unsigned bucket(uint64_t v) {
  unsigned lg = 63u - (unsigned)__builtin_clzll(v);
  unsigned sub = lg >= 2 ? (unsigned)((v >> (lg - 2)) & 3) : (unsigned)(v & 3);
  return lg * 4 + sub;
}

enum { NB = 64 * 4 };

void xprof_summary_begin(xprof_summary_acc *a, xprof_summary *s) {
  memset(a->n, 0, sizeof a->n);
  memset(a->sum, 0, sizeof a->sum);
  for (unsigned b = 0; b < NB; b++)
    a->min[b] = UINT64_MAX;
  memset(s, 0, sizeof *s);
  a->s = s;
}

void xprof_summary_add(xprof_summary_acc *a, uint64_t v) {
  if (!v)
    return;
  xprof_summary *s = a->s;
  unsigned b = bucket(v);
  a->n[b]++;
  a->sum[b] = xprof_sat_add(a->sum[b], v);
  if (v < a->min[b])
    a->min[b] = v;
  s->n_counts++;
  s->total_sum = xprof_sat_add(s->total_sum, v);
  if (v > s->total_max)
    s->total_max = v;
}

/* The cutoffs: the largest counts first, until each cutoff's share of
 * the sum. */
void xprof_summary_end(xprof_summary_acc *a) {
  xprof_summary *s = a->s;
  unsigned c = 0;
  uint64_t acc = 0, count = 0;
  for (int b = NB - 1; b >= 0 && c < XPROF_SUMMARY_CUTOFFS; b--) {
    if (!a->n[b])
      continue;
    acc = xprof_sat_add(acc, a->sum[b]);
    count += a->n[b];
    while (c < XPROF_SUMMARY_CUTOFFS &&
           (long double)acc >= (long double)s->total_sum * cutoffs[c] / 1e6L) {
      s->entry[c].cutoff = cutoffs[c];
      s->entry[c].min_count = a->min[b];
      s->entry[c].num_counts = count;
      c++;
    }
  }
  for (; c < XPROF_SUMMARY_CUTOFFS; c++) {
    s->entry[c].cutoff = cutoffs[c];
    s->entry[c].min_count = 1;
    s->entry[c].num_counts = s->n_counts;
  }
}

void xprof_compute_summary(const xprof_profile *p, xprof_summary *s) {
  xprof_summary_acc acc, *a = &acc;
  xprof_summary_begin(a, s);
  for (uint32_t i = 0; i < p->n_objfiles; i++)
    for (uint32_t j = 0; j < p->objfiles[i].n_procs; j++) {
      const xprof_proc *f = &p->objfiles[i].procs[j];
      s->n_procs++;
      for (uint32_t k = 0; k < f->n_counters; k++)
        xprof_summary_add(a, f->counters[k]);
    }
  xprof_summary_end(a);
  s->runs = p->runs;
  s->run_max_sum = p->run_max_sum;
}

uint64_t xprof_cutoff_count(const xprof_summary *s, uint32_t cutoff) {
  for (unsigned c = 0; c < XPROF_SUMMARY_CUTOFFS; c++)
    if (s->entry[c].cutoff == cutoff)
      return s->entry[c].min_count ? s->entry[c].min_count : 1;
  return 1;
}
