// write, open, openat, rename and close interposed by position-independent,
// instrumented functions of the program, which the program itself never
// calls (its I/O is stdio's): their first call in the process comes from
// the runtime, writing the profile while it holds its lock, and asks it
// for this thread's counters (the training run deadlocked).
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -fpic
// corpus: sources=io-interpose.c
// corpus: train=
// corpus: train=again
// CHECK: gcc: training: 2 runs as plain; profile: 1 program, 2 object files, 7 procedures (6 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 2 runs as plain; profile: 1 program, 2 object files, 7 procedures (6 ran)
// CHECK: clang: use: as plain
#include <stdio.h>

extern unsigned long io_calls[5];

int main(int argc, char **argv) {
  (void)argv;
  FILE *f = fopen("note.txt", "w");
  fputs(argc > 1 ? "second\n" : "first\n", f);
  fclose(f);
  /* The program's functions were not called: nothing counted yet. */
  printf("writes %lu opens %lu renames %lu\n", io_calls[0], io_calls[1] + io_calls[2],
         io_calls[3]);
  return 0;
}
