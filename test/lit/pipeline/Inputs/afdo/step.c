// A function that clang -O2 inlines into main's loop and the xprof pass's
// pre-inliner does not (lines-replay.test).
#include <stdio.h>
#include <stdlib.h>

#ifndef STEP_ATTR
#define STEP_ATTR
#endif

STEP_ATTR unsigned step(unsigned x, unsigned k) {
  unsigned r = x;
  if (k % 7 == 0)
    r = r * 2654435761u + k;
  else
    r ^= r >> 13;
  if (r % 3 == 0)
    r += 7;
  else
    r -= 3;
  r ^= r << 5;
  r += k * 17;
  if (r % 5 == 1)
    r = r * 31 + k;
  else
    r ^= r >> 7;
  r ^= r << 3;
  if (r % 11 == 2)
    r += k >> 2;
  r = (r << 9) | (r >> 23);
  if ((r ^ k) & 0x40)
    r -= k * 5;
  if (r % 6 == 1)
    r = r * 37 + k;
  else
    r ^= r >> 5;
  r ^= r << 4;
  if (r % 13 == 3)
    r += k >> 3;
  r = (r << 11) | (r >> 21);
  if ((r ^ k) & 0x20)
    r -= k * 9;
  if (r & 0x100)
    r = ~r;
  return r;
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1000, s = 1;
  for (unsigned i = 0; i < n; i++)
    s = step(s, i);
  printf("%u\n", s);
  return 0;
}
