// Code that runs in destructors after the exit-time write is still
// counted: the object's own destructor writes what came after.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/dtor
// RUN: %t/dtor
// RUN: xprof_btoa dtor.profile - | FileCheck %s
// CHECK:      PROC: late 0xd2 1 0 0 1
// CHECK-NEXT: 0 1
#include "handmade.h"

static uint64_t counters[2];
static const struct xprof_abi_proc procs[] = {
    {"main", 0xd1, 0, 1, &counters[0], 0, 0, NULL, NULL},
    {"late", 0xd2, 1, 1, &counters[1], 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/dtor.o", 0xd, 1, NULL, procs, counters)

/* Runs at exit after the atexit write, before the object's destructor
 * (destructors run in reverse order of definition). */
__attribute__((destructor)) static void late(void) { XP_INC(counters, 1); }

int main(void) {
  XP_INC(counters, 0);
  return 0;
}
