// C++ for xprof_gprof's tests: methods, a template, a virtual call.
#include <cstdio>

namespace geo {
struct Shape {
  virtual ~Shape() {}
  virtual double area() const = 0;
};
struct Square : Shape {
  double s;
  explicit Square(double v) : s(v) {}
  double area() const override { return s * s; }
};
template <typename T> __attribute__((noinline)) T twice(T v) { return v + v; }
} // namespace geo

__attribute__((noinline)) double total(const geo::Shape *const *v, int n) {
  double t = 0;
  for (int i = 0; i < n; i++)
    t += geo::twice(v[i]->area());
  return t;
}

int main() {
  geo::Square a(1), b(2);
  const geo::Shape *v[2] = {&a, &b};
  double t = 0;
  for (int r = 0; r < 40; r++)
    t += total(v, 2);
  std::printf("%g\n", t);
  return 0;
}
