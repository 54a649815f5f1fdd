// After fork the child counts from zero: parent and child add up to the
// truth (10 before the fork, 5 in the child, 7 in the parent after it).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/fork
// RUN: %t/fork
// RUN: xprof_btoa fork.profile - | FileCheck %s
// CHECK:      PROC: main 0xf0 2 0 0 0
// CHECK-NEXT: 0 1
// CHECK-NEXT: 1 22
#include <sys/wait.h>
#include <unistd.h>

#include "handmade.h"

static uint64_t counters[2];
static const struct xprof_abi_proc procs[] = {
    {"main", 0xf0, 0, 2, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/fork.o", 0xf0, 1, NULL, procs, counters)

int main(void) {
  XP_INC(counters, 0);
  for (int i = 0; i < 10; i++)
    XP_INC(counters, 1);
  pid_t pid = fork();
  if (pid == 0) {
    for (int i = 0; i < 5; i++)
      XP_INC(counters, 1);
    return 0;
  }
  for (int i = 0; i < 7; i++)
    XP_INC(counters, 1);
  int status;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
