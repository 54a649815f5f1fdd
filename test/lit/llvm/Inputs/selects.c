/* Selects for selects.test: conditionals between constants, which
 * clang's front end makes selects (an arm with code of its own is a
 * block until xprof's pass counts it: arms.c).  window() and fill() have
 * loops: their selects outside the loops are counted (fill's runs once:
 * not hot).  clamp() has no loop and is not inlined, and the select in
 * sum()'s loop runs every iteration: neither is counted.  None is a
 * minimum or a maximum, which LLVM 15 and later turn into intrinsics
 * before xprof's pass runs (no select left to count). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) unsigned window(const unsigned *v, unsigned n, unsigned shift) {
  unsigned cap = shift < 4 ? 5 : 2;
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++)
    s += v[i] << cap;
  return s;
}

__attribute__((noinline)) void fill(unsigned *v, unsigned n, unsigned step) {
  unsigned k = step > 7 ? 3 : 9;
  for (unsigned i = 0; i < n; i++)
    v[i] = i * k + step;
}

__attribute__((noinline)) unsigned clamp(unsigned x, unsigned hi) {
  return x < hi ? 5 : 11;
}

__attribute__((noinline)) unsigned sum(const unsigned *v, unsigned n) {
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++)
    s += v[i] & 1 ? 9 : 3;
  return s;
}

/* selects CALLS EVERY: window() with a small shift on every EVERY-th of
 * CALLS calls. */
int main(int argc, char **argv) {
  unsigned calls = argc > 1 ? (unsigned)atoi(argv[1]) : 10;
  unsigned every = argc > 2 ? (unsigned)atoi(argv[2]) : 4;
  unsigned v[64], t = 0;
  fill(v, 64, (unsigned)argc + 5);
  for (unsigned r = 0; r < calls; r++)
    t += window(v, 64, r % every == 0 ? 2 : 9);
  printf("%u %u %u\n", t, clamp(t, 1000), sum(v, 64));
  return 0;
}
