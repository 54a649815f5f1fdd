/* A program that ends with quick_exit: from a callee inside loops, or
 * from a signal handler, after a handler of its own registered with
 * at_quick_exit.  Usage: quick-exit N [signal]. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static long total;

__attribute__((noinline)) static void flush_total(void) {
  if (total % 2)
    printf("odd %ld\n", total);
  else
    printf("even %ld\n", total);
  fflush(stdout);
}

static void on_signal(int sig) {
  (void)sig;
  quick_exit(6);
}

__attribute__((noinline)) static void step(int i, int limit, int by_signal) {
  total += i;
  if (i == limit) {
    if (by_signal)
      raise(SIGUSR1);
    quick_exit(5);
  }
}

int main(int argc, char **argv) {
  int limit = argc > 1 ? atoi(argv[1]) : 10;
  int by_signal = argc > 2;
  at_quick_exit(flush_total);
  signal(SIGUSR1, on_signal);
  for (int i = 0; i < 1000; i++)
    for (int j = 0; j < 3; j++)
      step(i + j, limit, by_signal);
  return 0;
}
