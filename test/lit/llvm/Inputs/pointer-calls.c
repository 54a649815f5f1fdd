/* For pointer-calls.test: step() and main() reach a call through a
 * pointer (in apply) only through direct calls; quit(), one of its
 * targets, exits when x grows past a limit (the second argument). */
#include <stdio.h>
#include <stdlib.h>

typedef int (*op_fn)(int);
static long limit = 1L << 40;

static int twice(int x) { return 2 * x % 100003; }

static int quit(int x) {
  if (x > limit) {
    printf("quit at %d\n", x);
    exit(0);
  }
  return x + 7;
}

op_fn ops[2] = {twice, quit};

__attribute__((noinline)) int apply(int k, int x) { return ops[k & 1](x); }

__attribute__((noinline)) int step(int i, int x) {
  if (i % 3 == 0)
    x = apply(i, x);
  else
    x += i % 11;
  return x;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  if (argc > 2)
    limit = atol(argv[2]);
  if (argc > 3)
    ops[0] = quit;
  int x = 1;
  for (int i = 0; i < n; i++)
    x = step(i, x);
  printf("%d\n", x);
  return 0;
}
