// A __builtin_setjmp receiver that runs hot: a loop whose callee
// __builtin_longjmps back on most calls, with alloca in between and
// hot/cold partitioning.  The receiver and the abnormal edges must get
// their real counts, or the use build puts hot code in the cold part.
// RUN: %corpus %s | FileCheck %s
// corpus: gcc-flags=-freorder-blocks-and-partition
// corpus: train=300
// corpus: run=1000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *jump_buffer[5];
volatile int steps;

__attribute__((noinline)) void maybe_leave(int i) {
  steps++;
  if (i % 4 != 3)
    __builtin_longjmp(jump_buffer, 1);
}

int main(int argc, char **argv) {
  volatile int rounds = 0, limit = argc > 1 ? atoi(argv[1]) : 100;
  char *tag = __builtin_alloca(8 + argc);
  strcpy(tag, "tag");
  if (__builtin_setjmp(jump_buffer)) {
    if (++rounds >= limit)
      goto done;
  }
  int *v = __builtin_alloca((rounds % 7 + 1) * sizeof(int));
  v[0] = rounds;
  for (int i = v[0];; i++)
    maybe_leave(i);
done:
  printf("%d rounds, %d steps, %s\n", rounds, steps, tag);
  return 0;
}
