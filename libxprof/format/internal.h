/*
 * internal.h - helpers shared by the libxprof sources of every layer;
 * not installed.
 */
#ifndef XPROF_INTERNAL_H
#define XPROF_INTERNAL_H

#include <string.h>

#include "xprof.h"

#if defined(__GNUC__)
#define XPROF_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define XPROF_PRINTF(f, a)
#endif

/* ---- arena: many small allocations, freed at once --------------------- */

struct xprof_arena;
struct xprof_arena *xprof_arena_new(void);
void xprof_arena_free(struct xprof_arena *a);
void *xprof_arena_alloc(struct xprof_arena *a, size_t size); /* zeroed */
/* Hand an xprof_malloc'd block to the arena; it is freed with the arena. */
int xprof_arena_adopt(struct xprof_arena *a, void *block);

/* ---- errors ------------------------------------------------------------- */

/* Set err (if non-NULL) and return -1. */
int xprof_fail(xprof_error *err, enum xprof_errc code, const char *fmt, ...)
    XPROF_PRINTF(3, 4);
int xprof_fail_nomem(xprof_error *err, const char *what);
void xprof_clear_error(xprof_error *err);

/* ---- growable arrays owned by xprof_malloc ------------------------------------ */

/* Make room for one more element; returns -1 when out of memory. */
int xprof_grow(void **array, uint32_t *cap, uint32_t n, size_t elem);

/* ---- little-endian access (the binary format is little-endian) --------- */

/* The length of the UTF-8 byte order mark that text edited on Windows
 * may open with (0 when buf has none): skipped by the text readers. */
static inline size_t xprof_bom_len(const void *buf, size_t len) {
  const unsigned char *b = buf;
  return len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0;
}

static inline uint32_t xprof_get32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}
static inline uint64_t xprof_get64(const unsigned char *p) {
  return (uint64_t)xprof_get32(p) | (uint64_t)xprof_get32(p + 4) << 32;
}
static inline void xprof_put32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}
static inline void xprof_put64(unsigned char *p, uint64_t v) {
  xprof_put32(p, (uint32_t)v);
  xprof_put32(p + 4, (uint32_t)(v >> 32));
}
static inline int xprof_host_is_le(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

static inline uint64_t xprof_align8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

/* ---- string -> index map (open addressing, built on demand) ----------- */

typedef struct xprof_strmap {
  uint32_t mask;
  uint32_t *slots; /* index + 1; 0 = empty */
  const char *const *keys; /* keys[i] is the string of index i */
  size_t key_stride;       /* bytes between consecutive key pointers */
} xprof_strmap;

/* Index `n` keys found at base, base + stride, ... (each a const char *). */
int xprof_strmap_init(xprof_strmap *m, const void *base, size_t stride,
                      uint32_t n);
/* Whether two of `n` keys (laid out as for xprof_strmap_init) are equal:
 * 1 with *dup the index of the later one, 0 if none are, -1 when out of
 * memory.  Hashing, not sorting: a profile's names share long prefixes,
 * and validation runs on every read of a profile, in every training run. */
int xprof_find_duplicate(const void *base, size_t stride, uint32_t n,
                         uint32_t *dup);
/* Index of `key`, or UINT32_MAX. */
uint32_t xprof_strmap_get(const xprof_strmap *m, const char *key);
void xprof_strmap_free(xprof_strmap *m);

/* ---- base64 (base64.c) --------------------------------------------------- */

/* n bytes as base64 text, NUL-terminated (xprof_malloc'd), or NULL when
 * out of memory. */
char *xprof_base64(const void *data, size_t n);
/* The bytes of base64 text s[0..n) into *out (xprof_malloc'd, *len
 * bytes): 1, 0 when s is not base64 as xprof_base64 writes it, -1 when
 * out of memory. */
int xprof_unbase64(const char *s, size_t n, unsigned char **out, size_t *len);

/* Comparison of procedures by name, for lookups built on demand. */
int xprof_name_cmp(const void *a, const void *b);


#endif
