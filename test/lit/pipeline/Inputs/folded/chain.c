/* An if/else chain that GCC's early optimizations make a switch (a table
 * lookup) on its first condition's line before the counts are read
 * (lines-folded.test). */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static int classify(int x) {
  int r;
  if (x == 1)
    r = 10;
  else if (x == 2)
    r = 20;
  else if (x == 3)
    r = 35;
  else if (x == 4)
    r = 47;
  else
    r = x * 3;
  return r;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 70000;
  long s = 0;
  for (int i = 0; i < n; i++)
    s += classify(i % 7);
  printf("%ld\n", s);
  return 0;
}
