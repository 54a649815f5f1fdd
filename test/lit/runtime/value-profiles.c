// Value profiles: the most frequent values by count, callees named as
// entry:objfile, a callee that xprof did not compile written with an
// empty value, integer sites of both widths.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/vp
// RUN: %t/vp
// RUN: xprof_btoa vp.profile - | FileCheck %s
// CHECK:      PROFILE-FEEDBACK-DATA: 3.1 1 1 2
// CHECK:      PROC: main 0x1 1 3 3 0
// CHECK-NEXT: 0 1
// CHECK-NEXT: VP_PROC 0 700 hot:/handmade/vp.o
// CHECK-NEXT: VP_PROC 0 200 warm:/handmade/vp.o
// CHECK-NEXT: VP_PROC 0 100
// CHECK-NEXT: VP_INT 1 500 -7
// CHECK-NEXT: VP_INT 1 300 42
// CHECK-NEXT: VP_INT 1 200 1000000
// CHECK-NEXT: VP_LLONG 2 1 -9000000000
// CHECK-NEXT: VP_LLONG 2 0
// CHECK-NEXT: VP_LLONG 2 0
#include <stdlib.h>

#include "handmade.h"

static uint64_t counters[1];
static uint64_t s0[XPROF_ABI_VP_WORDS(3)] = {3}, s1[XPROF_ABI_VP_WORDS(3)] = {3},
                s2[XPROF_ABI_VP_WORDS(3)] = {3};
static const struct xprof_abi_vp_site sites[] = {
    {XPROF_ABI_VP_PROC, 0, s0}, {XPROF_ABI_VP_INT, 1, s1}, {XPROF_ABI_VP_LLONG, 2, s2}};
void hot(void) {}
void warm(void) {}
static const struct xprof_abi_proc procs[] = {
    {"main", 0x1, 0, 1, counters, 3, 0, sites, NULL},
    XP_TARGET(hot, 0x2, 1, counters),
    XP_TARGET(warm, 0x3, 2, counters),
};
XP_OBJECT(obj, "/handmade/vp.o", 0x9, 3, NULL, procs, counters)

int main(void) {
  XP_INC(counters, 0);
  for (int i = 0; i < 1000; i++) {
    const void *callee = i % 10 < 7 ? (const void *)hot
                         : i % 10 < 9 ? (const void *)warm
                                      : (const void *)abort; /* not ours */
    __xprof_vp_proc(s0, callee);
    __xprof_vp_int(s1, i % 2 ? -7 : i % 5 < 3 ? 42 : 1000000);
  }
  __xprof_vp_llong(s2, -9000000000ll);
  return 0;
}
