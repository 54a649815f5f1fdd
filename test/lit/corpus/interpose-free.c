// Only free is the program's own (it counts, then hands the block to
// glibc's): the runtime must not free its memory through it.
// RUN: %corpus %s | FileCheck %s
// corpus: train=50
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (1 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (1 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

extern void __libc_free(void *);
static unsigned long frees;

void free(void *p) {
  if (p)
    frees++;
  __libc_free(p);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  for (int i = 0; i < n; i++)
    free(malloc((size_t)(i + 1) * 8));
  printf("%lu frees\n", frees);
  return 0;
}
