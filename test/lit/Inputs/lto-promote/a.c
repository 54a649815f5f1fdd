/* An indirect call whose dominant target (99%) is defined in b.c. */
#include <stdio.h>
#include <stdlib.h>
typedef long (*op_fn)(long);
long target_b(long x);
long other_b(long x);
__attribute__((noinline)) long call(op_fn f, long x) { return f(x); }
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000, s = 0;
  for (long i = 0; i < n; i++)
    s += call(i % 100 == 99 ? other_b : target_b, i);
  printf("%ld\n", s);
  return 0;
}
