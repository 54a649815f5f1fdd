// -fprofile-partial-training in the use build: functions that training
// never reached are optimized as without a profile, not as cold.
// RUN: %corpus %s | FileCheck %s
// corpus: use-flags=-fprofile-partial-training
// corpus: train=quick 100
// corpus: run=slow 100
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (2 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (2 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static long quick(long n) { return n * 2; }
__attribute__((noinline)) static long slow(long n) {
  long s = 0;
  for (long i = 0; i < n * 1000; i++)
    s = (s * 31 + i) % 1000003;
  return s;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  long n = atol(argv[2]);
  printf("%ld\n", strcmp(argv[1], "quick") == 0 ? quick(n) : slow(n));
  return 0;
}
