/* A function too big for GCC's -O2 inlining limit (work) called from a
 * hot loop (hot_caller), from a call site that runs once (cold_caller),
 * from a loop that runs 200 times in training, nothing beside the hot
 * loop's 100000 (warm_caller), and from a loop that never runs in
 * training (untrained_caller).  With
 * -DBIGGER work is too big for clang's -O2 threshold too (an inline
 * cost over 400 against 225). */
#include <stdio.h>
#include <stdlib.h>

unsigned work(const unsigned *v, unsigned n, unsigned seed) {
  unsigned h = seed;
  for (unsigned i = 0; i < n; i++) {
    unsigned x = v[i];
    switch (x & 7) {
    case 0: h = h * 31 + x; break;
    case 1: h ^= x << 3; break;
    case 2: h += x >> 2; break;
    case 3: h = (h << 5) | (h >> 27); break;
    case 4: h -= x * 7; break;
    case 5: h ^= h >> 13; break;
    case 6: h += (x ^ h) * 3; break;
    default: h = h * 17 + 1; break;
    }
    if (h & 0x80000000u)
      h ^= 0x9e3779b9u;
#ifdef BIGGER
    for (unsigned shift = 3; shift <= 6; shift += 3)
      switch ((x >> shift) & 7) {
      case 0: h = h * (31 + 2 * shift) + x; break;
      case 1: h ^= x << (2 + shift); break;
      case 2: h += x >> shift; break;
      case 3: h = (h << (4 + shift)) | (h >> (28 - shift)); break;
      case 4: h -= x * (5 + 2 * shift); break;
      case 5: h ^= h >> (14 - shift); break;
      case 6: h += (x ^ h) * (1 + shift); break;
      default: h = h * (13 + 2 * shift) + shift; break;
      }
#endif
  }
  return h;
}

unsigned hot_caller(const unsigned *v, unsigned n, unsigned rounds) {
  unsigned s = 0;
  for (unsigned r = 0; r < rounds; r++)
    s += work(v, n, r);
  return s;
}

unsigned cold_caller(const unsigned *v, unsigned n) { return work(v, n, 99); }

unsigned warm_caller(const unsigned *v, unsigned n, unsigned rounds) {
  unsigned s = 2;
  for (unsigned r = 0; r < rounds; r++)
    s += work(v, n, r ^ 5);
  return s;
}

unsigned untrained_caller(const unsigned *v, unsigned n, unsigned rounds) {
  unsigned s = 1;
  for (unsigned r = 0; r < rounds; r++)
    s ^= work(v, n, r * 3);
  return s;
}

/* main ROUNDS [cold|untrained|train] */
int main(int argc, char **argv) {
  unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
  unsigned v[4] = {1, 2, 3, 4}, n = (unsigned)argc + 2;
  unsigned s = hot_caller(v, n, rounds);
  if (argc > 2 && argv[2][0] == 'c')
    s += cold_caller(v, n);
  if (argc > 2 && argv[2][0] == 't')
    s += warm_caller(v, n, 200);
  if (argc > 2 && argv[2][0] == 'u')
    s += untrained_caller(v, n, rounds);
  printf("%u\n", s);
  return 0;
}
