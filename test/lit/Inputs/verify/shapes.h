// Inline and template code shared by two object files (comdat).
#include <string>
#include <vector>

struct Shape {
  virtual ~Shape() {}
  virtual long area() const = 0;
};
struct Square : Shape {
  long s;
  explicit Square(long s) : s(s) {}
  long area() const override { return s * s; }
};
struct Rect : Shape {
  long w, h;
  Rect(long w, long h) : w(w), h(h) {}
  long area() const override { return w * h; }
};

inline long clamp_sum(long a, long b) {
  long s = a + b;
  return s > 1000000 ? s % 1000000 : s;
}

template <typename T> T largest(const std::vector<T> &v) {
  T best = v.empty() ? T() : v[0];
  for (const T &x : v)
    if (best < x)
      best = x;
  return best;
}

long use_shapes(int n);
