// xprof_dump() writes what was counted so far and counting restarts from
// zero; xprof_reset() forgets the counts since the last write.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/api
// RUN: %t/api | FileCheck --check-prefix=OUT %s
// OUT: after dump: 10
// RUN: xprof_btoa api.profile - | FileCheck %s
// CHECK:      PROC: main 0xa1 2 0 0 0
// CHECK-NEXT: 0 1
// CHECK-NEXT: 1 13
#include <stdio.h>

#include "handmade.h"
#include "xprof.h"

static uint64_t counters[2];
static const struct xprof_abi_proc procs[] = {
    {"main", 0xa1, 0, 2, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/api.o", 0xa1, 1, NULL, procs, counters)

int main(void) {
  XP_INC(counters, 0);
  for (int i = 0; i < 10; i++)
    XP_INC(counters, 1);
  if (xprof_dump() != 0)
    return 1;
  xprof_profile *p;
  if (xprof_read_profile_dir("api.profile", &p, NULL) != 0)
    return 1;
  printf("after dump: %llu\n",
         (unsigned long long)p->objfiles[0].procs[0].counters[1]);
  xprof_profile_free(p);
  for (int i = 0; i < 100; i++) /* forgotten */
    XP_INC(counters, 1);
  xprof_reset();
  for (int i = 0; i < 3; i++)
    XP_INC(counters, 1);
  return 0;
}
