/* A function entered once, one entered 100,000 times, and main between
 * them: cold, hot (an inline hint) and neither in a use build. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int once(int x) { return x * 3 + 1; }

__attribute__((noinline)) int often(int x) { return (x ^ 0x5a) & 0xff; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  long s = once(n);
  for (int i = 0; i < n; i++)
    s += often(i);
  printf("%ld\n", s);
  return 0;
}
