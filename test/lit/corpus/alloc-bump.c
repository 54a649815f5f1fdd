// A program whose malloc, calloc and free are a bump allocator that traps
// when entered recursively and makes an indirect call, with no realloc of
// its own: the runtime must never allocate through it (it aborted in
// glibc's realloc).  Three training runs merge into one profile.
// RUN: %corpus %s | FileCheck %s
// corpus: sources=bump-malloc.c
// corpus: link=-ldl
// corpus: train=3
// corpus: train=5
// corpus: train=7
// corpus: run=9
// CHECK: gcc: training: 3 runs as plain; profile: 1 program, 2 object files, 9 procedures (9 ran)
// CHECK: gcc: valgrind: clean
// CHECK: gcc: use: as plain
// CHECK: clang: training: 3 runs as plain; profile: 1 program, 2 object files, 8 procedures (8 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t bump_requests(void);

__attribute__((noinline)) static int square(int x) { return x * x; }
__attribute__((noinline)) static int twice(int x) { return 2 * x; }
static int (*const ops[])(int) = {square, twice};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  long sum = 0;
  for (int i = 0; i < 200 * n; i++) {
    char *text = malloc(24 + i % 5);
    snprintf(text, 24, "%d", i);
    sum += ops[i % 2](atoi(text) % 100);
    free(text);
  }
  int *zeros = calloc(64, sizeof *zeros);
  for (int i = 0; i < 64; i++)
    sum += zeros[i];
  free(zeros);
  printf("sum %ld after %zu requests\n", sum, bump_requests());
  return 0;
}
