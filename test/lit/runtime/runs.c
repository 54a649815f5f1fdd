// The training runs a profile records (binary data 4.7, RUNS): one per
// process, counted at its first write to the directory, with the largest
// counter of each write added up -- GCC's gcov summary (runs, sum_max),
// which xprof-gcc's use builds give GCC for its hot threshold.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/runs
//
// Two runs of unlike kinds: the sum of their largest counters (100 + 700)
// is more than the largest counter of the merged profile (705).
// RUN: %t/runs 5 100
// RUN: %t/runs 700 3
// RUN: xprof_show runs.profile | FileCheck --check-prefix=TWO %s
// TWO: training runs: 2 (their largest counters add up to 800)
// RUN: xprof_btoa runs.profile - | FileCheck --check-prefix=COUNTS %s
// COUNTS:      PROC: work 0x1 2 0 0 0
// COUNTS-NEXT: 0 705
// COUNTS-NEXT: 1 103
//
// A process that writes three times (xprof_dump twice, then at exit) is
// one run; each write's largest counter is added (40 + 40 + 40).
// RUN: %t/runs 40 1 dump
// RUN: xprof_show runs.profile | FileCheck --check-prefix=DUMPS %s
// DUMPS: training runs: 3 (their largest counters add up to 920)
//
// A forked child is a run of its own (parent 9, child 30).
// RUN: %t/runs 9 2 fork
// RUN: xprof_show runs.profile | FileCheck --check-prefix=FORK %s
// FORK: training runs: 5 (their largest counters add up to 959)
//
// xprof_merge adds them up, with the weights; text keeps them.
// RUN: xprof_merge -o merged.profile runs.profile -w 2:runs.profile
// RUN: xprof_show merged.profile | FileCheck --check-prefix=MERGED %s
// MERGED: training runs: 15 (their largest counters add up to 2877)
// RUN: xprof_btoa runs.profile runs.text && xprof_atob runs.text text.profile
// RUN: xprof_show text.profile | FileCheck --check-prefix=TEXT %s
// TEXT: training runs: 5 (their largest counters add up to 959)
// RUN: cmp runs.profile/feedback text.profile/feedback
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "handmade.h"

static uint64_t counters[2];
static const struct xprof_abi_proc procs[] = {{"work", 0x1, 0, 2, counters, 0, 0, NULL, NULL}};
XP_OBJECT(obj, "/handmade/runs.o", 0x7, 2, NULL, procs, counters)

int main(int argc, char **argv) {
  uint64_t a = strtoull(argv[1], NULL, 10), b = strtoull(argv[2], NULL, 10);
  const char *how = argc > 3 ? argv[3] : "";
  counters[0] += a;
  counters[1] += b;
  if (strcmp(how, "dump") == 0) {
    xprof_dump();
    counters[0] += a;
    xprof_dump();
    counters[0] += a;
  } else if (strcmp(how, "fork") == 0) {
    pid_t pid = fork();
    if (pid == 0) {
      counters[0] += 30; /* the child counts from zero */
      return 0;
    }
    waitpid(pid, NULL, 0);
  }
  return 0;
}
