/* Calls to functions of this file that surely return need no fake edge
 * to EXIT; calls that may end in exit() keep theirs, also through other
 * functions of the file, so counts stay exact when the program exits
 * inside one.  Usage: returning N [STOP] (exit when step reaches STOP). */
#include <stdio.h>
#include <stdlib.h>

static long total;
static int ping(int n);

__attribute__((noinline)) static int square(int x) { return x * x; }

__attribute__((noinline)) static int sum_to(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += square(i);
  return s;
}

/* Mutual recursion: in the set only if the set may start full. */
__attribute__((noinline)) static int pong(int n) {
  return n <= 0 ? 0 : 2 + ping(n - 1);
}
__attribute__((noinline)) static int ping(int n) {
  return n <= 0 ? 0 : 1 + pong(n - 1);
}

__attribute__((noinline)) static void check(int x, int stop) {
  if (x == stop)
    exit(0);
}

/* May exit, through check. */
__attribute__((noinline)) static void step(int x, int stop) {
  total += x;
  check(x, stop);
}

/* One block, three calls that surely return: one counter, for the
 * function's entry (E - V + 2 with ENTRY -> B -> EXIT). */
__attribute__((noinline)) int calls_returning(int x) {
  return square(x) + sum_to(x) + ping(x);
}

/* Three calls that may exit: the block is cut after each and gets a fake
 * edge to EXIT: 4 counters (with GCC, the fallthrough to EXIT gets a
 * block of its own: 6 nodes and 8 edges; with LLVM 5 and 7). */
__attribute__((noinline)) void calls_exiting(int x, int stop) {
  step(x, stop);
  step(x + 1, stop);
  step(x + 2, stop);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int stop = argc > 2 ? atoi(argv[2]) : -1;
  for (int i = 0; i < n; i++) {
    total += calls_returning(i % 7);
    calls_exiting(i * 3, stop);
    printf("%ld\n", total);
  }
  return 0;
}
