// __builtin_setjmp with alloca on both sides, a noinline callee that
// __builtin_longjmps from an endless loop, and hot/cold partitioning
// (GCC's tree-prof test of the same situation): the receiver runs once.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2
// corpus: gcc-flags=-freorder-blocks-and-partition
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *jump_buffer[5];

__attribute__((noinline)) void leave_now(void) { __builtin_longjmp(jump_buffer, 1); }

int main(void) {
  char *word = __builtin_alloca(20);
  strcpy(word, "kept");
  if (__builtin_setjmp(jump_buffer)) {
    if (strcmp(word, "kept") != 0)
      abort();
    puts("back in main");
    exit(0);
  }
  int *scratch = __builtin_alloca(word[1] * sizeof(int));
  for (int i = 0; i < word[1]; i++)
    scratch[i] = i;
  for (;;)
    leave_now();
}
