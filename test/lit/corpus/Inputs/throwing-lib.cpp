// A shared library that throws C++ exceptions to its caller.
#include <stdexcept>

int lib_parse(int x) {
  if (x % 5 == 0)
    throw std::invalid_argument("multiple of five");
  return x * 2;
}
