// -O0 builds with every kind of value-profiled expression: indirect
// calls, divisions by a variable, memcpy and memset of variable length.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O0
// corpus: train=5000
// corpus: run=7000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long add(long a, long b) { return a + b; }
static long sub(long a, long b) { return a - b; }
static long (*const ops[])(long, long) = {add, sub};

static long mix(long i, long divisor, char *buf, const char *src) {
  size_t len = (size_t)(i % 3 ? 8 : i % 64);
  memcpy(buf, src, len);
  memset(buf + len, (int)i, (size_t)(i % 5));
  return ops[i % 4 == 0](i / divisor, i % divisor) + buf[0];
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100, s = 0;
  char buf[128] = {0}, src[64];
  for (int i = 0; i < 64; i++)
    src[i] = (char)(i * 3);
  for (long i = 0; i < n; i++)
    s = (s + mix(i, i % 10 ? 7 : 256, buf, src)) % 1000003;
  printf("%ld\n", s);
  return 0;
}
