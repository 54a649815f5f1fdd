// A nested function (a GNU C extension) that leaves through a nonlocal
// goto to a label of its parent, with hot/cold partitioning.
// RUN: %corpus %s | FileCheck %s
// corpus: compilers=gcc
// corpus: flags=-O2 -freorder-blocks-and-partition
// corpus: train=300
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void visit(int n, void (*f)(int)) {
  for (int i = 0; i < n; i++)
    f(i);
}

__attribute__((noinline)) static int find(int n, int wanted) {
  __label__ found;
  int where = -1;
  void check(int i) {
    if (i * i % 97 == wanted) {
      where = i;
      goto found;
    }
  }
  visit(n, check);
  return -1;
found:
  return where;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long sum = 0;
  for (int w = 0; w < 97; w++)
    sum += find(n, w);
  printf("%ld\n", sum);
  return 0;
}
