/* An early return in a loop, after an inlined call: `if (budget < 0)
 * return;` never returns here; the loop ends on its own. */
#include <stdio.h>
#include <stdlib.h>

static int budget = 1000000000;
static int a[4096];

static void
small_sort (int *v, int n)
{
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && v[j - 1] > v[j]; j--)
      {
        int t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
        budget--;
      }
}

static void
sort (int *v, int lo, int hi)
{
  int stack[128][2], sp = 0;
  stack[sp][0] = lo; stack[sp][1] = hi; sp++;
  while (sp > 0)
    {
      sp--;
      lo = stack[sp][0]; hi = stack[sp][1];
      if (hi - lo < 16)
        {
          small_sort (v + lo, hi - lo + 1);
          if (budget < 0) return;
          continue;
        }
      int p = v[(lo + hi) / 2], i = lo, j = hi;
      while (i <= j)
        {
          while (v[i] < p) i++;
          while (v[j] > p) j--;
          if (i <= j) { int t = v[i]; v[i] = v[j]; v[j] = t; i++; j--; }
        }
      stack[sp][0] = lo; stack[sp][1] = j; sp++;
      stack[sp][0] = i; stack[sp][1] = hi; sp++;
    }
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 100;
  long s = 0;
  unsigned x = 1;
  for (int r = 0; r < n; r++)
    {
      for (int i = 0; i < 4096; i++)
        a[i] = (int) ((x = x * 1103515245 + 12345) >> 8);
      sort (a, 0, 4095);
      s += a[r & 4095];
    }
  printf ("%ld\n", s);
  return 0;
}
