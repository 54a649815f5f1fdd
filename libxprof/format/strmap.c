/*
 * strmap.c - a read-only map from strings to array indexes, for merges
 * and lookups over hundreds of thousands of names.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The slot hash: eight bytes a step.  Only this map sees it, so it may
 * differ from xprof_hash64, whose values the file formats keep (FNV-1a,
 * a byte a step, cannot be made faster without changing them); the map
 * hashes every name of a profile at the exit of every training run. */
static uint32_t slot_hash(const char *s) {
  size_t n = strlen(s);
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;
  for (; n >= 8; s += 8, n -= 8) {
    memcpy(&w, s, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  w = 0;
  memcpy(&w, s, n);
  h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
  return (uint32_t)(h ^ (h >> 29));
}

static const char *key_at(const xprof_strmap *m, uint32_t i) {
  return *(const char *const *)((const char *)m->keys + (size_t)i * m->key_stride);
}

/* Put key i in its slot.  With check, a key already there that is
 * equal to it is not doubled: its index is returned; else UINT32_MAX. */
static uint32_t insert(xprof_strmap *m, uint32_t i, int check) {
  const char *k = key_at(m, i);
  uint32_t s = slot_hash(k) & m->mask;
  for (; m->slots[s]; s = (s + 1) & m->mask)
    if (check && strcmp(key_at(m, m->slots[s] - 1), k) == 0)
      return m->slots[s] - 1;
  m->slots[s] = i + 1;
  return UINT32_MAX;
}

static int open_map(xprof_strmap *m, const void *base, size_t stride, uint32_t n) {
  uint32_t size = 16;
  while (size < 2 * (uint64_t)n && size < (1u << 31))
    size *= 2;
  m->mask = size - 1;
  m->keys = base;
  m->key_stride = stride;
  m->slots = xprof_calloc(size, sizeof *m->slots);
  return m->slots ? 0 : -1;
}

int xprof_strmap_init(xprof_strmap *m, const void *base, size_t stride,
                      uint32_t n) {
  if (open_map(m, base, stride, n) < 0)
    return -1;
  for (uint32_t i = 0; i < n; i++)
    insert(m, i, 0);
  return 0;
}

int xprof_find_duplicate(const void *base, size_t stride, uint32_t n,
                         uint32_t *dup) {
  xprof_strmap m;
  if (n < 2)
    return 0;
  if (open_map(&m, base, stride, n) < 0)
    return -1;
  int found = 0;
  for (uint32_t i = 0; i < n && !found; i++)
    if (insert(&m, i, 1) != UINT32_MAX) {
      *dup = i;
      found = 1;
    }
  xprof_strmap_free(&m);
  return found;
}

uint32_t xprof_strmap_get(const xprof_strmap *m, const char *key) {
  uint32_t s = slot_hash(key) & m->mask;
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
