// Lengths of memory operations are counted by the compiled code in a
// histogram (no runtime call): the runtime writes the buckets with the
// largest counts as values -- lengths 0 to 128, and -1 for all longer
// ones -- at most n_values_per_vp of them, largest first; a
// reset clears the histogram, whose size it finds from its first word.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/hist
// RUN: %t/hist
// RUN: xprof_btoa hist.profile - | FileCheck %s
// CHECK:      PROC: main 0x1 1 2 2 0
// CHECK-NEXT: 0 1
// CHECK-NEXT: VP_LLONG 0 700 32
// CHECK-NEXT: VP_LLONG 0 200 -1
// CHECK-NEXT: VP_LLONG 0 90 5
// CHECK-NEXT: VP_LLONG 1 3 0
// CHECK-NEXT: VP_LLONG 1 0
// CHECK-NEXT: VP_LLONG 1 0
#include "handmade.h"

static uint64_t counters[1];
static uint64_t h0[XPROF_ABI_VP_HIST_WORDS] = {3 | XPROF_ABI_VP_HISTOGRAM};
static uint64_t h1[XPROF_ABI_VP_HIST_WORDS] = {3 | XPROF_ABI_VP_HISTOGRAM};
static const struct xprof_abi_vp_site sites[] = {{XPROF_ABI_VP_LLONG, 0, h0},
                                                {XPROF_ABI_VP_LLONG, 1, h1}};
static const struct xprof_abi_proc procs[] = {
    {"main", 0x1, 0, 1, counters, 2, 0, sites, NULL},
};
XP_OBJECT(obj, "/handmade/hist.o", 0x9, 3, NULL, procs, counters)

/* The bucket the compiled code counts a length in. */
static unsigned bucket(uint64_t len) {
  return len <= XPROF_ABI_VP_HIST_LONGEST ? (unsigned)len : XPROF_ABI_VP_HIST_BUCKETS - 1;
}

static void count(uint64_t *h, uint64_t len) { XP_INC(h + 2, bucket(len)); }

int main(void) {
  for (int i = 0; i < 700; i++)
    count(h0, 32);
  for (int i = 0; i < 200; i++)
    count(h0, 129 + i); /* other lengths: one bucket */
  for (int i = 0; i < 90; i++)
    count(h0, 5);
  for (int i = 0; i < 10; i++)
    count(h0, 128); /* the fourth largest: not written (3 values) */
  /* Counted, then reset: only what comes after stays (h0's counts are
   * made again). */
  for (int i = 0; i < 50; i++)
    count(h1, 64);
  uint64_t keep[XPROF_ABI_VP_HIST_WORDS];
  for (int i = 0; i < XPROF_ABI_VP_HIST_WORDS; i++)
    keep[i] = h0[i];
  xprof_reset();
  XP_INC(counters, 0);
  for (int i = 2; i < XPROF_ABI_VP_HIST_WORDS; i++)
    h0[i] = keep[i];
  for (int i = 0; i < 3; i++)
    count(h1, 0);
  return 0;
}
