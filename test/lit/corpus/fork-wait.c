// Parent and children count in their own processes after fork; both
// write, and their counts add up in one profile.
// RUN: %corpus %s | FileCheck %s
// corpus: train=4
// corpus: run=6
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int child_part(int k) {
  int s = 0;
  for (int i = 0; i < k * 1000; i++)
    s = (s + i) % 251;
  return s;
}

__attribute__((noinline)) static int parent_part(int k) { return k * 3 % 7; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2, total = 0;
  for (int k = 1; k <= n; k++) {
    pid_t p = fork();
    if (p == 0)
      return child_part(k);
    int status;
    waitpid(p, &status, 0);
    total += WEXITSTATUS(status) + parent_part(k);
  }
  printf("total %d\n", total);
  return 0;
}
