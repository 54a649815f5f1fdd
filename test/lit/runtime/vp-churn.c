// Value profiles under churn: three values of equal weight at a site that
// keeps two, recorded by 8 threads, so that replacements and moves to the
// front (under the site's lock) run all the time beside adds made without
// it.  The counts must still sum to the number of events exactly (an add
// under the lock that was a plain load and store lost events meanwhile
// added without it).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/churn
// RUN: %t/churn
// RUN: xprof_btoa churn.profile - | awk '$1 == "VP_PROC" { n += $3 } END { print "events", n }' | FileCheck %s
// CHECK: events 6000000
#include "handmade.h"

static uint64_t counters[1];
static uint64_t site_state[XPROF_ABI_VP_WORDS(2)] = {2};
static const struct xprof_abi_vp_site sites[] = {{XPROF_ABI_VP_PROC, 0, site_state}};
void f0(void) {}
void f1(void) {}
void f2(void) {}
static const struct xprof_abi_proc procs[] = {
    {"work", 0x1, 0, 1, counters, 1, 0, sites, NULL},
    XP_TARGET(f0, 0x2, 1, counters),
    XP_TARGET(f1, 0x3, 2, counters),
    XP_TARGET(f2, 0x4, 3, counters),
};
XP_OBJECT(obj, "/handmade/churn.o", 0x7, 2, NULL, procs, counters)

static void *work(void *arg) {
  long id = (long)arg;
  static void (*const fns[3])(void) = {f0, f1, f2};
  for (int i = 0; i < 750000; i++) /* 8 x 750000 = 6e6 events */
    __xprof_vp_proc(site_state, (const void *)fns[(i + id) % 3]);
  return NULL;
}

int main(void) {
  xp_run_threads(8, work);
  XP_INC(counters, 0);
  return 0;
}
