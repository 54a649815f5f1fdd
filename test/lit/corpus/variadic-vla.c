// Variadic functions, variable-length arrays and alloca in loops, and a
// tail-recursive function.
// RUN: %corpus %s | FileCheck %s
// corpus: train=500
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: clang: use: as plain
#include <alloca.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, int);
  va_end(ap);
  return s;
}

__attribute__((noinline)) static long window(int n) {
  int vla[n + 1];
  for (int i = 0; i <= n; i++)
    vla[i] = i * i;
  int *extra = alloca(sizeof(int) * (size_t)(n % 16 + 1));
  extra[0] = vla[n];
  return extra[0] % 1000;
}

__attribute__((noinline)) static long gcd(long a, long b) { return b ? gcd(b, a % b) : a; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  long s = 0;
  for (int i = 1; i < n; i++)
    s += sum(i % 4, i, 2 * i, 3 * i) + window(i) + gcd(i * 12, 18);
  printf("%ld\n", s);
  return 0;
}
