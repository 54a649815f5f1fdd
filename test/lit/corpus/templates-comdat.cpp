// Templates and inline functions instantiated in two translation units
// (comdat groups: the linker keeps one copy, both objects' profiles must
// agree on it), with different inputs exercising them.
// RUN: %corpus %s | FileCheck %s
// corpus: sources=templates-comdat-2.cpp
// corpus: train=5000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 2 object files, 18 procedures (18 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 2 object files, 12 procedures (12 ran)
// CHECK: clang: use: as plain
// CHECK: clang: samples: runs as plain; use: as plain
// CHECK: gcc: use of clang's training: as plain; 10 functions placed by source line
#include <cstdio>
#include <cstdlib>

#include "templates-comdat.h"

long other_unit(long n);

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 100;
  Accumulator<long> a;
  for (long i = 0; i < n; i++)
    a.add(i % 13);
  std::printf("%ld %ld %ld\n", a.total(), other_unit(n), mix<int>(n));
  return 0;
}
