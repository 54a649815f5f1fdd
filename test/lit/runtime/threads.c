// 8 threads x 1e6 atomic increments give exact totals; value profiles
// recorded from all threads keep exact totals too.  Each value's own
// count may be off by a few events: a value that moves to the front of
// its site (runtime/valueprof.c) can take the add of a thread that found
// it at its old place, as a replacement can.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/threads
// RUN: %t/threads
// RUN: xprof_btoa threads.profile - | FileCheck %s
// CHECK:      PROC: work 0x1 2 1 1 0
// CHECK-NEXT: 0 8
// CHECK-NEXT: 1 8000000
// CHECK-DAG: VP_PROC 0 {{[0-9]+}} even:/handmade/threads.o
// CHECK-DAG: VP_PROC 0 {{[0-9]+}} odd:/handmade/threads.o
// RUN: xprof_btoa threads.profile - | awk '$1 == "VP_PROC" && $3 > 0 { n += $3; d = $3 - 4000000; if (d < 0) d = -d; if (d > 1000) off++ } END { print "events", n, "values off", off + 0 }' | FileCheck --check-prefix=VP %s
// VP: events 8000000 values off 0
#include "handmade.h"

static uint64_t counters[2];
static uint64_t site_state[XPROF_ABI_VP_WORDS(2)] = {2};
static const struct xprof_abi_vp_site sites[] = {{XPROF_ABI_VP_PROC, 0, site_state}};
void even(void) {}
void odd(void) {}
static const struct xprof_abi_proc procs[] = {
    {"work", 0x1, 0, 2, counters, 1, 0, sites, NULL},
    XP_TARGET(even, 0x2, 1, counters),
    XP_TARGET(odd, 0x3, 2, counters),
};
XP_OBJECT(obj, "/handmade/threads.o", 0x7, 2, NULL, procs, counters)

static void *work(void *arg) {
  long id = (long)arg;
  XP_INC(counters, 0);
  for (int i = 0; i < 1000000; i++) {
    XP_INC(counters, 1);
    if (i % 8 == 0) /* half the threads pick even, half odd */
      __xprof_vp_proc(site_state, id % 2 ? (const void *)odd : (const void *)even);
  }
  for (int i = 0; i < 875000; i++) /* 125000 + 875000 = 1e6 per thread */
    __xprof_vp_proc(site_state, id % 2 ? (const void *)odd : (const void *)even);
  return NULL;
}

int main(void) {
  xp_run_threads(8, work);
  return 0;
}
