/* Two static functions named work, of different shapes (a.c's line
 * 40, b.c's line 60): a line profile keeps them apart by source. */
#include <stdio.h>
#include <stdlib.h>
int run_a(int n);
int run_b(const char *p);
int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 2000;
  /* Arguments that change with k as far as a compiler knows (step is 0
   * when run as the tests run it), so that a link-time optimizer calls
   * each function every round. */
  int step = argc > 2;
  long t = 0;
  for (int k = 0; k < rounds; k++) {
    t += run_a(1000 + (k & 1) * step);
    t += run_b("xxyxyyyxx" + (k & 1) * step);
  }
  printf("%ld\n", t);
  return 0;
}
