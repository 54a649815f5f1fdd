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

struct xprof_summary_acc {
  uint64_t n[NB], sum[NB], min[NB], max[NB];
  xprof_summary *s;
  /* From the first walk: each cutoff's bucket, and the sum and number of
   * the counts in the buckets above it; the second walk's counts of those
   * buckets. */
  unsigned at[XPROF_SUMMARY_CUTOFFS];
  uint64_t above_sum[XPROF_SUMMARY_CUTOFFS], above_n[XPROF_SUMMARY_CUTOFFS];
  unsigned char need[NB]; /* cutoff_bucket(b), worked out once */
  uint64_t *kept;
  uint32_t n_kept, cap;
  int failed;
};

static void summary_begin(xprof_summary_acc *a, xprof_summary *s) {
  memset(a, 0, sizeof *a);
  for (unsigned b = 0; b < NB; b++)
    a->min[b] = UINT64_MAX;
  for (unsigned c = 0; c < XPROF_SUMMARY_CUTOFFS; c++)
    a->at[c] = NB; /* no bucket: no counts reach it */
  memset(s, 0, sizeof *s);
  a->s = s;
}

static inline void summary_add(xprof_summary_acc *a, uint64_t v) {
  if (!v)
    return;
  xprof_summary *s = a->s;
  unsigned b = bucket(v);
  a->n[b]++;
  a->sum[b] = xprof_sat_add(a->sum[b], v);
  if (v < a->min[b])
    a->min[b] = v;
  if (v > a->max[b])
    a->max[b] = v;
  s->n_counts++;
  s->total_sum = xprof_sat_add(s->total_sum, v);
  if (v > s->total_max)
    s->total_max = v;
}

/* The part of the sum that `cutoff` parts per million of it are, rounded
 * down as LLVM's ProfileSummaryBuilder rounds it. */
static uint64_t desired(uint64_t total, uint32_t cutoff) {
  return (uint64_t)((unsigned __int128)total * cutoff / 1000000u);
}

/* The cutoffs: the largest counts first, until each cutoff's share of
 * the sum, bucket by bucket. */
static void summary_end(xprof_summary_acc *a) {
  xprof_summary *s = a->s;
  unsigned c = 0;
  uint64_t acc = 0, count = 0;
  for (int b = NB - 1; b >= 0 && c < XPROF_SUMMARY_CUTOFFS; b--) {
    if (!a->n[b])
      continue;
    uint64_t above = acc, above_n = count;
    acc = xprof_sat_add(acc, a->sum[b]);
    count += a->n[b];
    while (c < XPROF_SUMMARY_CUTOFFS && acc >= desired(s->total_sum, cutoffs[c])) {
      s->entry[c].cutoff = cutoffs[c];
      s->entry[c].min_count = a->min[b];
      s->entry[c].num_counts = count;
      a->at[c] = (unsigned)b;
      a->above_sum[c] = above;
      a->above_n[c] = above_n;
      c++;
    }
  }
  for (; c < XPROF_SUMMARY_CUTOFFS; c++) {
    s->entry[c].cutoff = cutoffs[c];
    s->entry[c].min_count = 1;
    s->entry[c].num_counts = s->n_counts;
  }
}

/* Does bucket b need its counts: is it one that some cutoff fell in,
 * holding more than one value?  (The buckets of small counts hold one
 * value each, and they are where most of a program's counters are.) */
static int cutoff_bucket(const xprof_summary_acc *a, unsigned b) {
  if (a->min[b] == a->max[b])
    return 0;
  for (unsigned c = 0; c < XPROF_SUMMARY_CUTOFFS; c++)
    if (a->at[c] == b)
      return 1;
  return 0;
}

/* The buckets whose counts the second walk keeps: looked up once per
 * count, so worked out once per bucket. */
static void summary_need(xprof_summary_acc *a) {
  for (unsigned b = 0; b < NB; b++)
    a->need[b] = (unsigned char)cutoff_bucket(a, b);
}

static inline void summary_keep(xprof_summary_acc *a, uint64_t v) {
  if (!v || a->failed || !a->need[bucket(v)])
    return;
  if (xprof_grow((void **)&a->kept, &a->cap, a->n_kept, sizeof *a->kept) < 0) {
    a->failed = 1;
    return;
  }
  a->kept[a->n_kept++] = v;
}

static int descending(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? 1 : a > b ? -1 : 0;
}

/* Each cutoff's exact threshold: within its bucket, the counts from the
 * largest down until the sum above the bucket and theirs make up the
 * cutoff's share; the threshold is the last count taken. */
static void summary_exact(xprof_summary_acc *a) {
  xprof_summary *s = a->s;
  if (!a->failed && a->n_kept > 1)
    xprof_sort(a->kept, a->n_kept, sizeof *a->kept, descending);
  for (unsigned c = 0; c < XPROF_SUMMARY_CUTOFFS && !a->failed; c++) {
    if (a->at[c] == NB || a->min[a->at[c]] == a->max[a->at[c]])
      continue; /* no bucket, or one of a single value: exact already */
    uint64_t want = desired(s->total_sum, cutoffs[c]), sum = a->above_sum[c], n = a->above_n[c];
    uint32_t i = 0;
    for (; i < a->n_kept && sum < want; i++) {
      if (bucket(a->kept[i]) != a->at[c])
        continue;
      sum = xprof_sat_add(sum, a->kept[i]);
      n++;
      s->entry[c].min_count = a->kept[i];
    }
    /* LLVM counts every count of the threshold's value. */
    for (; i < a->n_kept && a->kept[i] == s->entry[c].min_count; i++)
      n++;
    s->entry[c].num_counts = n;
  }
  xprof_free(a->kept);
  a->kept = NULL;
  a->n_kept = a->cap = 0;
}

static void add_one(xprof_summary_acc *a, uint64_t v) { summary_add(a, v); }
static void keep_one(xprof_summary_acc *a, uint64_t v) { summary_keep(a, v); }

void xprof_summary_of(xprof_count_walk *walk, const void *src, xprof_summary *s) {
  xprof_summary_acc acc;
  summary_begin(&acc, s);
  walk(src, &acc, add_one);
  summary_end(&acc);
  summary_need(&acc);
  walk(src, &acc, keep_one);
  summary_exact(&acc);
}

/* Every counter of the profile, to summary_add (keep 0) or summary_keep
 * (keep 1).  Not through xprof_summary_of's callback: every training
 * run's exit write sums every counter of the profile twice, and a call
 * per counter was most of that. */
static void profile_walk(const xprof_profile *p, xprof_summary_acc *a, int keep) {
  for (uint32_t i = 0; i < p->n_objfiles; i++)
    for (uint32_t j = 0; j < p->objfiles[i].n_procs; j++) {
      const xprof_proc *f = &p->objfiles[i].procs[j];
      if (keep)
        for (uint32_t k = 0; k < f->n_counters; k++)
          summary_keep(a, f->counters[k]);
      else
        for (uint32_t k = 0; k < f->n_counters; k++)
          summary_add(a, f->counters[k]);
    }
}

void xprof_compute_summary(const xprof_profile *p, xprof_summary *s) {
  xprof_summary_acc acc;
  summary_begin(&acc, s);
  profile_walk(p, &acc, 0);
  summary_end(&acc);
  summary_need(&acc);
  profile_walk(p, &acc, 1);
  summary_exact(&acc);
  for (uint32_t i = 0; i < p->n_objfiles; i++)
    s->n_procs += p->objfiles[i].n_procs;
  s->runs = p->runs;
  s->run_max_sum = p->run_max_sum;
}

uint64_t xprof_cutoff_count(const xprof_summary *s, uint32_t cutoff) {
  for (unsigned c = 0; c < XPROF_SUMMARY_CUTOFFS; c++)
    if (s->entry[c].cutoff == cutoff)
      return s->entry[c].min_count ? s->entry[c].min_count : 1;
  return 1;
}
