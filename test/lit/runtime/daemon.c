// daemon() ends the parent with _exit, which runs no exit handlers: the
// counts of the start-up (1 entry, 10 iterations) are written before it,
// and the daemon's own (5 iterations) when it exits: 1 and 15.  Without
// the write the profile would hold the daemon's 5 alone.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/daemon
// RUN: %t/daemon %t/pid
// RUN: bash -c 'for i in $(seq 1 200); do test -s %t/pid && ! kill -0 $(cat %t/pid) 2>/dev/null && exit 0; sleep 0.05; done; exit 1'
// RUN: xprof_btoa daemon.profile - | FileCheck %s
// A static link has no C library's daemon() to find: the runtime's does
// the same itself.
// RUN: rm -rf daemon.profile pid
// RUN: %cc_rt %s -static -o %t/daemon
// RUN: %t/daemon %t/pid
// RUN: bash -c 'for i in $(seq 1 200); do test -s %t/pid && ! kill -0 $(cat %t/pid) 2>/dev/null && exit 0; sleep 0.05; done; exit 1'
// RUN: xprof_btoa daemon.profile - | FileCheck %s
// CHECK:      PROC: main 0xd0 2 0 0 0
// CHECK-NEXT: 0 1
// CHECK-NEXT: 1 15
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "handmade.h"

static uint64_t counters[2];
static const struct xprof_abi_proc procs[] = {
    {"main", 0xd0, 0, 2, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/daemon.o", 0xd0, 1, NULL, procs, counters)

// The daemon leaves its pid for the test, which is not its parent, to
// wait until it is gone (and has written its profile).
static void leave_pid(const char *path) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f)
    exit(3);
  fprintf(f, "%d\n", (int)getpid());
  fclose(f);
  rename(tmp, path);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  XP_INC(counters, 0);
  for (int i = 0; i < 10; i++)
    XP_INC(counters, 1);
  if (daemon(1, 0) != 0) // keeps the directory: the profile goes to %t
    return 1;
  leave_pid(argv[1]);
  for (int i = 0; i < 5; i++)
    XP_INC(counters, 1);
  return 0;
}
