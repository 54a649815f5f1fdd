// Divisions and remainders by a value that is nearly always one constant
// (int and long long), by powers of two, and string operations whose
// length is nearly always the same: value profiles that GCC's own PGO
// specializes.
// RUN: %corpus %s | FileCheck %s
// corpus: train=200000
// corpus: run=300000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile int divisors[4] = {257, 257, 257, 13};
volatile long long wide[2] = {997, 16};

__attribute__((noinline)) static long divide(long i) {
  int d = divisors[i % 4 != 0 ? 0 : 3];
  long long w = wide[i % 50 == 0];
  return (int)i / d + (int)i % d + (long long)i % w + ((unsigned)i % (unsigned)wide[1]);
}

__attribute__((noinline)) static int copy(char *dst, const char *src, long i) {
  size_t n = i % 100 ? 32 : (size_t)(i % 61);
  memcpy(dst, src, n);
  memset(dst + n, 0, 8);
  return dst[n / 2];
}

__attribute__((noinline)) static long run(long n) {
  char a[128], b[128];
  for (int i = 0; i < 128; i++)
    b[i] = (char)i;
  long s = 0;
  for (long i = 0; i < n; i++)
    s = (s + divide(i) + copy(a, b, i)) % 1000003;
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  printf("%ld\n", run(n));
  return 0;
}
