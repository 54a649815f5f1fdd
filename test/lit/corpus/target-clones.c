// A function with target_clones (an ifunc and a clone per target) and a
// hand-written ifunc: resolvers run before the runtime is registered,
// while the dynamic linker relocates the program, and count in the shared
// array (with per-thread twins their counts were lost: 3 ran, not 5).
// corpus/ifunc-static.c: the same in a static program.
// RUN: %corpus %s | FileCheck %s
// corpus: train=20000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 7 procedures (5 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 7 procedures (5 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

__attribute__((target_clones("avx2", "default"))) long dot(const int *a, const int *b,
                                                           int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += (long)a[i] * b[i];
  return s;
}

static long impl_plain(long x) { return x + 1; }
static long impl_other(long x) { return x + 2; }
static long (*resolve_step(void))(long) {
  return __builtin_cpu_supports("sse2") ? impl_plain : impl_other;
}
long step(long) __attribute__((ifunc("resolve_step")));

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int *a = malloc(sizeof *a * 64), *b = malloc(sizeof *b * 64);
  for (int i = 0; i < 64; i++)
    a[i] = i, b[i] = 64 - i;
  long s = 0;
  for (int i = 0; i < n; i++)
    s = (step(s) + dot(a, b, i % 64)) % 1000003;
  free(a);
  free(b);
  printf("%ld\n", s);
  return 0;
}
