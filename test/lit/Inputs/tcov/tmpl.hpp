// tmpl.hpp - a template and an inline function: each object that uses
// them has its copy (comdat), and the linker keeps one.
template <typename T> T twice(T x) {
  if (x > 100)
    return x;
  return x + x;
}
inline int add3(int a) { return a + 3; }
