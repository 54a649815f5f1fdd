// Constructors and destructors with priorities run instrumented code
// before main and after it, some before the runtime's registration and
// some after its write at exit.
// RUN: %corpus %s | FileCheck %s
// corpus: train=
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 8 procedures (8 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 8 procedures (8 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

static int trace[16], n_trace;

__attribute__((noinline)) static void note(int what) {
  if (n_trace < 16)
    trace[n_trace++] = what;
}

__attribute__((constructor(101))) static void first(void) { note(101); }
__attribute__((constructor(500))) static void middle(void) { note(500); }
__attribute__((constructor)) static void last(void) { note(65535); }
__attribute__((destructor(101))) static void very_last(void) {
  note(-101);
  printf("%d events, last %d\n", n_trace, trace[n_trace - 1]);
}
__attribute__((destructor)) static void early_dtor(void) { note(-1); }

static void at_exit_handler(void) { note(-2); }

int main(void) {
  atexit(at_exit_handler);
  for (int i = 0; i < n_trace; i++)
    printf("%d ", trace[i]);
  printf("\n");
  return 0;
}
