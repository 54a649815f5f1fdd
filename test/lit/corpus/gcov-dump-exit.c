// A program written for GCC's profiling: it ends with _exit, which runs no
// exit handlers, after a dump through the weakly declared __gcov_dump (the
// pattern of servers and spawners, and null in a build without a profile
// runtime).  xprof's runtime answers the name: the training run writes the
// profile, and the count after the dump is not written (GCC's meaning).
// RUN: %corpus %s | FileCheck %s
// corpus: train=300
// corpus: run=500
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void __gcov_dump(void) __attribute__((weak));

__attribute__((noinline)) static long step(long x) { return x % 7 == 3 ? x / 2 : 3 * x + 1; }

__attribute__((noinline)) static long work(int n) {
  long sum = 0;
  for (int i = 1; i <= n; i++)
    sum += step(i);
  return sum;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  printf("%ld\n", work(n));
  fflush(stdout);
  if (__gcov_dump)
    __gcov_dump();
  _exit(0);
}
