// exit() deep in a callee, from inside loops: the blocks the call leaves
// are counted as left (their fake edges), and the profile is written.
// RUN: %corpus %s | FileCheck %s
// corpus: train=7
// corpus: train=20
// corpus: run=13
// corpus: status=3
// CHECK: gcc: training: 2 runs as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 2 runs as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void check(int i, int limit) {
  if (i * i > limit) {
    printf("stopped at %d\n", i);
    fflush(stdout);
    exit(3);
  }
}

__attribute__((noinline)) static int scan(int limit) {
  int s = 0;
  for (int i = 0; i < 1000; i++)
    for (int j = 0; j < 3; j++) {
      check(i + j, limit);
      s += j;
    }
  return s;
}

int main(int argc, char **argv) {
  int limit = argc > 1 ? atoi(argv[1]) : 10;
  printf("%d\n", scan(limit * limit));
  return 0;
}
