/* A loop that calls a small helper: clang's pre-inliner takes the
 * helper in before counting, unless its threshold is 0. */
#include <stdio.h>
#include <stdlib.h>

static int
helper (int v)
{
  if (v & 1)
    return v * 3 + 1;
  return v / 2;
}

__attribute__ ((noinline)) static long
walk (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    {
      if (i % 5 == 0)
        s += i;
      else
        s -= 2;
      if (i % 3 != 0)
        s += helper (i);
    }
  return s;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 3000;
  printf ("%ld\n", walk (n));
  return 0;
}
