/* Calls to functions of this file that surely return need no fake edge
 * to EXIT; calls that may end in exit() keep theirs, also through other
 * functions of the file, so counts stay exact when the program exits
 * inside one.  Usage: returning N [STOP] (exit when step, or a comparison
 * of qsort, reaches STOP). */
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

/* Three calls that may exit in a block that returns: no fake edge, but
 * the return edge B -> EXIT is never counted, so that it takes what
 * leaves by exit too: ENTRY -> B -> EXIT, one counter, as above. */
__attribute__((noinline)) void calls_exiting(int x, int stop) {
  step(x, stop);
  step(x + 1, stop);
  step(x + 2, stop);
}

/* C library calls come back (LLVM knows them by name and prototype), but
 * qsort's, which run the program's comparison: it may exit. */
static int sort_stop;
static int by_value(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  check(x, sort_stop);
  return (x > y) - (x < y);
}
__attribute__((noinline)) void calls_library(char *buf, int x) {
  snprintf(buf, 32, "%d", x);
  puts(buf);
}
__attribute__((noinline)) void calls_qsort(int *v, int n, int stop) {
  sort_stop = stop;
  qsort(v, n, sizeof *v, by_value);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int stop = argc > 2 ? atoi(argv[2]) : -1;
  for (int i = 0; i < n; i++) {
    total += calls_returning(i % 7);
    int v[3] = {100 + i, 102 + i, 101 + i};
    calls_qsort(v, 3, stop);
    calls_exiting(i * 3, stop);
    char buf[32];
    calls_library(buf, v[1]);
    printf("%ld\n", total);
  }
  return 0;
}
