/* A loop a sampled run spends its time in, through a helper that a plain
 * build inlines at each of its calls (bzip2's bsW is such a helper). */
#include <stdio.h>
#include <stdlib.h>

static unsigned char out[1 << 16];
static unsigned acc, used, live;

static inline void put(int n, unsigned v) {
  while (live >= 8) {
    out[used++ & 0xffff] = (unsigned char)(acc >> 24);
    acc <<= 8;
    live -= 8;
  }
  acc |= v << (32 - live - n);
  live += n;
}

__attribute__((noinline)) unsigned pack(const unsigned char *p, int n) {
  for (int i = 0; i < n; i++) {
    put(3, p[i] & 7);
    put(5, p[i] >> 3);
    if (p[i] & 1)
      put(2, 1);
    if (p[i] & 2)
      put(1, 0);
    put(4, (unsigned)i & 15);
  }
  return acc ^ used;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 1, n = argc > 2 ? atoi(argv[2]) : 4096;
  unsigned char *p = malloc((size_t)n);
  for (int i = 0; i < n; i++)
    p[i] = (unsigned char)(i * 7 % 251);
  unsigned s = 0;
  for (int r = 0; r < rounds; r++)
    s += pack(p, n);
  printf("%u\n", s);
  free(p);
  return 0;
}

/* Where most of the time goes in llvm/sampled-few.test's samples: next to
 * it, pack has so few that the profile summary calls its counts cold. */
__attribute__((noinline)) unsigned churn(unsigned x, int n) {
  for (int i = 0; i < n; i++)
    x = x * 2654435761u + (unsigned)i;
  return x;
}
