/*
 * strmap.c - a read-only map from strings to array indexes, for merges
 * and lookups over hundreds of thousands of names.
 */
#include <stdlib.h>

#include "internal.h"

static const char *key_at(const xprof_strmap *m, uint32_t i) {
  return *(const char *const *)((const char *)m->keys + (size_t)i * m->key_stride);
}

int xprof_strmap_init(xprof_strmap *m, const void *base, size_t stride,
                      uint32_t n) {
  uint32_t size = 16;
  while (size < 2 * (uint64_t)n && size < (1u << 31))
    size *= 2;
  m->mask = size - 1;
  m->keys = base;
  m->key_stride = stride;
  m->slots = xprof_calloc(size, sizeof *m->slots);
  if (!m->slots)
    return -1;
  for (uint32_t i = 0; i < n; i++) {
    const char *k = key_at(m, i);
    uint32_t s = (uint32_t)xprof_hash64(k, strlen(k)) & m->mask;
    while (m->slots[s])
      s = (s + 1) & m->mask;
    m->slots[s] = i + 1;
  }
  return 0;
}

uint32_t xprof_strmap_get(const xprof_strmap *m, const char *key) {
  uint32_t s = (uint32_t)xprof_hash64(key, strlen(key)) & m->mask;
  while (m->slots[s]) {
    uint32_t i = m->slots[s] - 1;
    if (strcmp(key_at(m, i), key) == 0)
      return i;
    s = (s + 1) & m->mask;
  }
  return UINT32_MAX;
}

void xprof_strmap_free(xprof_strmap *m) {
  xprof_free(m->slots);
  m->slots = NULL;
}
