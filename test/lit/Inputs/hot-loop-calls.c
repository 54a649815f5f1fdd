/* hot-loop-calls.c - for gcc/hot-loop-calls.test: the program's time is
 * two loops over 4,096 elements, in two functions that main's loop calls
 * 2,000 times each: calls that run rarely into code that runs most. */
#include <stdio.h>
#include <stdlib.h>
#define N 4096
float a[N], b[N], c[N];
__attribute__((noinline)) void saxpy(float k) { for (int i = 0; i < N; i++) a[i] = k * b[i] + c[i]; }
__attribute__((noinline)) long isum(const int *p, int n) { long s = 0; for (int i = 0; i < n; i++) s += p[i] * 3; return s; }
int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 20000;
  static int d[N];
  for (int i = 0; i < N; i++) { b[i] = i; c[i] = 2 * i; d[i] = i; }
  long s = 0;
  for (int r = 0; r < reps; r++) { saxpy(r * 0.5f); s += isum(d, N); }
  printf("%f %ld\n", a[N - 1], s);
  return 0;
}
