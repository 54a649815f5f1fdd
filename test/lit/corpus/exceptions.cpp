// C++ exceptions thrown through frames with cleanups, rethrown and caught
// by type and by catch (...), with hot/cold partitioning.
// RUN: %corpus %s | FileCheck %s
// corpus: gcc-flags=-freorder-blocks-and-partition
// corpus: train=400
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 5 procedures (5 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 5 procedures (3 ran)
// CHECK: clang: use: as plain
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

static int live;
struct Guard {
  Guard() { live++; }
  ~Guard() { live--; }
};

__attribute__((noinline)) static int parse(int i) {
  Guard g;
  if (i % 7 == 0)
    throw std::runtime_error("seven");
  if (i % 11 == 0)
    throw i;
  return i % 13;
}

__attribute__((noinline)) static int middle(int i) {
  Guard g;
  try {
    return parse(i);
  } catch (const std::runtime_error &) {
    if (i % 2)
      throw;
    return -1;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  long sum = 0, errors = 0, others = 0;
  for (int i = 1; i <= n; i++) {
    try {
      sum += middle(i);
    } catch (const std::exception &e) {
      errors += std::string(e.what()).size();
    } catch (...) {
      others++;
    }
  }
  std::printf("sum %ld errors %ld others %ld live %d\n", sum, errors, others, live);
  return 0;
}
