// The program defines daemon() itself, as programs written for systems
// without one do: it links, and its own is the one called (the runtime's
// stand-ins for the C library's exec family and daemon are weak).
// RUN: %corpus %s | FileCheck %s
// corpus: train=3
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int daemon(int nochdir, int noclose) {
  printf("our own daemon(%d, %d)\n", nochdir, noclose);
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  for (int i = 0; i < n; i++)
    if (daemon(i & 1, i > 1) != 0)
      return 1;
  printf("still in the foreground\n");
  return 0;
}
