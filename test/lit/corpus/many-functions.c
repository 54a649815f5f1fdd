// 1000 functions in one object file, half of them never run.
// RUN: %corpus %s | FileCheck %s
// corpus: train=500
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 1001 procedures (501 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 1001 procedures (501 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

#define F(n) __attribute__((noinline)) long g##n(long x) { return x > 0 ? x % (n + 2) : n; }
#define F10(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) F(n##6) F(n##7) F(n##8) F(n##9)
#define F100(n) F10(n##0) F10(n##1) F10(n##2) F10(n##3) F10(n##4) F10(n##5) F10(n##6) F10(n##7) F10(n##8) F10(n##9)
F100(1) F100(2) F100(3) F100(4) F100(5) F100(6) F100(7) F100(8) F100(9) F100(10)
#define P(n) g##n,
#define P10(n) P(n##0) P(n##1) P(n##2) P(n##3) P(n##4) P(n##5) P(n##6) P(n##7) P(n##8) P(n##9)
#define P100(n) P10(n##0) P10(n##1) P10(n##2) P10(n##3) P10(n##4) P10(n##5) P10(n##6) P10(n##7) P10(n##8) P10(n##9)
long (*const all[])(long) = {P100(1) P100(2) P100(3) P100(4) P100(5) P100(6) P100(7) P100(8) P100(9) P100(10)};

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10, s = 0;
  for (long i = 0; i < n && i < 1000; i++)
    s += all[i * 2 % 1000](i);
  printf("%ld\n", s);
  return 0;
}
