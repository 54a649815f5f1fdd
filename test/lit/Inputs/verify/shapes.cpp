// Virtual calls, exceptions, templates and the comdat functions of shapes.h.
#include <stdexcept>

#include "shapes.h"

static long checked(long v) {
  if (v % 17 == 0)
    throw std::runtime_error("multiple of 17");
  return v;
}

long use_shapes(int n) {
  std::vector<Shape *> shapes;
  for (int i = 1; i <= n; i++) {
    if (i % 10 == 0)
      shapes.push_back(new Rect(i, i + 1));
    else
      shapes.push_back(new Square(i));
  }
  long total = 0, errors = 0;
  for (Shape *s : shapes) {
    try {
      total = clamp_sum(total, checked(s->area()));
    } catch (const std::exception &) {
      errors++;
    }
    delete s;
  }
  std::vector<long> v = {3, 9, 4};
  return total + errors * 1000 + largest(v);
}
