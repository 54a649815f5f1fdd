// Deep recursion and mutual recursion: counts in the hundreds of
// thousands through frames that stay live.
// RUN: %corpus %s | FileCheck %s
// corpus: train=20000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long depth(long n) { return n == 0 ? 0 : 1 + depth(n - 1) % 1000003; }
__attribute__((noinline)) static int is_odd(long n);
__attribute__((noinline)) static int is_even(long n) { return n == 0 ? 1 : is_odd(n - 1); }
__attribute__((noinline)) static int is_odd(long n) { return n == 0 ? 0 : is_even(n - 1); }

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100;
  printf("%ld %d\n", depth(n), is_even(n));
  return 0;
}
