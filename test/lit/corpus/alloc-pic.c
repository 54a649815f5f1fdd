// The bump allocator compiled as position-independent code: an
// instrumented malloc then asks the runtime for its thread's counters at
// entry, and the runtime may not call malloc under its lock (the training
// run deadlocked), nor trap the allocator by entering it twice.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -fpic
// corpus: sources=bump-malloc.c
// corpus: train=4
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 2 object files, 8 procedures (6 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 2 object files, 7 procedures (5 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

size_t bump_requests(void);

__attribute__((noinline)) static long work(int n) {
  long s = 0;
  for (int i = 0; i < n * 100; i++) {
    int *v = malloc(sizeof *v * (size_t)(1 + i % 9));
    v[0] = i;
    s += v[0] % 13;
    free(v);
  }
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  long s = work(n);
  printf("%ld after %zu requests\n", s, bump_requests());
  return 0;
}
