#include "tmpl.hpp"
int fa(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += twice(i) + add3(i);
  return s;
}
