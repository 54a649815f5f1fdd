/* mix is extern, so its out-of-line copy stays, and too large for the
 * collect build's pre-inliner: training counts its calls as its own
 * entries.  The use build's inliner puts it into its hot caller, and the
 * copy no longer runs. */
#include <stdio.h>
#include <stdlib.h>

unsigned mix(unsigned x, unsigned k) {
  x ^= x >> 16;
  x *= 0x7feb352dU + k;
  x ^= x >> 15;
  x *= 0x846ca68bU - k;
  x ^= x >> 16;
  if (x % 7 == k)
    x += k * 13;
  x ^= x >> 11;
  x *= 0x9e3779b1U ^ k;
  x ^= x >> 13;
  if (x % 11 == k)
    x -= k * 29;
  x ^= x << 5;
  x *= 0x85ebca6bU + (k << 1);
  x ^= x >> 17;
  if (x % 13 == k)
    x += k * 31;
  return x ^ (x >> 3) ^ (k << 2);
}

__attribute__((noinline)) unsigned hot(int n) {
  unsigned s = 0;
  for (int i = 0; i < n; i++)
    s += mix((unsigned)i, s & 3);
  return s;
}

__attribute__((noinline)) unsigned warm(int n) {
  unsigned s = 1;
  for (int i = 0; i < n; i++)
    s = s * 33 + (unsigned)i;
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  printf("%u %u\n", hot(n), warm(n / 16));
  return 0;
}
