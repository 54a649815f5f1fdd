// Counts land in NAME.profile/feedback in the current directory, runs
// accumulate, and the PROGRAM record names the executable.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/basic
// RUN: %t/basic 3
// RUN: xprof_btoa basic.profile - | FileCheck --check-prefix=ONE %s
// ONE:      PROFILE-FEEDBACK-DATA: 3.1 1 1 0
// ONE-NEXT: #+ RUNS 1 3
// ONE-NEXT: OBJFILE: /handmade/basic.o 2 1763777000 0 4
// ONE-NEXT: 0x5eed
// ONE-NEXT: PROC: main 0xaaaa 2 0 0 0
// ONE-NEXT: 0 1
// ONE-NEXT: 1 3
// ONE-NEXT: PROC: never_run 0xbbbb 0 0 0 1
// ONE-NEXT: PROGRAM: {{.*}}/basic 1
// ONE-NEXT: OBJREF: /handmade/basic.o
// RUN: %t/basic 4
// RUN: xprof_btoa basic.profile - | FileCheck --check-prefix=TWO %s
// TWO:      PROC: main 0xaaaa 2 0 0 0
// TWO-NEXT: 0 2
// TWO-NEXT: 1 7
//
// SUN_PROFDATA names the directory, SUN_PROFDATA_DIR where it goes
// (relative to the current directory at exit).
// RUN: mkdir -p sub && env SUN_PROFDATA=train.profile %t/basic 1
// RUN: xprof_btoa train.profile - | FileCheck --check-prefix=ONEIT %s
// RUN: env SUN_PROFDATA_DIR=sub/deeper %t/basic 1
// RUN: xprof_btoa sub/deeper/basic.profile - | FileCheck --check-prefix=ONEIT %s
// RUN: env SUN_PROFDATA_DIR=sub SUN_PROFDATA=both.profile %t/basic 1
// RUN: xprof_btoa sub/both.profile - | FileCheck --check-prefix=ONEIT %s
// ONEIT:      PROC: main 0xaaaa 2 0 0 0
// ONEIT-NEXT: 0 1
// ONEIT-NEXT: 1 1
//
// A name given at compile time wins over the environment; .profile is
// added unless present.
// RUN: %cc_rt -DPROFILE_NAME='"named/myprof"' %s -o %t/named-prog
// RUN: env SUN_PROFDATA=ignored.profile %t/named-prog 2
// RUN: xprof_btoa named/myprof.profile - | FileCheck --check-prefix=NAMED %s
// RUN: not test -e ignored.profile
// NAMED:      PROC: main 0xaaaa 2 0 0 0
// NAMED-NEXT: 0 1
// NAMED-NEXT: 1 2
#include <stdlib.h>

#include "handmade.h"

#ifndef PROFILE_NAME
#define PROFILE_NAME NULL
#endif

static uint64_t counters[3];
static const struct xprof_abi_proc procs[] = {
    {"main", 0xaaaa, 0, 2, &counters[0], 0, 0, NULL, NULL},
    {"never_run", 0xbbbb, 1, 1, &counters[2], 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/basic.o", 0x5eed, 4, PROFILE_NAME, procs, counters)

int main(int argc, char **argv) {
  XP_INC(counters, 0);
  int n = argc > 1 ? atoi(argv[1]) : 0;
  for (int i = 0; i < n; i++)
    XP_INC(counters, 1);
  return 0;
}
