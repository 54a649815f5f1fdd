// _exit runs no exit handlers: the runtime writes nothing (as GCC's and
// clang's runtimes), and the training and use builds still behave.
// RUN: %corpus %s | FileCheck %s
// corpus: train=5
// corpus: status=4
// corpus: no-profile
// corpus: native=skip
// CHECK: gcc: training: 1 run as plain; no profile, as expected
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; no profile, as expected
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) static int total(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  char line[32];
  int k = snprintf(line, sizeof line, "%d\n", total(n));
  write(1, line, (size_t)k);
  _exit(4);
}
