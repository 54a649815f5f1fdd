/* A loop the sampled run spends its time in, and one it never reaches. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long busy_sum(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * 3 + (v[i] >> 2);
  return s;
}

__attribute__((noinline)) long unsampled_sum(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * 5 - (v[i] >> 3);
  return s;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 1, n = 4096;
  int *v = malloc(sizeof *v * (size_t)n);
  for (int i = 0; i < n; i++)
    v[i] = i % 97;
  long s = 0;
  for (int r = 0; r < rounds; r++)
    s += argc > 2 ? unsampled_sum(v, n) : busy_sum(v, n);
  printf("%ld\n", s);
  free(v);
  return 0;
}
