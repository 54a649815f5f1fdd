/*
 * base64.c - binary fields in text: the shapes and foreign records of
 * xprof_text(4)'s extension lines, and the data shipped to a compilation
 * on another machine (plan/ship.c).
 */
#include <stdlib.h>

#include "internal.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *xprof_base64(const void *data, size_t n) {
  const unsigned char *p = data;
  char *out = xprof_malloc(4 * ((n + 2) / 3) + 1), *o = out;
  if (!out)
    return NULL;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                 (i + 2 < n ? p[i + 2] : 0);
    *o++ = b64[v >> 18 & 63];
    *o++ = b64[v >> 12 & 63];
    *o++ = i + 1 < n ? b64[v >> 6 & 63] : '=';
    *o++ = i + 2 < n ? b64[v & 63] : '=';
  }
  *o = 0;
  return out;
}

int xprof_unbase64(const char *s, size_t n, unsigned char **out, size_t *len) {
  *out = NULL;
  *len = 0;
  if (n % 4)
    return 0;
  size_t pad = n && s[n - 1] == '=' ? 1 + (n > 1 && s[n - 2] == '=') : 0;
  unsigned char *d = xprof_malloc(n / 4 * 3 + 1);
  if (!d)
    return -1;
  size_t k = 0;
  uint32_t v = 0;
  int bits = 0;
  for (size_t i = 0; i < n - pad; i++) {
    const char *c = s[i] ? memchr(b64, s[i], 64) : NULL;
    if (!c) {
      xprof_free(d);
      return 0;
    }
    v = v << 6 | (uint32_t)(c - b64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      d[k++] = (unsigned char)(v >> bits);
    }
  }
  /* The bits left over are padding: zero in what xprof_base64 writes. */
  if (v & ((1u << bits) - 1)) {
    xprof_free(d);
    return 0;
  }
  *out = d;
  *len = k;
  return 1;
}
