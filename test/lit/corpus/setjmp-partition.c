// setjmp and longjmp of the C library, a longjmp from two frames down on
// most iterations, with hot/cold partitioning; volatile locals survive.
// RUN: %corpus %s | FileCheck %s
// corpus: gcc-flags=-freorder-blocks-and-partition
// corpus: train=500
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;

__attribute__((noinline)) static void inner(int i) {
  if (i % 5)
    longjmp(env, i);
}

__attribute__((noinline)) static int outer(int i) {
  inner(i);
  return i * 2;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 50;
  volatile long jumped = 0, returned = 0;
  for (volatile int i = 0; i < n; i++) {
    int r = setjmp(env);
    if (r) {
      jumped += r;
      continue;
    }
    returned += outer(i);
  }
  printf("jumped %ld returned %ld\n", jumped, returned);
  return 0;
}
