// The second translation unit: the same instantiations, other inputs.
#include "templates-comdat.h"

long other_unit(long n) {
  Accumulator<long> a;
  for (long i = 0; i < n / 2; i++)
    a.add(i * 3);
  return a.total() + mix<long>(n);
}
