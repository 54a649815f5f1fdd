// A forked child aborts (no profile from it); the parent waits, reports
// the signal and writes its own counts.
// RUN: %corpus %s | FileCheck %s
// corpus: train=3
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (2 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (2 ran)
// CHECK: clang: use: as plain
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static void doomed(int k) {
  if (k >= 0)
    abort();
}

__attribute__((noinline)) static int parent_sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i * i;
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
  int aborted = 0;
  for (int k = 0; k < n; k++) {
    pid_t p = fork();
    if (p == 0)
      doomed(k);
    int status;
    waitpid(p, &status, 0);
    aborted += WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
  }
  printf("%d children aborted, sum %d\n", aborted, parent_sum(n * 10));
  return 0;
}
