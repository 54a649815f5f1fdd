// Exceptions thrown in an instrumented shared library and caught in the
// program.
// RUN: %corpus %s | FileCheck %s
// corpus: shape=shared
// corpus: lib=throwing-lib.cpp
// corpus: train=300
// CHECK: gcc: training: 1 run as plain; profile: 2 programs, 2 object files, 2 procedures (2 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 2 programs, 2 object files, 2 procedures (2 ran)
// CHECK: clang: use: as plain
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

int lib_parse(int x);

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  long ok = 0, bad = 0;
  for (int i = 1; i <= n; i++) {
    try {
      ok += lib_parse(i);
    } catch (const std::invalid_argument &) {
      bad++;
    }
  }
  std::printf("ok %ld bad %ld\n", ok, bad);
  return 0;
}
