/*
 * dwarf_rd.h - reading DWARF's encodings out of a section, bounds-checked:
 * a read past the end of the unit sets `failed` and yields 0 (or ""), so
 * that a reader checks once after a record instead of after each field.
 * Shared by the line table reader (dwarf_line.c) and the debugging
 * information reader (dwarf_info.c).
 */
#ifndef XPROF_DWARF_RD_H
#define XPROF_DWARF_RD_H

#include <stdint.h>
#include <string.h>

typedef struct rd {
  const unsigned char *p;
  uint64_t pos, end; /* end of the current unit */
  int failed;
} rd;

static inline uint64_t u8(rd *r) {
  if (r->pos + 1 > r->end) {
    r->failed = 1;
    return 0;
  }
  return r->p[r->pos++];
}

static inline uint64_t un(rd *r, unsigned n) {
  uint64_t v = 0;
  if (r->pos + n > r->end) {
    r->failed = 1;
    r->pos = r->end;
    return 0;
  }
  for (unsigned i = 0; i < n; i++)
    v |= (uint64_t)r->p[r->pos + i] << (8 * i);
  r->pos += n;
  return v;
}

static inline uint64_t uleb(rd *r) {
  uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    uint64_t b = u8(r);
    if (r->failed)
      return 0;
    if (shift < 64)
      v |= (b & 0x7f) << shift;
    if (!(b & 0x80))
      return v;
  }
}

static inline int64_t sleb(rd *r) {
  uint64_t v = 0, b = 0;
  unsigned shift = 0;
  do {
    b = u8(r);
    if (r->failed)
      return 0;
    if (shift < 64)
      v |= (b & 0x7f) << shift;
    shift += 7;
  } while (b & 0x80);
  if (shift < 64 && (b & 0x40))
    v |= ~0ull << shift;
  return (int64_t)v;
}

static inline const char *cstr(rd *r) {
  const char *s = (const char *)r->p + r->pos;
  const unsigned char *nul = r->pos < r->end ? memchr(s, 0, r->end - r->pos) : NULL;
  if (!nul) {
    r->failed = 1;
    return "";
  }
  r->pos = (uint64_t)(nul - r->p) + 1;
  return s;
}

#endif
