// The allocator lives in an instrumented shared library that the program
// links against (as jemalloc or tcmalloc would): position-independent,
// with per-thread counters found at function entry.
// RUN: %corpus %s | FileCheck %s
// corpus: shape=shared
// corpus: lib=bump-malloc.c
// corpus: train=5
// CHECK: gcc: training: 1 run as plain; profile: 2 programs, 2 object files, 7 procedures (6 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 2 programs, 2 object files, 6 procedures (5 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t bump_requests(void);

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  size_t total = 0;
  for (int i = 0; i < n * 50; i++) {
    char *s = malloc(40);
    snprintf(s, 40, "line %d", i);
    total += strlen(s);
    free(s);
  }
  printf("%zu characters, %zu requests\n", total, bump_requests());
  return 0;
}
