// Three training runs that cover different code merge into one profile;
// the use build sees the union, and runs on an input of its own.
// RUN: %corpus %s | FileCheck %s
// corpus: train=alpha 100
// corpus: train=beta 200
// corpus: train=alpha 300
// corpus: run=gamma 50
// CHECK: gcc: training: 3 runs as plain; profile: 1 program, 1 object file, 4 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 3 runs as plain; profile: 1 program, 1 object file, 4 procedures (3 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static long alpha(long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += i % 3;
  return s;
}
__attribute__((noinline)) static long beta(long n) { return n * n % 97; }
__attribute__((noinline)) static long gamma_(long n) { return n ? gamma_(n - 1) + 2 : 0; }

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  long n = atol(argv[2]);
  long r = strcmp(argv[1], "alpha") == 0  ? alpha(n)
           : strcmp(argv[1], "beta") == 0 ? beta(n)
                                          : gamma_(n);
  printf("%s %ld\n", argv[1], r);
  return 0;
}
