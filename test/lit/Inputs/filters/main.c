/* main.c and lib.c: which source files GCC's -fprofile-filter-files and
 * -fprofile-exclude-files let the profile have. */
#include <stdio.h>
#include <stdlib.h>

int scale(int x);
int offset(int x);

__attribute__((noinline)) static int step(int x) { return x % 3 ? scale(x) : offset(x); }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += step(i);
  printf("%ld\n", sum);
  return 0;
}
