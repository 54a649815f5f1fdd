/* Indirect calls whose edges their value-profile sites measure: a loop of
 * calls through a table, one callee that may exit on a chosen call, and
 * (with a third argument) a callee that xprof did not compile.
 * usage: measured ROUNDS [EXIT_AT [MIX]] */
#include <stdio.h>
#include <stdlib.h>

void plain_op(long x); /* plain_ops.c, compiled without xprof */

static long total;
static int calls, exit_at;

static void add(long x) { total += x; }
static void sub(long x) { total -= x; }
static void twice(long x) { total += 2 * x; }
static void shift(long x) { total = (total << 1) ^ x; }
static void maybe_exit(long x) {
  if (++calls == exit_at) {
    printf("exit at call %d: %ld\n", calls, total);
    exit(0);
  }
  total ^= x;
}

static void run(void (*const *ops)(long), int n, int rounds) {
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < n; i++)
      ops[i](r + i);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 10;
  exit_at = argc > 2 ? atoi(argv[2]) : 0;
  void (*ops[8])(long) = {add, sub, maybe_exit, twice, add, shift, maybe_exit, twice};
  if (argc > 3)
    ops[1] = ops[4] = plain_op;
  run(ops, 8, rounds);
  printf("total %ld after %d calls\n", total, calls);
  return 0;
}
