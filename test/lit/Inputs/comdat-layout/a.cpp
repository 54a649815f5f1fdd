#include "shared.h"
#include <cstdio>
#include <cstdlib>
int from_a(int x) { shared(x); shared(x + 1); return x; }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long t = 0;
  for (int i = 0; i < n; i++) t += from_a(i) + from_b(i);
  printf("%ld %ld\n", t, acc);
  return 0;
}
