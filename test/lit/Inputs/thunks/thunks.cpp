// Thunks of every kind GCC makes: this-adjusting (a second base),
// virtual-offset (a virtual base), covariant return, and a variadic one,
// which GCC cannot expand.  hot's thunk runs N times, cold's never.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

struct A { virtual ~A() {} virtual int f(int x) { return x; } int a = 1; };
struct B {
  virtual ~B() {}
  virtual int hot(int) = 0;
  virtual int cold(int) = 0;
  virtual B *self() = 0;
  virtual int sum(int n, ...) = 0;
  int b = 2;
};
struct C : A, B {
  int hot(int x) override { return x * b + a; }
  int cold(int x) override { return x - b * 3; }
  C *self() override { return this; } // covariant: B* from C*
  int sum(int n, ...) override {
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s + a;
  }
};
struct V { virtual ~V() {} virtual int v(int x) { return x + 1; } int c = 3; };
struct W : virtual V { int v(int x) override { return x + c + 7; } };
struct X : A, W {};

__attribute__((noinline)) long run(B *p, V *q, int n, int which) {
  long s = 0;
  for (int i = 0; i < n; i++) {
    s += which ? p->cold(i) : p->hot(i);
    if (i % 4 == 0) s += q->v(i);
    if (i % 8 == 0) s += p->self()->b;
    if (i % 16 == 0) s += p->sum(3, i, 1, 2);
  }
  return s;
}

int main(int argc, char **argv) {
  C c;
  X x;
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  printf("%ld\n", run(&c, &x, n, argc > 2));
  return 0;
}
