#include <vector>
struct Shape {
  virtual ~Shape() {}
  virtual long area() const = 0;
};
struct Square : Shape {
  long side;
  explicit Square(long s) : side(s) {}
  long area() const override { return side * side; }
};
template <typename T> T clamp_add(T a, T b, T hi) {
  T s = a + b;
  if (s > hi)
    return hi;
  return s;
}
