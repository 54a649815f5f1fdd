// The other object file using shapes.h's inline functions and templates.
#include <cstdio>
#include <cstdlib>

#include "shapes.h"

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  long t = use_shapes(n);
  std::vector<std::string> names = {"pear", "apple", "zucchini"};
  std::vector<long> v;
  for (int i = 0; i < n; i++)
    v.push_back(clamp_sum(i, i * 7 % 13));
  std::printf("%ld %ld %s\n", t, largest(v), largest(names).c_str());
  return 0;
}
