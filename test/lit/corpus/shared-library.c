// The program linked against an instrumented shared library (-fpic
// -shared), which registers with the program's runtime.
// RUN: %corpus %s | FileCheck %s
// corpus: shape=shared
// corpus: lib=plugin-lib.c
// corpus: train=97
// CHECK: gcc: training: 1 run as plain; profile: 2 programs, 2 object files, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: gcc: samples: runs as plain; use: as plain
// CHECK: clang: training: 1 run as plain; profile: 2 programs, 2 object files, 4 procedures (4 ran)
// CHECK: clang: use: as plain
// CHECK: clang: use of gcc's training: as plain; 3 functions placed by source line
#include <stdio.h>
#include <stdlib.h>

int plugin_run(int x);
int plugin_calls(void);

int main(int argc, char **argv) {
  int x = argc > 1 ? atoi(argv[1]) : 27;
  int steps = plugin_run(x) + plugin_run(x + 1);
  printf("%d steps in %d calls\n", steps, plugin_calls());
  return 0;
}
