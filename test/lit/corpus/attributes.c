// Function attributes the profile may contradict: hot and cold, noreturn,
// __builtin_expect the wrong way round, weak definitions and aliases,
// always_inline and noinline, and a function never called at all.
// RUN: %corpus %s | FileCheck %s
// corpus: train=10000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 6 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 6 procedures (4 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

__attribute__((cold, noinline)) static long marked_cold(long x) { return x * 3; }
__attribute__((hot, noinline)) static long marked_hot(long x) { return x - 1; }
__attribute__((noreturn, noinline)) static void fail(const char *why) {
  fprintf(stderr, "%s\n", why);
  exit(9);
}
__attribute__((always_inline)) static inline long twice(long x) { return 2 * x; }
__attribute__((weak, noinline)) long overridable(long x) { return x + 100; }
long aliased(long x) __attribute__((alias("overridable")));
__attribute__((noinline)) long never_called(long x) { return x ^ 5; }

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100, s = 0;
  if (n < 0)
    fail("negative");
  for (long i = 0; i < n; i++) {
    /* Expected rare, but taken 90% of the time in training. */
    if (__builtin_expect(i % 10 != 0, 0))
      s += marked_cold(i);
    else
      s += marked_hot(i);
    s = (s + twice(aliased(i))) % 1000003;
  }
  printf("%ld\n", s);
  return 0;
}
