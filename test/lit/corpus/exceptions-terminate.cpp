// An exception nothing catches: std::terminate aborts the program (the
// runtime writes nothing then, as GCC's and clang's), same as plain.
// RUN: %corpus %s | FileCheck %s
// corpus: train=3
// corpus: status=-6
// corpus: no-profile
// corpus: native=skip
// CHECK: gcc: training: 1 run as plain; no profile, as expected
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; no profile, as expected
// CHECK: clang: use: as plain
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <sys/resource.h>

__attribute__((noinline)) static void deep(int n) {
  if (n == 0)
    throw std::runtime_error("nobody catches this");
  deep(n - 1);
}

int main(int argc, char **argv) {
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
  std::printf("going down\n");
  std::fflush(stdout);
  deep(argc > 1 ? std::atoi(argv[1]) : 2);
  return 0;
}
