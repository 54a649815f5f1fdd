/* Indirect calls whose targets share the calls: apply's call goes half
 * to twice and half to thrice; apply3's 40/30/30 to three targets. */
#include <stdio.h>
#include <stdlib.h>

typedef long (*op_fn)(long);
static long twice(long x) { return 2 * x; }
static long thrice(long x) { return 3 * x; }
static long negate(long x) { return -x; }

__attribute__((noinline)) static long apply(op_fn f, long x) { return f(x); }
__attribute__((noinline)) static long apply3(op_fn f, long x) { return f(x); }

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000, s = 0;
  op_fn ops[3] = {twice, thrice, negate};
  for (long i = 0; i < n; i++) {
    s += apply(i & 1 ? twice : thrice, i);
    s += apply3(ops[i % 10 < 4 ? 0 : i % 10 < 7 ? 1 : 2], i);
  }
  printf("%ld\n", s);
  return 0;
}
