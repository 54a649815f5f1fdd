/* A hot loop in a static function that the compilers inline into main,
 * with a branch taken one time in seven. */
#include <stdio.h>
#include <stdlib.h>

static int
work (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    if (i % 7 == 0)
      s += i * 3;
    else
      s -= 1;
  return s;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000;
  printf ("%d\n", work (n));
  return 0;
}
