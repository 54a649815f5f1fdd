/* A loop whose hottest arm is the last of an if/else chain: the
 * compilers' default block placement and the ext-TSP model lay it out
 * differently (llvm/block-layout.test, gcc/block-layout.test). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned step(unsigned x, unsigned n) {
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++) {
    if (x % 7 == 0)
      s += x / 3;
    else if (x % 5 == 1)
      s ^= x << 2;
    else
      s += x * 9 + i;
    if (s & 0x100000)
      s -= 17;
    x = x * 1103515245u + 12345u;
  }
  return s;
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 100000;
  printf("%u\n", step(1, n));
  return 0;
}
