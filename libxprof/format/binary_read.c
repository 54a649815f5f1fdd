/*
 * binary_read.c - read xprof binary data: the whole file, or through the
 * index only the records of one object file.
 *
 * Every size read from the file is checked against what the buffer holds
 * before it is used, and every record's checksum is verified, so corrupt
 * or truncated input gives an error naming the offset, never a crash.
 * Counter arrays are used in place: the buffer becomes part of the
 * profile.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binary_format.h"
#include "internal.h"

typedef struct cursor {
  const char *name;
  unsigned char *base; /* payload start */
  uint64_t len;        /* payload length */
  uint64_t pos;        /* position in payload */
  uint64_t file_off;   /* file offset of the payload, for messages */
  xprof_error *err;
  unsigned minor;      /* of the file's version: procedure layouts differ */
} cursor;

static int cfail(cursor *c, const char *fmt, ...) XPROF_PRINTF(2, 3);

static int cfail(cursor *c, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return xprof_fail(c->err, XPROF_ERR_FORMAT, "%s: offset %" PRIu64 ": %s",
                    c->name, c->file_off + c->pos, msg);
}

/* Make sure n more bytes are there. */
static int need(cursor *c, uint64_t n, const char *what) {
  if (n > c->len - c->pos)
    return cfail(c, "%s needs %" PRIu64 " bytes, the record has %" PRIu64
                    " left",
                 what, n, c->len - c->pos);
  return 0;
}

/* A NUL-terminated string of known length, padded to 8. */
static int take_str(cursor *c, uint32_t len, const char *what,
                    const char **out) {
  uint64_t padded = xprof_align8((uint64_t)len + 1);
  if (need(c, padded, what) < 0)
    return -1;
  const char *s = (const char *)c->base + c->pos;
  if (s[len] != '\0' || memchr(s, '\0', len))
    return cfail(c, "%s is not a string of %u bytes", what, len);
  if (len == 0)
    return cfail(c, "%s is empty", what);
  *out = s;
  c->pos += padded;
  return 0;
}

static void take_stats(const unsigned char *p, uint32_t flags,
                       xprof_stats *st) {
  st->has_max = (flags & XB_HAS_MAX) != 0;
  st->has_sum = (flags & XB_HAS_SUM) != 0;
  st->max = st->has_max ? xprof_get64(p) : 0;
  st->sum = st->has_sum ? xprof_get64(p + 8) : 0;
}

static int parse_proc(cursor *c, xprof_profile *p, xprof_objfile *o,
                      xprof_proc *f, const char **strings,
                      uint32_t n_strings) {
  /* 4.8 and later: 32 fixed bytes, then max and sum only when given;
   * before: 48, with room for both. */
  int compact = c->minor >= 8;
  if (need(c, compact ? XB_PROC_FIXED : XB_PROC_FIXED_4_7, "procedure header") < 0)
    return -1;
  unsigned char *h = c->base + c->pos;
  f->signature = xprof_get64(h);
  f->id = xprof_get32(h + 8);
  uint32_t flags = xprof_get32(h + 12);
  if (flags & ~(XB_HAS_MAX | XB_HAS_SUM | XB_SPARSE_IDS))
    return cfail(c, "procedure has unknown flags 0x%x", flags);
  const unsigned char *counts = compact ? h + 16 : h + 32;
  uint32_t name_len = xprof_get32(counts);
  f->n_counters = xprof_get32(counts + 4);
  f->n_vp_sites = xprof_get32(counts + 8);
  f->n_vp_records = xprof_get32(counts + 12);
  if (compact) {
    c->pos += XB_PROC_FIXED;
    uint64_t n_stats = 8 * (uint64_t)(((flags & XB_HAS_MAX) != 0) + ((flags & XB_HAS_SUM) != 0));
    if (need(c, n_stats, "procedure statistics") < 0)
      return -1;
    const unsigned char *st = c->base + c->pos;
    f->stats.has_max = (flags & XB_HAS_MAX) != 0;
    f->stats.has_sum = (flags & XB_HAS_SUM) != 0;
    f->stats.max = f->stats.has_max ? xprof_get64(st) : 0;
    f->stats.sum = f->stats.has_sum ? xprof_get64(st + 8 * f->stats.has_max) : 0;
    c->pos += n_stats;
  } else {
    take_stats(h + 16, flags, &f->stats);
    c->pos += XB_PROC_FIXED_4_7;
  }
  if (take_str(c, name_len, "procedure name", &f->name) < 0)
    return -1;

  if (flags & XB_SPARSE_IDS) {
    uint64_t sz = xprof_align8((uint64_t)f->n_counters * 4);
    if (need(c, sz, "counter id array") < 0)
      return -1;
    f->counter_ids = (uint32_t *)(void *)(c->base + c->pos);
    if (!xprof_host_is_le())
      for (uint32_t k = 0; k < f->n_counters; k++)
        f->counter_ids[k] = xprof_get32(c->base + c->pos + 4 * k);
    for (uint32_t k = 1; k < f->n_counters; k++)
      if (f->counter_ids[k] <= f->counter_ids[k - 1])
        return cfail(c, "procedure %s: counter ids not strictly increasing",
                     f->name);
    c->pos += sz;
  }
  uint64_t csz = (uint64_t)f->n_counters * 8;
  if (need(c, csz, "counter array") < 0)
    return -1;
  f->counters = f->n_counters ? (uint64_t *)(void *)(c->base + c->pos) : NULL;
  if (!xprof_host_is_le())
    for (uint32_t k = 0; k < f->n_counters; k++)
      f->counters[k] = xprof_get64(c->base + c->pos + 8 * k);
  c->pos += csz;

  uint64_t rec = 8 + 16 * (uint64_t)o->n_values_per_vp;
  if (need(c, (uint64_t)f->n_vp_records * rec, "value-profile records") < 0)
    return -1;
  uint32_t n = f->n_vp_records;
  if (xprof_proc_alloc_vp(p, o, f, n) < 0)
    return xprof_fail_nomem(c->err, c->name);
  for (uint32_t r = 0; r < n; r++) {
    const unsigned char *q = c->base + c->pos;
    xprof_vp_record *v = &f->vp[r];
    uint32_t type = xprof_get32(q);
    if (type >= XPROF_VP_NTYPES)
      return cfail(c, "procedure %s: unknown value-profile type %u", f->name,
                   type);
    v->type = (xprof_vp_type)type;
    v->expr_id = xprof_get32(q + 4);
    for (uint32_t k = 0; k < o->n_values_per_vp; k++) {
      xprof_vp_value *x = &v->values[k];
      x->count = xprof_get64(q + 8 + 16 * k);
      uint64_t val = xprof_get64(q + 16 + 16 * k);
      if (v->type == XPROF_VP_PROC) {
        if (val > n_strings)
          return cfail(c, "procedure %s: callee string %" PRIu64
                          " out of range (the table has %u)",
                       f->name, val, n_strings);
        x->proc = val ? strings[val - 1] : NULL;
      } else {
        x->bits = val;
      }
    }
    c->pos += rec;
  }
  return 0;
}

static int parse_objf(cursor *c, xprof_profile *p) {
  if (need(c, XB_OBJF_FIXED, "object file header") < 0)
    return -1;
  unsigned char *h = c->base;
  const char *path;
  uint32_t n_procs = xprof_get32(h + 24);
  uint32_t flags = xprof_get32(h + 28);
  uint32_t path_len = xprof_get32(h + 48);
  uint32_t n_strings = xprof_get32(h + 52);
  c->pos = XB_OBJF_FIXED;
  if (take_str(c, path_len, "object file pathname", &path) < 0)
    return -1;
  xprof_objfile *o = xprof_add_objfile(p, path);
  if (!o)
    return xprof_fail_nomem(c->err, c->name);
  o->signature = xprof_get64(h);
  o->tv_sec = xprof_get64(h + 8);
  o->tv_usec = xprof_get32(h + 16);
  o->n_values_per_vp = xprof_get32(h + 20);
  take_stats(h + 32, flags, &o->stats);
  if (o->tv_usec > 999999)
    return cfail(c, "object file %s: tv_usec %u is not below 1000000", path,
                 o->tv_usec);
  if (o->n_values_per_vp > 4096)
    return cfail(c, "object file %s: n_values_per_vp %u is unreasonably "
                    "large (limit 4096)",
                 path, o->n_values_per_vp);
  if (flags & ~(XB_HAS_MAX | XB_HAS_SUM))
    return cfail(c, "object file %s has unknown flags 0x%x", path, flags);

  /* Strings: each takes at least 5 bytes, which bounds the count. */
  if ((uint64_t)n_strings * 5 > c->len - c->pos)
    return cfail(c, "object file %s: %u strings cannot fit in the record",
                 path, n_strings);
  const char **strings =
      xprof_alloc(p, ((size_t)n_strings + 1) * sizeof *strings);
  if (!strings)
    return xprof_fail_nomem(c->err, c->name);
  uint64_t table = c->pos;
  for (uint32_t i = 0; i < n_strings; i++) {
    if (need(c, 4, "string length") < 0)
      return -1;
    uint32_t n = xprof_get32(c->base + c->pos);
    c->pos += 4;
    if (need(c, (uint64_t)n + 1, "string") < 0)
      return -1;
    const char *s = (const char *)c->base + c->pos;
    if (n == 0 || s[n] != '\0' || memchr(s, '\0', n))
      return cfail(c, "string %u of object file %s is malformed", i + 1, path);
    strings[i] = s;
    c->pos += (uint64_t)n + 1;
  }
  uint64_t pad = xprof_align8(c->pos - table) - (c->pos - table);
  if (need(c, pad, "string table padding") < 0)
    return -1;
  c->pos += pad;

  if ((uint64_t)n_procs * XB_PROC_FIXED > c->len - c->pos)
    return cfail(c, "object file %s: %u procedures cannot fit in the record",
                 path, n_procs);
  if (n_procs) {
    o->procs = xprof_calloc(n_procs, sizeof *o->procs);
    if (!o->procs)
      return xprof_fail_nomem(c->err, c->name);
    o->cap_procs = n_procs;
  }
  for (uint32_t j = 0; j < n_procs; j++) {
    o->n_procs = j + 1;
    if (parse_proc(c, p, o, &o->procs[j], strings, n_strings) < 0)
      return -1;
  }
  if (c->pos != c->len)
    return cfail(c, "object file %s: %" PRIu64 " unexplained bytes at the "
                    "end of its record",
                 path, c->len - c->pos);
  return 0;
}

/* A TIME record: first-run ranks of the procedures of o, the object
 * file whose OBJF record precedes it (ignored unless the signatures
 * agree). */
static int parse_time(cursor *c, xprof_objfile *o) {
  if (need(c, XB_TIME_FIXED, "first-run header") < 0)
    return -1;
  if (xprof_get64(c->base) != o->signature)
    return 0; /* not this object file's */
  uint32_t n = xprof_get32(c->base + 8);
  if (xprof_get32(c->base + 12) != 0)
    return cfail(c, "first-run record of %s has unknown flags", o->path);
  c->pos = XB_TIME_FIXED;
  if (c->len - c->pos != (uint64_t)n * XB_TIME_ENTRY)
    return cfail(c, "first-run record of %s: %u entries do not fill its "
                    "%" PRIu64 " bytes",
                 o->path, n, c->len - c->pos);
  uint32_t prev = 0;
  for (uint32_t i = 0; i < n; i++, c->pos += XB_TIME_ENTRY) {
    const unsigned char *q = c->base + c->pos;
    uint32_t j = xprof_get32(q);
    uint64_t rank = xprof_get64(q + 8);
    if (j >= o->n_procs || (i && j <= prev) || xprof_get32(q + 4) || !rank)
      return cfail(c, "first-run record of %s: entry %u is malformed "
                      "(procedure %u of %u, rank %" PRIu64 ")",
                   o->path, i, j, o->n_procs, rank);
    o->procs[j].first_run = rank;
    prev = j;
  }
  return 0;
}

/* A SHAP record: shapes of the procedures of o, the object file whose
 * OBJF record precedes it (ignored unless the signatures agree).  The
 * shapes stay in the record's buffer, which the profile owns. */
static int parse_shapes(cursor *c, xprof_objfile *o) {
  if (need(c, XB_SHAP_FIXED, "shape header") < 0)
    return -1;
  if (xprof_get64(c->base) != o->signature)
    return 0;
  uint32_t n = xprof_get32(c->base + 8);
  if (xprof_get32(c->base + 12) != 0)
    return cfail(c, "shape record of %s has unknown flags", o->path);
  c->pos = XB_SHAP_FIXED;
  for (uint32_t i = 0, prev = 0; i < n; i++) {
    if (need(c, XB_SHAP_ENTRY, "shape entry") < 0)
      return -1;
    const unsigned char *q = c->base + c->pos;
    uint32_t j = xprof_get32(q), size = xprof_get32(q + 4);
    if (j >= o->n_procs || (i && j <= prev))
      return cfail(c, "shape record of %s: entry %u names procedure %u of %u", o->path, i, j,
                   o->n_procs);
    c->pos += XB_SHAP_ENTRY;
    if (need(c, size, "shape") < 0)
      return -1;
    o->procs[j].shape = c->base + c->pos;
    o->procs[j].shape_size = size;
    c->pos += size;
    if (c->pos % 8 && need(c, 8 - c->pos % 8, "shape padding") < 0)
      return -1;
    c->pos = xprof_align8(c->pos);
    prev = j;
  }
  if (c->pos != c->len)
    return cfail(c, "shape record of %s: %" PRIu64 " unexplained bytes at its end", o->path,
                 c->len - c->pos);
  return 0;
}

/* The RUNS record; *seen says whether there was one before. */
static int parse_runs(cursor *c, xprof_profile *p, int *seen) {
  if (c->len != XB_RUNS_SIZE)
    return cfail(c, "runs record of %" PRIu64 " bytes, not %d", c->len, XB_RUNS_SIZE);
  if ((*seen)++)
    return cfail(c, "second runs record");
  p->runs = xprof_get64(c->base);
  p->run_max_sum = xprof_get64(c->base + 8);
  return 0;
}

/* A SMPL record: one image's samples (checked by xprof_validate). */
static int parse_samples(cursor *c, xprof_profile *p) {
  if (need(c, XB_SMPL_FIXED, "samples header") < 0)
    return -1;
  const unsigned char *h = c->base;
  uint32_t plen = xprof_get32(h + 40), id_len = xprof_get32(h + 44), n = xprof_get32(h + 48);
  if (xprof_get32(h + 52) || id_len > XPROF_IMAGE_ID_MAX)
    return cfail(c, "samples record with a reserved field set or an id of %u bytes", id_len);
  c->pos = XB_SMPL_FIXED;
  const char *path = ""; /* the overflow bin has none */
  if (plen ? take_str(c, plen, "image path", &path) < 0 : need(c, 8, "image path") < 0)
    return -1;
  c->pos += plen ? 0 : 8;
  if (need(c, xprof_align8(id_len), "image id") < 0)
    return -1;
  const unsigned char *id = c->base + c->pos;
  c->pos += xprof_align8(id_len);
  if (c->len - c->pos != (uint64_t)n * XB_SMPL_BIN)
    return cfail(c, "samples record of %s: %u bins do not fill its %" PRIu64 " bytes", path, n,
                 c->len - c->pos);
  uint64_t off = xprof_get64(h);
  if (xprof_find_image(p, path, off))
    return cfail(c, "second samples record of %s at offset 0x%" PRIx64, path, off);
  xprof_image *img = xprof_add_image(p, path, off);
  xprof_sample_bin *bins = xprof_malloc(((size_t)n + 1) * sizeof *bins);
  if (!img || !bins || xprof_image_set_id(p, img, id, id_len) < 0) {
    xprof_free(bins);
    return xprof_fail_nomem(c->err, c->name);
  }
  for (uint32_t i = 0; i < n; i++) {
    bins[i].index = xprof_get64(c->base + c->pos + (uint64_t)i * XB_SMPL_BIN);
    bins[i].count = xprof_get64(c->base + c->pos + (uint64_t)i * XB_SMPL_BIN + 8);
  }
  int rc = xprof_image_set_bins(p, img, bins, n);
  xprof_free(bins);
  if (rc < 0)
    return xprof_fail_nomem(c->err, c->name);
  img->text_size = xprof_get64(h + 8);
  img->time_ns = xprof_get64(h + 24);
  img->bin_width = xprof_get32(h + 32);
  img->flags = xprof_get32(h + 36);
  if (img->samples != xprof_get64(h + 16))
    return cfail(c, "samples record of %s: its bins add up to %" PRIu64 ", its total says %" PRIu64,
                 path, img->samples, xprof_get64(h + 16));
  return 0;
}

static int parse_prog(cursor *c, xprof_profile *p) {
  if (need(c, XB_PROG_FIXED, "program header") < 0)
    return -1;
  unsigned char *h = c->base;
  const char *path;
  uint32_t flags = xprof_get32(h);
  uint32_t path_len = xprof_get32(h + 4);
  uint32_t n = xprof_get32(h + 24);
  c->pos = XB_PROG_FIXED;
  if (take_str(c, path_len, "program pathname", &path) < 0)
    return -1;
  if (flags & ~(XB_HAS_MAX | XB_HAS_SUM))
    return cfail(c, "program %s has unknown flags 0x%x", path, flags);
  if (need(c, (uint64_t)n * 4, "object file references") < 0)
    return -1;
  xprof_program *g = xprof_add_program(p, path);
  if (!g)
    return xprof_fail_nomem(c->err, c->name);
  take_stats(h + 8, flags, &g->stats);
  if (n) {
    g->objrefs = xprof_malloc((size_t)n * sizeof *g->objrefs);
    if (!g->objrefs)
      return xprof_fail_nomem(c->err, c->name);
    g->cap_objrefs = n;
  }
  for (uint32_t j = 0; j < n; j++) {
    uint32_t ord = xprof_get32(c->base + c->pos + 4 * j);
    if (ord >= p->n_objfiles)
      return cfail(c, "program %s refers to object file #%u, but only %u "
                      "precede it",
                   path, ord, p->n_objfiles);
    g->objrefs[g->n_objrefs++] = p->objfiles[ord].path;
  }
  c->pos += (uint64_t)n * 4;
  if (c->len - c->pos >= 8)
    return cfail(c, "program %s: unexplained bytes at the end of its record",
                 path);
  return 0;
}

/* Check the 64-byte file header; `file_len` is the real size. */
static int check_header(const char *name, const unsigned char *h,
                        uint64_t file_len, uint64_t *index_off,
                        uint32_t *n_records, unsigned *minor_out, xprof_error *err) {
  if (file_len < XB_HEADER_SIZE)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: %" PRIu64 " bytes is too short for xprof binary "
                      "data (the header alone is 64)",
                      name, file_len);
  if (memcmp(h, "xprof binary data ", 18) != 0 ||
      xprof_get32(h + 24) != XB_MAGIC) {
    if (xprof_get32(h + 24) == 0x58505246u)
      return xprof_fail(err, XPROF_ERR_FORMAT,
                        "%s: xprof binary data written in the other byte "
                        "order, which this reader does not convert",
                        name);
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset 0: not xprof binary data (wrong magic)",
                      name);
  }
  if (xprof_get32(h + 60) != xprof_crc32c(0, h, 60))
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset 60: file header checksum mismatch (the "
                      "header is corrupt)",
                      name);
  if (xprof_get32(h + 28) != XB_BOM)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset 28: byte-order mark 0x%08x, expected "
                      "0x01020304",
                      name, xprof_get32(h + 28));
  unsigned major = h[32] | h[33] << 8, minor = h[34] | h[35] << 8;
  *minor_out = minor;
  if (major != XPROF_BINARY_MAJOR)
    return xprof_fail(err, XPROF_ERR_VERSION,
                      "%s: binary data version %u.%u is not supported (this "
                      "reader knows %d.%d)",
                      name, major, minor, XPROF_BINARY_MAJOR,
                      XPROF_BINARY_MINOR);
  if (xprof_get32(h + 36) != XB_HEADER_SIZE)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset 36: header size %u, expected 64", name,
                      xprof_get32(h + 36));
  uint64_t size = xprof_get64(h + 40);
  if (size != file_len)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: the file has %" PRIu64 " bytes but its header "
                      "says %" PRIu64 " (%s)",
                      name, file_len, size,
                      file_len < size ? "truncated" : "data appended");
  *index_off = xprof_get64(h + 48);
  *n_records = xprof_get32(h + 56);
  if (*index_off && (*index_off % 8 || *index_off < XB_HEADER_SIZE ||
                     *index_off > file_len - XB_RECORD_HEADER))
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset 48: index offset %" PRIu64 " is outside "
                      "the file",
                      name, *index_off);
  return 0;
}

/* Check a record header at `off`; on success *len is the payload size. */
static int check_record_header(const char *name, const unsigned char *h,
                               uint64_t off, uint64_t file_len, uint32_t *tag,
                               uint32_t *flags, uint64_t *len,
                               uint32_t *crc, xprof_error *err) {
  if (xprof_get32(h + 20) != xprof_crc32c(0, h, 20))
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset %" PRIu64 ": record header checksum "
                      "mismatch (corrupt record header)",
                      name, off);
  *tag = xprof_get32(h);
  *flags = xprof_get32(h + 4);
  *len = xprof_get64(h + 8);
  *crc = xprof_get32(h + 16);
  uint64_t room = file_len - off - XB_RECORD_HEADER;
  if (*len > room || xprof_align8(*len) > room)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset %" PRIu64 ": record of %" PRIu64 " bytes "
                      "runs past the end of the file (%" PRIu64 " left)",
                      name, off, *len, room);
  return 0;
}

static void tag_name(uint32_t tag, char out[5]) {
  for (int i = 0; i < 4; i++) {
    unsigned char ch = (unsigned char)(tag >> (8 * i));
    out[i] = ch >= 0x21 && ch < 0x7f ? (char)ch : '?';
  }
  out[4] = 0;
}

static int parse_records(const char *name, unsigned char *buf, uint64_t len,
                         xprof_profile *p, xprof_error *err) {
  uint64_t index_off;
  uint32_t n_records, seen = 0;
  int saw_index = 0, after_objf = 0, saw_runs = 0;
  unsigned minor;
  if (check_header(name, buf, len, &index_off, &n_records, &minor, err) < 0)
    return -1;
  uint64_t off = XB_HEADER_SIZE;
  while (off < len) {
    uint32_t tag, flags, crc;
    uint64_t plen;
    if (len - off < XB_RECORD_HEADER)
      return xprof_fail(err, XPROF_ERR_FORMAT,
                        "%s: offset %" PRIu64 ": %" PRIu64 " stray bytes "
                        "where a record header was expected",
                        name, off, len - off);
    if (check_record_header(name, buf + off, off, len, &tag, &flags, &plen,
                            &crc, err) < 0)
      return -1;
    unsigned char *payload = buf + off + XB_RECORD_HEADER;
    if (xprof_crc32c(0, payload, plen) != crc) {
      char t[5];
      tag_name(tag, t);
      return xprof_fail(err, XPROF_ERR_FORMAT,
                        "%s: offset %" PRIu64 ": %s record checksum "
                        "mismatch (the data is corrupt)",
                        name, off, t);
    }
    for (uint64_t k = plen; k < xprof_align8(plen); k++)
      if (payload[k] != 0)
        return xprof_fail(err, XPROF_ERR_FORMAT,
                          "%s: offset %" PRIu64 ": nonzero padding after a "
                          "record (the data is corrupt)",
                          name, off + XB_RECORD_HEADER + k);
    if (saw_index)
      return xprof_fail(err, XPROF_ERR_FORMAT,
                        "%s: offset %" PRIu64 ": record after the index, "
                        "which must be last",
                        name, off);
    cursor c = {name, payload, plen, 0, off + XB_RECORD_HEADER, err, minor};
    if (tag == XB_TAG_OBJF) {
      if (parse_objf(&c, p) < 0)
        return -1;
    } else if (tag == XB_TAG_TIME) {
      if (after_objf && parse_time(&c, &p->objfiles[p->n_objfiles - 1]) < 0)
        return -1;
    } else if (tag == XB_TAG_SHAP) {
      if (after_objf && parse_shapes(&c, &p->objfiles[p->n_objfiles - 1]) < 0)
        return -1;
    } else if (tag == XB_TAG_PROG) {
      if (parse_prog(&c, p) < 0)
        return -1;
    } else if (tag == XB_TAG_SMPL) {
      if (parse_samples(&c, p) < 0)
        return -1;
    } else if (tag == XB_TAG_RUNS) {
      if (parse_runs(&c, p, &saw_runs) < 0)
        return -1;
    } else if (tag == XB_TAG_INDX) {
      if (off != index_off)
        return xprof_fail(err, XPROF_ERR_FORMAT,
                          "%s: offset %" PRIu64 ": index record where the "
                          "header says %" PRIu64,
                          name, off, index_off);
      saw_index = 1;
    } else if (flags & XB_FLAG_CRITICAL) {
      char t[5];
      tag_name(tag, t);
      return xprof_fail(err, XPROF_ERR_VERSION,
                        "%s: offset %" PRIu64 ": record kind '%s' is "
                        "required to read this file but unknown to this "
                        "reader",
                        name, off, t);
    } else {
      if (xprof_grow((void **)&p->foreign, &p->cap_foreign, p->n_foreign,
                     sizeof *p->foreign) < 0)
        return xprof_fail_nomem(err, name);
      xprof_foreign *f = &p->foreign[p->n_foreign++];
      f->tag = tag;
      f->flags = flags;
      f->size = plen;
      f->data = payload;
    }
    /* TIME and SHAP records belong to the OBJF record before them. */
    after_objf = tag == XB_TAG_OBJF || (after_objf && tag == XB_TAG_TIME);
    seen++;
    off += XB_RECORD_HEADER + xprof_align8(plen);
  }
  if (seen != n_records)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: the header announces %u record%s, the file holds "
                      "%u",
                      name, n_records, xprof_plural(n_records), seen);
  if (index_off && !saw_index)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: the header points to an index at offset %" PRIu64
                      " that is not there",
                      name, index_off);
  return xprof_validate(p, name, err);
}

int xprof_binary_parse(const char *name, unsigned char *buf, size_t len,
                       xprof_profile **out, xprof_error *err) {
  xprof_profile *p = xprof_profile_new();
  if (!p || xprof_arena_adopt(p->arena, buf) < 0) {
    xprof_free(buf);
    xprof_profile_free(p);
    return xprof_fail_nomem(err, name);
  }
  if (((uintptr_t)buf & 7) != 0) { /* malloc never does this */
    xprof_profile_free(p);
    return xprof_fail(err, XPROF_ERR_INVALID, "%s: buffer not 8-aligned",
                      name);
  }
  if (parse_records(name, buf, len, p, err) < 0) {
    xprof_profile_free(p);
    return -1;
  }
  *out = p;
  return 0;
}

int xprof_binary_read_file(const char *path, xprof_profile **out,
                           xprof_error *err) {
  unsigned char *buf;
  size_t len;
  if (xprof_slurp(path, &buf, &len, err) < 0)
    return -1;
  return xprof_binary_parse(path, buf, len, out, err);
}

/* ---- lookup through the index -------------------------------------------- */

static int pread_all(int fd, void *buf, size_t n, uint64_t off,
                     const char *name, xprof_error *err) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return xprof_fail(err, r < 0 ? XPROF_ERR_IO : XPROF_ERR_FORMAT,
                        "%s: offset %" PRIu64 ": %s", name, off + got,
                        r < 0 ? strerror(errno) : "unexpected end of file");
    got += (size_t)r;
  }
  return 0;
}

/* The TIME and SHAP records at `off`, if they are there, into p's one
 * object file, whose OBJF record ends at `off`.  Returns 0 (also when
 * there are none), -1 on error. */
static int read_attached(int fd, const char *name, uint64_t off, uint64_t file_len,
                         xprof_profile *p, xprof_error *err) {
  for (int i = 0; i < 2; i++) {
    unsigned char h[XB_RECORD_HEADER];
    uint32_t tag, flags, crc;
    uint64_t len;
    if (file_len < XB_RECORD_HEADER || off > file_len - XB_RECORD_HEADER)
      return 0;
    if (pread_all(fd, h, sizeof h, off, name, err) < 0)
      return -1;
    tag = xprof_get32(h);
    if (!(tag == XB_TAG_SHAP || (i == 0 && tag == XB_TAG_TIME)))
      return 0;
    if (check_record_header(name, h, off, file_len, &tag, &flags, &len, &crc, err) < 0)
      return -1;
    unsigned char *buf = xprof_malloc(len ? len : 1);
    if (!buf || xprof_arena_adopt(p->arena, buf) < 0) {
      xprof_free(buf);
      return xprof_fail_nomem(err, name);
    }
    if (pread_all(fd, buf, len, off + XB_RECORD_HEADER, name, err) < 0)
      return -1;
    if (xprof_crc32c(0, buf, len) != crc) {
      char t[5];
      tag_name(tag, t);
      return xprof_fail(err, XPROF_ERR_FORMAT,
                        "%s: offset %" PRIu64 ": %s record checksum mismatch "
                        "(the data is corrupt)",
                        name, off, t);
    }
    cursor c = {name, buf, len, 0, off + XB_RECORD_HEADER, err, 0};
    int rc = tag == XB_TAG_TIME ? parse_time(&c, &p->objfiles[0])
                                : parse_shapes(&c, &p->objfiles[0]);
    if (rc < 0)
      return -1;
    off += XB_RECORD_HEADER + xprof_align8(len);
  }
  return 0;
}

/* Read and parse the OBJF record at `off` into a fresh profile. */
static int read_objf_at(int fd, const char *name, uint64_t off,
                        uint64_t file_len, unsigned minor, xprof_profile **out,
                        xprof_error *err) {
  unsigned char h[XB_RECORD_HEADER];
  uint32_t tag, flags, crc;
  uint64_t len;
  if (off % 8 || off < XB_HEADER_SIZE || off > file_len - XB_RECORD_HEADER)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: index entry points outside the file (offset "
                      "%" PRIu64 ")",
                      name, off);
  if (pread_all(fd, h, sizeof h, off, name, err) < 0 ||
      check_record_header(name, h, off, file_len, &tag, &flags, &len, &crc,
                          err) < 0)
    return -1;
  if (tag != XB_TAG_OBJF)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset %" PRIu64 ": index entry does not point to "
                      "an object file record",
                      name, off);
  unsigned char *buf = xprof_malloc(len ? len : 1);
  if (!buf)
    return xprof_fail_nomem(err, name);
  if (pread_all(fd, buf, len, off + XB_RECORD_HEADER, name, err) < 0) {
    xprof_free(buf);
    return -1;
  }
  if (xprof_crc32c(0, buf, len) != crc) {
    xprof_free(buf);
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset %" PRIu64 ": OBJF record checksum mismatch "
                      "(the data is corrupt)",
                      name, off);
  }
  xprof_profile *p = xprof_profile_new();
  if (!p || xprof_arena_adopt(p->arena, buf) < 0) {
    xprof_free(buf);
    xprof_profile_free(p);
    return xprof_fail_nomem(err, name);
  }
  cursor c = {name, buf, len, 0, off + XB_RECORD_HEADER, err, minor};
  if (parse_objf(&c, p) < 0 ||
      read_attached(fd, name, off + XB_RECORD_HEADER + xprof_align8(len), file_len, p,
                    err) < 0 ||
      xprof_validate(p, name, err) < 0) {
    xprof_profile_free(p);
    return -1;
  }
  *out = p;
  return 0;
}

/* The RUNS record directly before the index, where writers put it, into
 * p; a file without one (older data), or with anything else there, leaves
 * p's runs unknown. */
static void runs_before_index(int fd, uint64_t index_off, xprof_profile *p) {
  unsigned char r[XB_RECORD_HEADER + XB_RUNS_SIZE];
  uint64_t at = index_off - sizeof r;
  if (index_off < XB_HEADER_SIZE + sizeof r ||
      pread(fd, r, sizeof r, (off_t)at) != (ssize_t)sizeof r)
    return;
  const unsigned char *body = r + XB_RECORD_HEADER;
  if (xprof_get32(r) != XB_TAG_RUNS || xprof_get64(r + 8) != XB_RUNS_SIZE ||
      xprof_get32(r + 20) != xprof_crc32c(0, r, 20) ||
      xprof_get32(r + 16) != xprof_crc32c(0, body, XB_RUNS_SIZE))
    return;
  p->runs = xprof_get64(body);
  p->run_max_sum = xprof_get64(body + 8);
}

/* xprof_binary_lookup for a file without an index (older writers): read
 * it whole, and hand the caller all of it if objpath is in it. */
static int lookup_whole(const char *path, const char *objpath, xprof_profile **out,
                        xprof_error *err) {
  xprof_profile *all;
  if (xprof_binary_read_file(path, &all, err) < 0)
    return -1;
  if (!xprof_find_objfile(all, objpath)) {
    xprof_profile_free(all);
    return xprof_fail(err, XPROF_ERR_NOTFOUND, "%s: no data for object file %s", path, objpath);
  }
  *out = all; /* the caller finds its object file by name */
  return 0;
}

/* The fixed part of the index record at index_off: its number of slots
 * (*n_slots, a power of two) and the whole profile's summary (*sum).
 * 0, or -1 (err set) when it is not a well-formed index. */
static int read_index_head(int fd, const char *path, uint64_t index_off, uint64_t file_len,
                           uint64_t *n_slots, xprof_summary *sum, xprof_error *err) {
  unsigned char rh[XB_RECORD_HEADER + XB_INDX_FIXED];
  uint32_t tag, flags, crc;
  uint64_t len;
  if (pread_all(fd, rh, sizeof rh, index_off, path, err) < 0 ||
      check_record_header(path, rh, index_off, file_len, &tag, &flags, &len, &crc, err) < 0)
    return -1;
  const unsigned char *ix = rh + XB_RECORD_HEADER;
  *n_slots = xprof_get64(ix);
  memset(sum, 0, sizeof *sum);
  sum->total_max = xprof_get64(ix + 8);
  sum->total_sum = xprof_get64(ix + 16);
  sum->n_counts = xprof_get64(ix + 24);
  sum->n_procs = xprof_get64(ix + 32);
  for (unsigned k = 0; k < XPROF_SUMMARY_CUTOFFS; k++) {
    sum->entry[k].cutoff = xprof_get32(ix + XB_INDX_SUMMARY + 24 * k);
    sum->entry[k].min_count = xprof_get64(ix + XB_INDX_SUMMARY + 24 * k + 8);
    sum->entry[k].num_counts = xprof_get64(ix + XB_INDX_SUMMARY + 24 * k + 16);
  }
  uint64_t n = *n_slots;
  if (tag != XB_TAG_INDX || len < XB_INDX_FIXED || n == 0 || (n & (n - 1)) ||
      n > (len - XB_INDX_FIXED) / 16 || len != XB_INDX_FIXED + 16 * n)
    return xprof_fail(err, XPROF_ERR_FORMAT, "%s: offset %" PRIu64 ": malformed index record",
                      path, index_off);
  return 0;
}

/* objpath's record found through the index at index_off (n_slots open-
 * addressed slots of hash and offset), read with the runs and the
 * summary sum.  0 with *out set, or -1 (err set; NOTFOUND when the
 * index has no such object file). */
static int probe_index(int fd, const char *path, const char *objpath, uint64_t index_off,
                       uint64_t n_slots, uint64_t file_len, unsigned minor, xprof_summary sum,
                       xprof_profile **out, xprof_error *err) {
  uint64_t hash = xprof_hash64(objpath, strlen(objpath));
  uint64_t slot = hash & (n_slots - 1);
  for (uint64_t probes = 0; probes < n_slots; probes++, slot = (slot + 1) & (n_slots - 1)) {
    unsigned char s[16];
    if (pread_all(fd, s, sizeof s, index_off + XB_RECORD_HEADER + XB_INDX_FIXED + 16 * slot,
                  path, err) < 0)
      return -1;
    uint64_t off = xprof_get64(s + 8);
    if (off == 0)
      break;
    if (xprof_get64(s) != hash)
      continue;
    xprof_profile *p = NULL;
    if (read_objf_at(fd, path, off, file_len, minor, &p, err) < 0)
      return -1;
    if (strcmp(p->objfiles[0].path, objpath) != 0) {
      xprof_profile_free(p); /* a hash collision */
      continue;
    }
    runs_before_index(fd, index_off, p);
    sum.runs = p->runs;
    sum.run_max_sum = p->run_max_sum;
    p->summary = xprof_alloc(p, sizeof *p->summary);
    if (p->summary)
      *p->summary = sum;
    *out = p;
    return 0;
  }
  return xprof_fail(err, XPROF_ERR_NOTFOUND, "%s: no data for object file %s", path, objpath);
}

int xprof_binary_lookup(const char *path, const char *objpath,
                        xprof_profile **out, xprof_error *err) {
  int fd = xprof_open(path, O_RDONLY, 0);
  if (fd < 0)
    return xprof_fail(err, XPROF_ERR_IO, "%s: cannot open: %s", path,
                      strerror(errno));
  int rc = -1;
  struct stat st;
  unsigned char h[XB_HEADER_SIZE];
  uint64_t index_off, n_slots;
  uint32_t n_records;
  unsigned minor = 0;
  xprof_summary sum;
  if (fstat(fd, &st) < 0) {
    xprof_fail(err, XPROF_ERR_IO, "%s: %s", path, strerror(errno));
    goto out;
  }
  uint64_t file_len = (uint64_t)st.st_size;
  if (file_len < XB_HEADER_SIZE) {
    check_header(path, h, file_len, &index_off, &n_records, &minor, err);
    goto out;
  }
  if (pread_all(fd, h, sizeof h, 0, path, err) < 0 ||
      check_header(path, h, file_len, &index_off, &n_records, &minor, err) < 0)
    goto out;
  if (index_off == 0) { /* no index: fall back to a full read */
    close(fd);
    return lookup_whole(path, objpath, out, err);
  }
  if (read_index_head(fd, path, index_off, file_len, &n_slots, &sum, err) == 0)
    rc = probe_index(fd, path, objpath, index_off, n_slots, file_len, minor, sum, out, err);
out:
  close(fd);
  return rc;
}
