// Templates and inline functions shared by two translation units.
#include <vector>

template <typename T> class Accumulator {
  std::vector<T> items;

public:
  void add(T x) {
    if (x % 2)
      items.push_back(x);
    else
      items.push_back(-x);
  }
  T total() const {
    T s = 0;
    for (T x : items)
      s += x;
    return s;
  }
};

template <typename T> inline T mix(T n) { return n % 3 ? n * 5 : n / 3; }
