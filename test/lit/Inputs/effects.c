/* A program whose profile should change how GCC compiles it: a function
 * never run in training, a branch never taken, a dominant indirect-call
 * target. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int rare_report(int x) {
  fprintf(stderr, "rare case %d\n", x);
  for (int i = 0; i < 3; i++)
    x = x * 7 + i;
  return x;
}

static int add_one(int x) { return x + 1; }
static int sub_one(int x) { return x - 1; }
typedef int (*op_fn)(int);
op_fn choose(int i) { return i % 100 == 99 ? sub_one : add_one; }

__attribute__((noinline)) long process(const int *v, int n, op_fn (*pick)(int)) {
  long s = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] < 0) /* never in training */
      s += rare_report(v[i]);
    else
      s += pick(i)(v[i]);
  }
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  int *v = malloc(sizeof *v * (size_t)n);
  for (int i = 0; i < n; i++)
    v[i] = argc > 2 ? -i : i % 1000;
  printf("%ld\n", process(v, n, choose));
  free(v);
  return 0;
}
