#include <cstdio>
#include "tmpl.hpp"
int fa(int n);
int main() {
  long s = twice(7L) + add3(1);
  std::printf("%ld\n", s + fa(5) + twice(200));
  return 0;
}
