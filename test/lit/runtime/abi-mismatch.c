// An object compiled for another runtime ABI is refused with a message;
// the program runs normally and writes nothing.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt -DXP_ABI=99 %s -o %t/abi
// RUN: %t/abi 2> err.txt | FileCheck --check-prefix=OUT %s
// OUT: still running
// RUN: FileCheck %s < err.txt
// CHECK: xprof: /handmade/abi.o: compiled for xprof runtime ABI version 99, but this runtime speaks version {{[0-9]+}}; its profile data will not be collected (rebuild it with this xprof)
// RUN: not test -e abi.profile
#include <stdio.h>

#include "handmade.h"

static uint64_t counters[1];
static const struct xprof_abi_proc procs[] = {
    {"main", 0x1, 0, 1, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/abi.o", 0x1, 1, NULL, procs, counters)

int main(void) {
  XP_INC(counters, 0);
  puts("still running");
  return 0;
}
