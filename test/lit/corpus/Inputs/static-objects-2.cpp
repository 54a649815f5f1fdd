// The other translation unit: a registry that static objects of the
// first one fill before main (constructed on first use).
#include <vector>

static std::vector<int> &registry() {
  static std::vector<int> r;
  return r;
}

void registry_add(int i) { registry().push_back(i); }
int registry_size() { return (int)registry().size(); }
