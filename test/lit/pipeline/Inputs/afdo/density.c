/* Two branches taken equally often: one line of much code, one of little.
 * Samples are time; the line profile should say how often, so the two
 * lines' counts should be alike (samples-density.test). */
#include <stdlib.h>

volatile unsigned a = 1, b = 2;

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
  for (unsigned long i = 0; i < n; i++) {
    if (i & 1)
      { a = a * 3 + 1; a ^= a >> 3; a = a * 5 + 7; a ^= a >> 5; a = a * 9 + 1; a ^= a >> 7; a = a * 11 + 3; a ^= a >> 9; a = a * 13 + 5; a ^= a >> 11; a = a * 15 + 7; a ^= a >> 13; } /* LONG */
    else
      { b = b + 1; b ^= b >> 1; } /* SHORT */
  }
  return (a ^ b) == 12345; /* 0: xprof_collect returns the program's status */
}
