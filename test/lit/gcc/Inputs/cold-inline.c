/* A bit-stream encoder in the style of zstd's: the stream lives in a
 * local struct, and a small helper that takes its address flushes it, on
 * the hot path and on one that training never takes (wide symbols). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stream {
  unsigned long acc;
  unsigned bits;
  unsigned char *p, *end;
};

static void flush(struct stream *s) {
  unsigned n = s->bits >> 3;
  memcpy(s->p, &s->acc, sizeof s->acc);
  s->p += n;
  if (s->p > s->end)
    s->p = s->end;
  s->acc >>= n * 8;
  s->bits &= 7;
}

unsigned long encode(const unsigned char *in, size_t len, unsigned char *out,
                     size_t cap, int wide) {
  struct stream s = {0, 0, out, out + cap - sizeof s.acc};
  for (size_t i = 0; i < len; i++) {
    s.acc |= (unsigned long)(in[i] & 0x3f) << s.bits;
    s.bits += 6;
    if (wide) {
      s.acc |= (unsigned long)(in[i] >> 6) << s.bits;
      s.bits += 2;
      flush(&s);
    }
    if (s.bits >= 48)
      flush(&s);
  }
  flush(&s);
  return (unsigned long)(s.p - out) * 8 + s.bits;
}

/* The same shape without a local's address: the cold call stays a call
 * (mix is global, so that inlining its last call does not remove it). */
unsigned long mix(unsigned long h, unsigned long x) {
  h ^= x;
  h *= 0x100000001b3ul;
  h ^= h >> 29;
  h += x << 7;
  h *= 0x9e3779b97f4a7c15ul;
  h ^= h >> 31;
  h += x >> 3;
  return h * 0xbf58476d1ce4e5b9ul;
}

unsigned long checksum(const unsigned char *p, size_t n, int slow) {
  unsigned long h = 0;
  for (size_t i = 0; i < n; i++) {
    h = mix(h, p[i]);
    if (slow)
      h = mix(h, i);
  }
  return h;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
  int wide = argc > 2 && strcmp(argv[2], "wide") == 0;
  unsigned char *in = malloc(n + 1), *out = malloc(2 * n + 16);
  unsigned long h = 0;
  for (size_t i = 0; i < n; i++)
    in[i] = (unsigned char)(i * 2654435761u >> 13);
  unsigned long bits = encode(in, n, out, 2 * n + 16, wide);
  for (unsigned long i = 0; i < (bits + 7) / 8; i++)
    h = h * 31 + out[i];
  printf("%lu bits, hash %lx, checksum %lx\n", bits, h,
         checksum(out, (bits + 7) / 8, wide));
  free(in);
  free(out);
  return 0;
}
