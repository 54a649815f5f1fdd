// C++ for the sample-profile export: mangled names, a virtual call, a
// template and library code inlined from headers, a static function.
#include <cstdio>
#include <cstdlib>
#include "shapes.h"

static long total(const std::vector<Square> &v, long hi) {
  long t = 0;
  for (const Square &s : v)
    t = clamp_add(t, s.area(), hi);
  return t;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  std::vector<Square> v;
  for (int i = 0; i < n; i++)
    v.emplace_back(i % 13);
  long sum = 0;
  for (int r = 0; r < 200; r++)
    sum += total(v, 1L << 40);
  printf("%ld\n", sum);
  return 0;
}
