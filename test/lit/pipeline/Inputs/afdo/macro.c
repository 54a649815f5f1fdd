/* A macro's test and the call it guards, expanded in a hot loop: every
 * token of the expansion has the expansion's line and column, so the two
 * blocks are one source place.  slow runs for one byte in 64. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned
slow (const unsigned char *p)
{
  return p[0] * 3u + 1;
}

#define GETV(p, v) v = *(p); if (v >= 0x80) v = slow (p)

int
main (int argc, char **argv)
{
  static unsigned char buf[4096];
  int n = argc > 1 ? atoi (argv[1]) : 1000;
  for (int i = 0; i < 4096; i++)
    buf[i] = i % 64 == 0 ? 0x90 : (unsigned char) (i & 0x7f);
  unsigned s = 0;
  for (int i = 0; i < n; i++)
    {
      unsigned v;
      GETV (&buf[i & 4095], v);
      s += v;
    }
  printf ("%u\n", s);
  return 0;
}
