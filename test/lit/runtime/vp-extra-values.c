// A site may hold more values than the object keeps per site
// (n_values_per_vp): a length histogram always does, and so does an
// indirect-call site registered with more pairs.  Only the largest are
// written, and nothing is stored past the record's values: the runtime
// once wrote each further value one element past them, where the name of
// the first value had been allocated (printed as garbage).  A histogram
// drops the other lengths; an indirect call's record keeps the sum of
// its counts (the calls made), the callees that do not fit counted as
// one empty value in the last slot (odd and third: 300).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/extra
// RUN: %t/extra
// RUN: xprof_btoa extra.profile - | FileCheck %s
// CHECK:      PROC: main 0x1 1 2 2 0
// CHECK-NEXT: 0 1
// CHECK-NEXT: VP_LLONG 0 700 32
// CHECK-NEXT: VP_LLONG 0 90 5
// CHECK-NEXT: VP_PROC 1 300 even:/handmade/extra.o{{$}}
// CHECK-NEXT: VP_PROC 1 300{{ *$}}
#include "handmade.h"

static uint64_t counters[1];
static uint64_t h[XPROF_ABI_VP_HIST_WORDS] = {2 | XPROF_ABI_VP_HISTOGRAM};
static uint64_t calls[XPROF_ABI_VP_WORDS(3)] = {3};
static const struct xprof_abi_vp_site sites[] = {{XPROF_ABI_VP_LLONG, 0, h},
                                                {XPROF_ABI_VP_PROC, 1, calls}};
void even(void) {}
void odd(void) {}
void third(void) {}
static const struct xprof_abi_proc procs[] = {
    {"main", 0x1, 0, 1, counters, 2, 0, sites, NULL},
    XP_TARGET(even, 0x2, 1, counters),
    XP_TARGET(odd, 0x3, 2, counters),
    XP_TARGET(third, 0x4, 3, counters),
};
XP_OBJECT(obj, "/handmade/extra.o", 0x9, 2, NULL, procs, counters)

int main(void) {
  XP_INC(counters, 0);
  h[2 + 5] = 90;                            /* length 5 */
  h[2 + 32] = 700;                          /* 32 */
  h[2 + 64] = 50;                           /* 64: third, not written */
  h[2 + XPROF_ABI_VP_HIST_BUCKETS - 1] = 10; /* other lengths: not written */
  for (int i = 0; i < 300; i++)
    __xprof_vp_proc(calls, (const void *)even);
  for (int i = 0; i < 200; i++)
    __xprof_vp_proc(calls, (const void *)odd);
  for (int i = 0; i < 100; i++)
    __xprof_vp_proc(calls, (const void *)third); /* with odd: empty value */
  return 0;
}
