/* One loop that training runs and two it never reaches. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long trained_sum(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * 3 + (v[i] >> 2);
  return s;
}

__attribute__((noinline)) long untrained_sum(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * 5 - (v[i] >> 3);
  return s;
}

/* Never run in training either, but asks for unrolling itself. */
__attribute__((noinline, optimize("unroll-loops"))) long unrolled_sum(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * 9 - (v[i] >> 4);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int *v = malloc(sizeof *v * (size_t)n);
  for (int i = 0; i < n; i++)
    v[i] = i % 97;
  long s = argc > 2 ? untrained_sum(v, n) + unrolled_sum(v, n) : trained_sum(v, n);
  printf("%ld\n", s);
  free(v);
  return 0;
}
