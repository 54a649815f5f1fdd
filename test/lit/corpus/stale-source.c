// The source changed between training and the use build (STALE is
// defined there): the changed function's profile is salvaged, with one
// warning, the others keep theirs, and under -Werror the warning stays
// one with -Wno-error=coverage-mismatch, as with GCC's own profiles.  The
// use build must still be right.
// RUN: %corpus %s | FileCheck %s
// corpus: xprof-flags=-Werror -Wno-error=coverage-mismatch
// corpus: stale
// corpus: train=1000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain; warned: {{.*}}1 function changed since the training build; its profile data was salvaged
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain; warned: {{.*}}1 function changed since the training build; its profile data was salvaged
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long changed(long i) {
#ifdef STALE
  if (i % 1000 == 999) /* a check added after training */
    return 0;
#endif
  return i % 7 ? i : -i;
}

__attribute__((noinline)) static long same(long i) { return i / 3; }

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10, s = 0;
  for (long i = 0; i < n; i++)
    s += changed(i) + same(i);
  printf("%ld\n", s);
  return 0;
}
