/* A loop with a branch in it: its counters are updated on some
 * iterations only. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long classify(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] % 3 == 0)
      s += v[i];
    else
      s -= 1;
  }
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int *v = malloc(sizeof *v * (size_t)n);
  for (int i = 0; i < n; i++)
    v[i] = i * 7 % 11;
  printf("%ld\n", classify(v, n));
  free(v);
  return 0;
}
