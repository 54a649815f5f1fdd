// C++ virtual calls through a base pointer, one derived class hot: the
// value profile names the overriders, the use build may speculate.
// RUN: %corpus %s | FileCheck %s
// corpus: train=200000
// corpus: run=300000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 22 procedures (17 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 14 procedures (11 ran)
// CHECK: clang: use: as plain
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

struct Shape {
  virtual ~Shape() = default;
  virtual long area(long k) const = 0;
};
struct Square : Shape {
  long area(long k) const override { return k * k; }
};
struct Triangle : Shape {
  long area(long k) const override { return k * k / 2; }
};
struct Circle : Shape {
  long area(long k) const override { return 3 * k * k; }
};

__attribute__((noinline)) static long total(const std::vector<std::unique_ptr<Shape>> &v, long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s = (s + v[(size_t)(i % 64)]->area(i % 100)) % 1000003;
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1000;
  std::vector<std::unique_ptr<Shape>> v;
  for (int i = 0; i < 64; i++) {
    if (i == 7)
      v.emplace_back(new Triangle);
    else if (i == 40)
      v.emplace_back(new Circle);
    else
      v.emplace_back(new Square);
  }
  std::printf("%ld\n", total(v, n));
  return 0;
}
