/* hot-threshold.c - for gcc/hot-threshold.test: step runs a million
 * times, warm two thousand, once a thousand steps (GCC's own -fprofile-use
 * calls that hot, 1/10000 of the largest count, where the profile's 99%
 * cutoff does not). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned step(unsigned x) {
  return x * 2654435761u + 1;
}

__attribute__((noinline)) static unsigned warm(unsigned x) {
  return (x >> 3) ^ (x << 5);
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1000000;
  unsigned s = 1;
  for (unsigned i = 0; i < n; i++) {
    s = step(s);
    if (i % 500 == 0)
      s = warm(s);
  }
  printf("%u\n", s);
  return 0;
}
