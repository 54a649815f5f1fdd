/* A bit reader in the style of zstd's: refill is a small helper (inline
 * hint) called on a rare path (__builtin_expect) of the always_inline
 * decode, which two callers use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
  const unsigned char *p, *start;
  unsigned long long bits;
  unsigned used;
};

static inline void refill(struct reader *r) {
  unsigned bytes = r->used >> 3;
  if (r->p - bytes < r->start)
    bytes = (unsigned)(r->p - r->start);
  r->p -= bytes;
  r->used -= bytes * 8;
  memcpy(&r->bits, r->p, sizeof r->bits);
  if (r->p == r->start && r->used > 64) { /* ran dry: start over */
    r->p = r->start + 8 + (r->used & 7);
    r->used = 0;
    memcpy(&r->bits, r->p - 8, sizeof r->bits);
  }
}

static inline __attribute__((always_inline)) unsigned decode(struct reader *r, unsigned n) {
  unsigned v = (unsigned)((r->bits << r->used) >> (64 - n));
  r->used += n;
  if (__builtin_expect(r->used > 56, 0))
    refill(r);
  return v;
}

unsigned pair(struct reader *r) { return decode(r, 5) * 32 + decode(r, 5); }

unsigned total(struct reader *r, unsigned count) {
  unsigned s = 0;
  for (unsigned i = 0; i < count; i++)
    s += decode(r, 1 + i % 7);
  return s;
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
  unsigned char *buf = malloc(n + 8);
  for (unsigned i = 0; i < n + 8; i++)
    buf[i] = (unsigned char)(i * 131 + 7);
  struct reader r = {buf + n, buf, 0, 64};
  refill(&r);
  unsigned s = 0;
  for (unsigned k = 0; k < n / 64; k++)
    s += pair(&r) + total(&r, 20);
  printf("%u\n", s);
  free(buf);
  return 0;
}
