/* The call graph of xprof_gprof's tests: direct and indirect calls, a
 * recursion, and calls into a shared library (lib.c), each a number of
 * times the test knows. */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) void leaf(int i) {
  for (int k = 0; k < 2000; k++)
    sink += k * i;
}

__attribute__((noinline)) void mid(int n) {
  for (int i = 0; i < n; i++)
    leaf(i);
}

__attribute__((noinline)) void other(int n) {
  for (int i = 0; i < n; i++)
    if (i % 3 == 0)
      leaf(i);
}

__attribute__((noinline)) int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

#ifdef WITH_LIB
void lib_entry(int n);
#endif

static void (*table[2])(int) = {mid, other};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 300;
  for (int r = 0; r < 100; r++) {
    table[r % 2](n); /* 50 calls of mid, 50 of other */
    mid(3);          /* 100 more of mid */
  }
  int d = fib(10); /* recursive */
#ifdef WITH_LIB
  lib_entry(7);
#endif
  printf("%g %d\n", sink, d);
  return 0;
}
