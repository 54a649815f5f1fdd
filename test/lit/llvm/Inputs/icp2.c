/* One indirect call site with two targets, taking 70% and 30% of the
 * calls, and one reached once in 500 iterations, always with the same
 * target.  Usage: icp2 N. */
#include <stdio.h>
#include <stdlib.h>

typedef int (*op_fn)(int);
static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }

__attribute__((noinline)) int apply(op_fn f, int x) { return f(x); }
__attribute__((noinline)) int apply_rarely(op_fn f, int x) { return f(x); }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  long s = 0;
  for (int i = 0; i < n; i++) {
    s += apply(i % 10 < 7 ? twice : thrice, i);
    if (i % 500 == 0)
      s += apply_rarely(thrice, i);
  }
  printf("%ld\n", s);
  return 0;
}
