/* setjmp returns a second time into the block after its call (a fake
 * edge from ENTRY); when that block also calls something that may
 * longjmp, its flow in and out is all uncounted edges unless the two are
 * split apart -- the function must still be profiled, and exactly.
 * Usage: setjmp [N] */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static int jumps;

__attribute__((noinline)) static void maybe_jump(int x) {
  if (x % 7 == 0 && jumps < 1000) {
    jumps++;
    longjmp(env, 1);
  }
}

/* The continuation of setjmp calls maybe_jump and returns. */
__attribute__((noinline)) int retry(int x) {
  volatile int tries = 0;
  setjmp(env);
  tries++;
  maybe_jump(x + tries);
  return tries;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 50;
  long total = 0;
  for (int i = 0; i < n; i++)
    total += retry(i);
  printf("%ld %d\n", total, jumps);
  return 0;
}
