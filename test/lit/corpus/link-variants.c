// -Wl,--build-id and -Wl,-z,now,-z,relro: the linker's options around
// the runtime the driver links.
// RUN: %corpus %s | FileCheck %s
// corpus: link=-Wl,--build-id=sha1 -Wl,-z,now -Wl,-z,relro
// corpus: train=5
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int f(int x) { return x % 3 ? x : -x; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3, s = 0;
  for (int i = 0; i < n; i++)
    s += f(i);
  printf("%d\n", s);
  return 0;
}
