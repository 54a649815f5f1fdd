/* An arm that the compilers keep apart differently: clang makes
 * `if (k < 0) k += 64` a select of the sum, GCC keeps the branch.  The
 * arm runs once in 64 iterations. */
#include <stdio.h>
#include <stdlib.h>

static int p[64];

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000;
  long s = 0;
  for (int i = 0; i < 64; i++)
    p[i] = i;
  for (int j = 0; j < n; j++)
    {
      int k = p[j & 63] - 1; if (k < 0) k += 64;
      s += k * j;
    }
  printf ("%ld\n", s);
  return 0;
}
