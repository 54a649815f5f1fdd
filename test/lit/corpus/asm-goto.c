// asm goto (edges from an asm statement to C labels, as the Linux kernel
// uses for static keys) and ordinary inline asm.
// RUN: %corpus %s | FileCheck %s
// corpus: train=3000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long classify(long x) {
  long y;
  __asm__("lea 1(%1), %0" : "=r"(y) : "r"(x));
  __asm__ goto("test $1, %0\n\tjnz %l[odd]" : : "r"(y) : "cc" : odd);
  return y / 2;
odd:
  return 3 * y;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100, s = 0;
  for (long i = 0; i < n; i++)
    s = (s + classify(i)) % 1000003;
  printf("%ld\n", s);
  return 0;
}
