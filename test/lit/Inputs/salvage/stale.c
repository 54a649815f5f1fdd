/* A program trained, then edited and rebuilt with the old profile
 * (gcc/salvage.test, llvm/salvage.test): EDIT=1 adds to the hot function
 * a branch and a call that the training input never takes, so that the
 * salvaged counts must equal a fresh profile's; EDIT=2 also rewrites
 * `scale`, whose hot old loop matches nothing any more.  Both arms of
 * the hot branch call (one through a pointer), so that neither compiler
 * makes it a select. */
#include <stdio.h>
#include <stdlib.h>

static long notes;

__attribute__((noinline)) void note(long v) { notes += v; }

__attribute__((noinline)) long step(int i) { return 3L * i; }
__attribute__((noinline)) long mix(long s, int i) { return s ^ i; }
/* Called through a pointer: the value profile of its call site must
 * follow the site into the edited function. */
long (*combine)(long, int) = mix;

__attribute__((noinline)) long hot(int n) {
  long s = 0;
  for (int i = 0; i < n; i++) {
    if (i % 5 == 0)
      s += step(i);
#if EDIT >= 1
    else if (s < 0)
      note(s);
#endif
    else
      s = combine(s, i);
  }
  return s;
}

__attribute__((noinline)) long scale(long v, int k) {
  long r = v;
#if EDIT >= 2
  switch (k) {
  case 1:
    r = mix(r, 1);
    break;
  case 2:
    r += step(k);
    break;
  default:
    r = v * k;
  }
#else
  for (int j = 0; j < 8 * k; j++)
    r = r * 3 + j;
#endif
  return r;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  long t = 0;
  for (int r = 0; r < 20; r++)
    t += scale(hot(n + r), r % 3 + 1);
  printf("%ld %ld\n", t, notes);
  return 0;
}
