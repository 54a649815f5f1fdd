// The program of corpus/ifunc-static.c and ifunc-static-pie.c: a
// function with target_clones and a hand-written ifunc.
#include <stdio.h>
#include <stdlib.h>

__attribute__((target_clones("avx2", "default"))) long twice(long x) { return 2 * x; }

static long impl_plain(long x) { return x + 1; }
static long impl_other(long x) { return x + 2; }
int prefer_other; /* a resolver may not call the C library before it is relocated */
static long (*resolve_step(void))(long) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse2") && !prefer_other ? impl_plain : impl_other;
}
long step(long) __attribute__((ifunc("resolve_step")));

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long s = 0;
  for (int i = 0; i < n; i++)
    s = (step(s) + twice(i)) % 1000003;
  printf("%ld\n", s);
  return 0;
}
