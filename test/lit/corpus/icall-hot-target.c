// An indirect call that nearly always goes to one target, as through a
// function table or a C++ virtual call: the use build may promote it to
// a direct call with a check, and must keep calling the others right.
// RUN: %corpus %s | FileCheck %s
// corpus: train=100000
// corpus: run=200000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long common(long x) { return x + 3; }
__attribute__((noinline)) static long rare(long x) { return x * 5; }

static long (*volatile pick[2])(long) = {common, rare};

__attribute__((noinline)) static long apply(long (*f)(long), long x) { return f(x) % 65521; }

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000, s = 0;
  for (long i = 0; i < n; i++)
    s = (s + apply(pick[i % 100 == 0], i)) % 65521;
  printf("%ld\n", s);
  return 0;
}
