/* Two static functions named work, of different shapes (a.c's line
 * 40, b.c's line 60): a line profile keeps them apart by source. */
#include <stdio.h>
#include <stdlib.h>
int run_a(int n);
int run_b(const char *p);
int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 2000;
  long t = 0;
  for (int k = 0; k < rounds; k++) {
    t += run_a(1000);
    t += run_b("xxyxyyyxx");
  }
  printf("%ld\n", t);
  return 0;
}
