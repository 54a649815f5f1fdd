/* hot_cold.c - a hot loop calling hot(), through a table two targets,
 * and a branch never taken in training that calls cold(): what a use
 * build splits into hot and unlikely text and orders by first run. */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) int hot(int x) { return x * 3 + 1; }
__attribute__((noinline)) int cold(int x) { printf("cold %d\n", x); return x - 1; }
static int add1(int x) { return x + 1; }
static int sub1(int x) { return x - 1; }
int (*table[2])(int) = {add1, sub1};
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  long s = 0;
  for (long i = 0; i < n; i++) {
    s += hot((int)i);
    s += table[i % 7 == 0](s & 0xff);
    if (i == n + 5)
      s += cold((int)i);
  }
  printf("%ld\n", s);
  return 0;
}
