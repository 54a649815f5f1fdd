/* Three call sites, each calling through a pointer to one function of
 * targets-b.c: a static one, a public one this file does not declare and
 * a public one it declares and calls (for clang a declaration nothing
 * uses is not in the module); the promotion tests icp-other-objects.test. */
#include <stdio.h>
#include <stdlib.h>

int square(int x);
int (*pick(int k))(int);

__attribute__((noinline)) static int call_static(int (*f)(int), int x) { return f(x); }
__attribute__((noinline)) static int call_undeclared(int (*f)(int), int x) { return f(x); }
__attribute__((noinline)) static int call_declared(int (*f)(int), int x) { return f(x); }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int (*f0)(int) = pick(0), (*f1)(int) = pick(1), (*f2)(int) = pick(2);
  long s = 0;
  for (int i = 0; i < n; i++)
    s += call_static(f0, i) + call_undeclared(f1, i) + call_declared(f2, i & 255);
  if (argc > 2)
    s += square(n);
  printf("%ld\n", s);
  return 0;
}
