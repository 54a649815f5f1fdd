/* A program for abi-layout.test: two procedures with counters, one with an
 * indirect call (a value-profile site) and one whose address is taken. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int twice(int x) { return x > 3 ? 2 * x : x; }

int main(int argc, char **argv) {
  int (*volatile f)(int) = twice;
  int s = 0;
  for (int i = 0; i < argc * 10; i++)
    s += f(i);
  printf("%d %s\n", s, argc > 5 ? argv[1] : "");
  return 0;
}
