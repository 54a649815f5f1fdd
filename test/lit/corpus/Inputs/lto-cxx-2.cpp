// The other translation unit of lto-cxx.cpp: a class whose constructor
// the link-time optimizer may inline into the first.
#include "lto-cxx.h"

Counter::Counter(int start) : total(start) {}

void Counter::add(int v) {
  if (v % 3 == 0)
    total += v;
  else
    total -= 1;
}

Shape::~Shape() {}

long Square::area() const { return (long)side * side; }
