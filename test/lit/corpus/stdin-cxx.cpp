// C++ compiled from standard input (-x c++ -), the object named by -o.
// RUN: %corpus %s | FileCheck %s
// corpus: shape=stdin
// corpus: train=400
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 16 procedures (16 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 9 procedures (8 ran)
// CHECK: clang: use: as plain
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 10;
  std::map<std::string, int> counts;
  for (int i = 0; i < n; i++)
    counts[std::to_string(i % 17)] += i;
  long s = 0;
  for (const auto &kv : counts)
    s += (long)kv.first.size() * kv.second;
  std::printf("%zu keys, %ld\n", counts.size(), s);
  return 0;
}
