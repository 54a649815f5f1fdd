// A function of several thousand basic blocks (a long chain of tests,
// each with its own branch) and a switch of 1200 cases.
// RUN: %corpus %s | FileCheck %s
// corpus: train=3000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

volatile int noise = 1;
#define T(n) if ((x >> (n % 13)) & 1) s += n * noise; else s ^= n;
#define T10(n) T(n##0) T(n##1) T(n##2) T(n##3) T(n##4) T(n##5) T(n##6) T(n##7) T(n##8) T(n##9)
#define T100(n) T10(n##0) T10(n##1) T10(n##2) T10(n##3) T10(n##4) T10(n##5) T10(n##6) T10(n##7) T10(n##8) T10(n##9)

__attribute__((noinline)) static long chain(long x) {
  long s = 0;
  T100(1) T100(2) T100(3) T100(4) T100(5) T100(6) T100(7) T100(8) T100(9)
  T100(10) T100(11) T100(12) T100(13) T100(14) T100(15) T100(16) T100(17) T100(18)
  return s;
}

#define C(n) case n: return n * 3 + noise;
#define C10(n) C(n##0) C(n##1) C(n##2) C(n##3) C(n##4) C(n##5) C(n##6) C(n##7) C(n##8) C(n##9)
#define C100(n) C10(n##0) C10(n##1) C10(n##2) C10(n##3) C10(n##4) C10(n##5) C10(n##6) C10(n##7) C10(n##8) C10(n##9)

__attribute__((noinline)) static long wide(long x) {
  switch (x % 1300) {
    C100(1) C100(2) C100(3) C100(4) C100(5) C100(6) C100(7) C100(8) C100(9) C100(10) C100(11) C100(12)
  default:
    return -1;
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100, s = 0;
  for (long i = 0; i < n; i++)
    s = (s + chain(i * 2654435761 >> 5) + wide(i * 7)) % 1000003;
  printf("%ld\n", s);
  return 0;
}
