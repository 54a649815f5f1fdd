/*
 * gmon.c - GNU gprof's data file (gmon.out), written and read back.
 *
 * The file is a 20-byte header ("gmon", version 1, 12 spare bytes) and
 * records, each starting with a tag byte: 0 a histogram (low and high
 * address, number of bins, samples per second, a 15-byte dimension and
 * its 1-byte abbreviation, then 16-bit bins), 1 a call arc (caller
 * address, callee address, 32-bit count), 2 basic-block counts (their
 * number, then address and count pairs).  Addresses and basic-block
 * counts are 64-bit here, in the host's (little-endian) byte order, as
 * gprof reads a 64-bit program's file.
 *
 * gprof adds up records of a kind: histograms over the same range bin by
 * bin, arcs between the same addresses, blocks at the same address.  So
 * a bin past 65535 or an arc past 2^32-1 is written as several records
 * that add up to it, never wrapped.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "internal.h"
#include "xprof_views.h"

#define GMON_HEADER 20
#define TAG_HIST 0
#define TAG_ARC 1
#define TAG_BB 2
#define HIST_FIXED (8 + 8 + 4 + 4 + 15 + 1)

typedef struct buf {
  unsigned char *p;
  size_t len, cap;
  int failed;
} buf;

static void put(buf *b, const void *data, size_t n) {
  if (b->failed)
    return;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n)
      cap *= 2;
    unsigned char *q = xprof_realloc(b->p, cap);
    if (!q) {
      b->failed = 1;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->len, data, n);
  b->len += n;
}

static void put8(buf *b, unsigned v) {
  unsigned char c = (unsigned char)v;
  put(b, &c, 1);
}

static void put32(buf *b, uint32_t v) {
  unsigned char q[4];
  xprof_put32(q, v);
  put(b, q, 4);
}

static void put64(buf *b, uint64_t v) {
  unsigned char q[8];
  xprof_put64(q, v);
  put(b, q, 8);
}

/* As many histogram records as the largest bin needs. */
static void put_hist(buf *b, const xprof_gmon *g) {
  uint64_t most = 0;
  for (uint32_t i = 0; i < g->n_hist; i++)
    if (g->hist[i] > most)
      most = g->hist[i];
  uint64_t records = most ? (most + 65534) / 65535 : 1;
  for (uint64_t r = 0; r < records; r++) {
    put8(b, TAG_HIST);
    put64(b, g->hist_low);
    put64(b, g->hist_high);
    put32(b, g->n_hist);
    put32(b, g->prof_rate);
    char dimen[15] = {0};
    memcpy(dimen, g->dimen, strnlen(g->dimen, sizeof dimen));
    put(b, dimen, sizeof dimen);
    put8(b, (unsigned char)g->dimen_abbrev);
    for (uint32_t i = 0; i < g->n_hist; i++) {
      uint64_t left = g->hist[i] > r * 65535 ? g->hist[i] - r * 65535 : 0;
      unsigned char q[2] = {0, 0};
      uint16_t v = (uint16_t)(left > 65535 ? 65535 : left);
      q[0] = (unsigned char)v;
      q[1] = (unsigned char)(v >> 8);
      put(b, q, 2);
    }
  }
}

int xprof_gmon_serialize(const xprof_gmon *g, unsigned char **out, size_t *len, xprof_error *err) {
  buf b = {0};
  put(&b, "gmon", 4);
  put32(&b, 1);
  put(&b, "\0\0\0\0\0\0\0\0\0\0\0\0", 12);
  if (g->n_hist)
    put_hist(&b, g);
  for (uint32_t i = 0; i < g->n_arcs; i++) {
    uint64_t left = g->arcs[i].count;
    do { /* an arc of no calls too: it is in the file */
      uint32_t c = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
      put8(&b, TAG_ARC);
      put64(&b, g->arcs[i].from);
      put64(&b, g->arcs[i].self);
      put32(&b, c);
      left -= c;
    } while (left);
  }
  if (g->n_bbs) {
    put8(&b, TAG_BB);
    put32(&b, g->n_bbs);
    for (uint32_t i = 0; i < g->n_bbs; i++) {
      put64(&b, g->bbs[i].addr);
      put64(&b, g->bbs[i].count);
    }
  }
  if (b.failed) {
    xprof_free(b.p);
    return xprof_fail_nomem(err, "gmon.out");
  }
  *out = b.p;
  *len = b.len;
  return 0;
}

/* ---- reading ----------------------------------------------------------- */

typedef struct cur {
  const char *name;
  const unsigned char *p;
  size_t len, pos;
  xprof_error *err;
} cur;

static int need(cur *c, size_t n, const char *what) {
  if (c->len - c->pos >= n)
    return 0;
  return xprof_fail(c->err, XPROF_ERR_FORMAT,
                    "%s: offset %zu: the file ends inside %s (%zu bytes needed, %zu left)",
                    c->name, c->pos, what, n, c->len - c->pos);
}

static int read_hist(cur *c, xprof_gmon *g) {
  if (need(c, HIST_FIXED, "a histogram header") < 0)
    return -1;
  const unsigned char *h = c->p + c->pos;
  uint64_t low = xprof_get64(h), high = xprof_get64(h + 8);
  uint32_t n = xprof_get32(h + 16), rate = xprof_get32(h + 20);
  if (high < low || !n)
    return xprof_fail(c->err, XPROF_ERR_FORMAT,
                      "%s: offset %zu: a histogram from 0x%" PRIx64 " to 0x%" PRIx64
                      " in %u bins",
                      c->name, c->pos, low, high, n);
  if (g->n_hist && (low != g->hist_low || high != g->hist_high || n != g->n_hist))
    return xprof_fail(c->err, XPROF_ERR_FORMAT,
                      "%s: offset %zu: a second histogram over another range (only one "
                      "range is read)",
                      c->name, c->pos);
  size_t start = c->pos;
  c->pos += HIST_FIXED;
  if (need(c, (size_t)n * 2, "histogram bins") < 0)
    return -1;
  if (!g->n_hist) {
    g->hist = xprof_calloc(n, sizeof *g->hist);
    if (!g->hist)
      return xprof_fail_nomem(c->err, c->name);
    g->hist_low = low;
    g->hist_high = high;
    g->n_hist = n;
    g->prof_rate = rate;
    memcpy(g->dimen, h + 24, 15);
    g->dimen[15] = 0;
    g->dimen_abbrev = (char)h[39];
  } else if (rate != g->prof_rate) {
    return xprof_fail(c->err, XPROF_ERR_FORMAT,
                      "%s: offset %zu: histograms of different sampling rates", c->name, start);
  }
  for (uint32_t i = 0; i < n; i++)
    g->hist[i] += (uint64_t)c->p[c->pos + 2 * i] | (uint64_t)c->p[c->pos + 2 * i + 1] << 8;
  c->pos += (size_t)n * 2;
  return 0;
}

static int read_arc(cur *c, xprof_gmon *g) {
  if (need(c, 20, "a call arc") < 0)
    return -1;
  const unsigned char *a = c->p + c->pos;
  uint64_t from = xprof_get64(a), self = xprof_get64(a + 8), n = xprof_get32(a + 16);
  c->pos += 20;
  for (uint32_t i = 0; i < g->n_arcs; i++)
    if (g->arcs[i].from == from && g->arcs[i].self == self) {
      g->arcs[i].count += n;
      return 0;
    }
  if (xprof_grow((void **)&g->arcs, &g->cap_arcs, g->n_arcs, sizeof *g->arcs) < 0)
    return xprof_fail_nomem(c->err, c->name);
  g->arcs[g->n_arcs++] = (xprof_gmon_arc){from, self, n};
  return 0;
}

static int read_bbs(cur *c, xprof_gmon *g) {
  if (need(c, 4, "a basic-block record") < 0)
    return -1;
  uint32_t n = xprof_get32(c->p + c->pos);
  c->pos += 4;
  if (need(c, (size_t)n * 16, "basic-block counts") < 0)
    return -1;
  for (uint32_t i = 0; i < n; i++, c->pos += 16) {
    if (xprof_grow((void **)&g->bbs, &g->cap_bbs, g->n_bbs, sizeof *g->bbs) < 0)
      return xprof_fail_nomem(c->err, c->name);
    g->bbs[g->n_bbs++] =
        (xprof_gmon_bb){xprof_get64(c->p + c->pos), xprof_get64(c->p + c->pos + 8)};
  }
  return 0;
}

int xprof_gmon_parse(const char *name, const unsigned char *p, size_t len, xprof_gmon *g,
                     xprof_error *err) {
  memset(g, 0, sizeof *g);
  cur c = {name, p, len, 0, err};
  if (len < GMON_HEADER || memcmp(p, "gmon", 4) != 0)
    return xprof_fail(err, XPROF_ERR_FORMAT, "%s: not a gmon.out file (no \"gmon\" header)",
                      name);
  if (xprof_get32(p + 4) != 1)
    return xprof_fail(err, XPROF_ERR_VERSION, "%s: gmon.out version %u, this reader knows 1",
                      name, xprof_get32(p + 4));
  c.pos = GMON_HEADER;
  int rc = 0;
  while (rc == 0 && c.pos < len) {
    unsigned tag = p[c.pos++];
    if (tag == TAG_HIST)
      rc = read_hist(&c, g);
    else if (tag == TAG_ARC)
      rc = read_arc(&c, g);
    else if (tag == TAG_BB)
      rc = read_bbs(&c, g);
    else
      rc = xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset %zu: record tag %u (expected 0, 1 or 2)", name, c.pos - 1,
                      tag);
  }
  if (rc < 0)
    xprof_gmon_free(g);
  return rc;
}

void xprof_gmon_free(xprof_gmon *g) {
  xprof_free(g->hist);
  xprof_free(g->arcs);
  xprof_free(g->bbs);
  memset(g, 0, sizeof *g);
}
