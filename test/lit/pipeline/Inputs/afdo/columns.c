/* One line, three blocks: a test and its two arms (samples-columns.test). */
#include <stdlib.h>

volatile unsigned a = 1, b = 2;

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
  for (unsigned long i = 0; i < n; i++) {
    if ((i & 7) == 0) a = a * 3 + 1; else b = (b ^ (b >> 3)) * 5 + 7; /* ONE */
  }
  return (a ^ b) == 12345;
}
