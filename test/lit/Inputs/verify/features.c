/* C control flow that counters must follow exactly: switch, loops,
 * recursion, setjmp/longjmp, computed goto, noreturn calls, nested
 * functions, indirect calls, a static function whose name other.c uses
 * too. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

int other_entry(int);
static jmp_buf env;
static long total;

static int helper(int x) { return x * 3 + 1; } /* other.c has one too */

static int classify(int x) {
  switch (x % 6) {
  case 0: return 10;
  case 1: case 2: return 20;
  case 3: return helper(x);
  case 4: if (x > 50) return 40; /* fall through */
  default: return 50;
  }
}

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static void maybe_jump(int x) {
  if (x % 13 == 0)
    longjmp(env, x);
}

static int with_setjmp(int x) {
  volatile int tries = 0;
  int r = setjmp(env);
  if (r) {
    tries++;
    return r + tries;
  }
  for (int i = 0; i < x; i++)
    maybe_jump(i + x);
  return x;
}

static int computed_goto(int n) {
  static void *table[] = {&&even, &&odd};
  int acc = 0, i = 0;
next:
  if (i >= n)
    return acc;
  goto *table[i & 1];
even:
  acc += i++;
  goto next;
odd:
  acc -= i++;
  goto next;
}

static int nested(int n) {
  int base = 7;
#ifndef __clang__
  int add(int v) { return v + base; } /* GNU C nested function */
#else
#define add(v) ((v) + base) /* clang has no nested functions */
#endif
  int s = 0;
  for (int i = 0; i < n; i++)
    s += add(i);
  return s;
}

__attribute__((noinline)) static void fail(const char *why) {
  fprintf(stderr, "%s\n", why);
  exit(3);
}

typedef int (*op_fn)(int);
static int op_inc(int x) { return x + 1; }
static int op_dbl(int x) { return x * 2; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200;
  if (n < 0)
    fail("negative");
  op_fn ops[] = {op_inc, op_dbl, other_entry};
  for (int i = 0; i < n; i++) {
    total += classify(i);
    total += ops[i % 7 == 0 ? 1 : i % 11 == 0 ? 2 : 0](i);
    if (__builtin_expect(i % 50 == 0, 0))
      total += with_setjmp(i % 20);
  }
  total += fib(15) + computed_goto(n) + nested(n);
  printf("%ld\n", total);
  return 0;
}
