/* step's negative branch never runs in training: with a profile it is cold. */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static long step(long x) {
  if (x < 0) { /* never in training */
    fprintf(stderr, "negative %ld\n", x);
    for (int i = 0; i < 3; i++) x = x * 7 + i;
    return x;
  }
  return x * 2 + 1;
}
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000, s = 0;
  for (long i = 0; i < n; i++) s += step(i);
  printf("%ld\n", s);
  return 0;
}
