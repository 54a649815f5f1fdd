/*
 * binary_write.c - serialize a profile as xprof binary data.
 *
 * Each record is laid out in a scratch buffer (one object file at a time,
 * so memory stays bounded by the largest object file), checksummed, and
 * sent through a buffered sink; the file header, which needs the final
 * size and index position, is patched in at the end.  Output depends only
 * on the profile, so equal profiles give byte-identical files.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "binary_format.h"
#include "internal.h"

typedef struct sink {
  int fd;              /* -1: memory */
  off_t start;         /* fd position of the file header */
  unsigned char *mem;  /* memory output */
  size_t mem_cap;
  unsigned char buf[1 << 16]; /* fd output buffer */
  size_t n;
  uint64_t off;        /* bytes emitted so far */
  const char *name;
  xprof_error *err;
  int failed;
  int no_shapes; /* leave the SHAP records out (a profile directory's counts) */
} sink;

static int sink_flush(sink *s) {
  if (s->fd >= 0 && s->n && !s->failed) {
    if (xprof_write_all(s->fd, s->buf, s->n, s->name, s->err) < 0)
      s->failed = 1;
  }
  s->n = 0;
  return s->failed ? -1 : 0;
}

static int sink_put(sink *s, const void *data, size_t len) {
  if (s->failed)
    return -1;
  if (s->fd < 0) {
    if (s->off + len > s->mem_cap) {
      size_t nc = s->mem_cap ? s->mem_cap : 4096;
      while (nc < s->off + len)
        nc *= 2;
      unsigned char *nm = xprof_realloc(s->mem, nc);
      if (!nm) {
        s->failed = 1;
        return xprof_fail_nomem(s->err, s->name);
      }
      s->mem = nm;
      s->mem_cap = nc;
    }
    memcpy(s->mem + s->off, data, len);
  } else if (len >= sizeof s->buf) {
    if (sink_flush(s) < 0 ||
        xprof_write_all(s->fd, data, len, s->name, s->err) < 0) {
      s->failed = 1;
      return -1;
    }
  } else {
    if (s->n + len > sizeof s->buf && sink_flush(s) < 0)
      return -1;
    memcpy(s->buf + s->n, data, len);
    s->n += len;
  }
  s->off += len;
  return 0;
}

static int emit_record(sink *s, uint32_t tag, uint32_t flags,
                       const unsigned char *payload, uint64_t len) {
  static const unsigned char zeros[8];
  unsigned char h[XB_RECORD_HEADER];
  xprof_put32(h, tag);
  xprof_put32(h + 4, flags);
  xprof_put64(h + 8, len);
  xprof_put32(h + 16, xprof_crc32c(0, payload, len));
  xprof_put32(h + 20, xprof_crc32c(0, h, 20));
  if (sink_put(s, h, sizeof h) < 0 || sink_put(s, payload, len) < 0)
    return -1;
  return sink_put(s, zeros, xprof_align8(len) - len);
}

static uint32_t stat_flags(const xprof_stats *st) {
  return (st->has_max ? XB_HAS_MAX : 0) | (st->has_sum ? XB_HAS_SUM : 0);
}

static uint64_t str_size(size_t len) { return xprof_align8(len + 1); }

static uint64_t stats_size(const xprof_stats *st) { return 8 * (uint64_t)(st->has_max + st->has_sum); }

static uint64_t proc_size(const xprof_objfile *o, const xprof_proc *f) {
  uint64_t n = XB_PROC_FIXED + stats_size(&f->stats) + str_size(strlen(f->name));
  if (f->counter_ids)
    n += xprof_align8((uint64_t)f->n_counters * 4);
  n += (uint64_t)f->n_counters * 8;
  n += (uint64_t)f->n_vp_records * (8 + 16 * (uint64_t)o->n_values_per_vp);
  return n;
}

static uint64_t objf_size(const xprof_objfile *o, uint32_t *n_strings) {
  uint64_t n = XB_OBJF_FIXED + str_size(strlen(o->path)), strs = 0;
  uint32_t count = 0;
  for (uint32_t j = 0; j < o->n_procs; j++) {
    const xprof_proc *f = &o->procs[j];
    n += proc_size(o, f);
    for (uint32_t r = 0; r < f->n_vp_records; r++)
      for (uint32_t k = 0; k < o->n_values_per_vp; k++)
        if (f->vp[r].values[k].proc) {
          strs += 4 + strlen(f->vp[r].values[k].proc) + 1;
          count++;
        }
  }
  *n_strings = count;
  return n + xprof_align8(strs);
}

/* Copy a string with its NUL; returns the padded size. */
static uint64_t put_str(unsigned char *p, const char *s, size_t len) {
  memcpy(p, s, len);
  p[len] = 0;
  uint64_t padded = str_size(len);
  memset(p + len + 1, 0, padded - len - 1);
  return padded;
}

static void fill_stats(unsigned char *p, const xprof_stats *st) {
  xprof_put64(p, st->has_max ? st->max : 0);
  xprof_put64(p + 8, st->has_sum ? st->sum : 0);
}

static void fill_objf(const xprof_objfile *o, uint32_t n_strings,
                      unsigned char *b) {
  size_t plen = strlen(o->path);
  xprof_put64(b, o->signature);
  xprof_put64(b + 8, o->tv_sec);
  xprof_put32(b + 16, o->tv_usec);
  xprof_put32(b + 20, o->n_values_per_vp);
  xprof_put32(b + 24, o->n_procs);
  xprof_put32(b + 28, stat_flags(&o->stats));
  fill_stats(b + 32, &o->stats);
  xprof_put32(b + 48, (uint32_t)plen);
  xprof_put32(b + 52, n_strings);
  unsigned char *p = b + XB_OBJF_FIXED;
  p += put_str(p, o->path, plen);

  /* String table, in order of appearance. */
  unsigned char *table = p;
  for (uint32_t j = 0; j < o->n_procs; j++) {
    const xprof_proc *f = &o->procs[j];
    for (uint32_t r = 0; r < f->n_vp_records; r++)
      for (uint32_t k = 0; k < o->n_values_per_vp; k++) {
        const char *s = f->vp[r].values[k].proc;
        if (!s)
          continue;
        size_t n = strlen(s);
        xprof_put32(p, (uint32_t)n);
        memcpy(p + 4, s, n + 1);
        p += 4 + n + 1;
      }
  }
  while ((uint64_t)(p - table) % 8)
    *p++ = 0;

  uint32_t next_string = 1;
  for (uint32_t j = 0; j < o->n_procs; j++) {
    const xprof_proc *f = &o->procs[j];
    size_t nlen = strlen(f->name);
    xprof_put64(p, f->signature);
    xprof_put32(p + 8, f->id);
    xprof_put32(p + 12, stat_flags(&f->stats) |
                            (f->counter_ids ? XB_SPARSE_IDS : 0));
    xprof_put32(p + 16, (uint32_t)nlen);
    xprof_put32(p + 20, f->n_counters);
    xprof_put32(p + 24, f->n_vp_sites);
    xprof_put32(p + 28, f->n_vp_records);
    p += XB_PROC_FIXED;
    if (f->stats.has_max) {
      xprof_put64(p, f->stats.max);
      p += 8;
    }
    if (f->stats.has_sum) {
      xprof_put64(p, f->stats.sum);
      p += 8;
    }
    p += put_str(p, f->name, nlen);
    if (f->counter_ids) {
      for (uint32_t k = 0; k < f->n_counters; k++)
        xprof_put32(p + 4 * k, f->counter_ids[k]);
      uint64_t sz = (uint64_t)f->n_counters * 4;
      memset(p + sz, 0, xprof_align8(sz) - sz);
      p += xprof_align8(sz);
    }
    if (xprof_host_is_le()) {
      if (f->n_counters)
        memcpy(p, f->counters, (size_t)f->n_counters * 8);
    } else {
      for (uint32_t k = 0; k < f->n_counters; k++)
        xprof_put64(p + 8 * k, f->counters[k]);
    }
    p += (size_t)f->n_counters * 8;
    for (uint32_t r = 0; r < f->n_vp_records; r++) {
      const xprof_vp_record *v = &f->vp[r];
      xprof_put32(p, (uint32_t)v->type);
      xprof_put32(p + 4, v->expr_id);
      p += 8;
      for (uint32_t k = 0; k < o->n_values_per_vp; k++) {
        const xprof_vp_value *x = &v->values[k];
        xprof_put64(p, x->count);
        xprof_put64(p + 8, v->type == XPROF_VP_PROC
                               ? (x->proc ? next_string++ : 0)
                               : x->bits);
        p += 16;
      }
    }
  }
}

/* Index: open addressing over FNV-1a hashes of the pathnames. */
static int emit_index(sink *s, const xprof_profile *p, const uint64_t *offs) {
  uint64_t n_slots = 1;
  while (n_slots < 2 * (uint64_t)p->n_objfiles)
    n_slots *= 2;
  uint64_t len = XB_INDX_FIXED + 16 * n_slots;
  unsigned char *b = xprof_calloc(1, len);
  if (!b)
    return xprof_fail_nomem(s->err, s->name);
  xprof_summary sum;
  xprof_compute_summary(p, &sum);
  xprof_put64(b, n_slots);
  xprof_put64(b + 8, sum.total_max);
  xprof_put64(b + 16, sum.total_sum);
  xprof_put64(b + 24, sum.n_counts);
  xprof_put64(b + 32, sum.n_procs);
  for (unsigned k = 0; k < XPROF_SUMMARY_CUTOFFS; k++) {
    unsigned char *q = b + XB_INDX_SUMMARY + 24 * k;
    xprof_put32(q, sum.entry[k].cutoff);
    xprof_put64(q + 8, sum.entry[k].min_count);
    xprof_put64(q + 16, sum.entry[k].num_counts);
  }
  unsigned char *slots = b + XB_INDX_FIXED;
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    const char *path = p->objfiles[i].path;
    uint64_t h = xprof_hash64(path, strlen(path));
    uint64_t slot = h & (n_slots - 1);
    while (xprof_get64(slots + 16 * slot + 8) != 0)
      slot = (slot + 1) & (n_slots - 1);
    xprof_put64(slots + 16 * slot, h);
    xprof_put64(slots + 16 * slot + 8, offs[i]);
  }
  int rc = emit_record(s, XB_TAG_INDX, 0, b, len);
  xprof_free(b);
  return rc;
}

static int emit_program(sink *s, const xprof_profile *p,
                        const xprof_program *g, const char **sorted_paths,
                        const uint32_t *ordinal_of_sorted) {
  size_t plen = strlen(g->path);
  uint64_t len = XB_PROG_FIXED + str_size(plen) + 4 * (uint64_t)g->n_objrefs;
  unsigned char *b = xprof_calloc(1, len);
  if (!b)
    return xprof_fail_nomem(s->err, s->name);
  xprof_put32(b, stat_flags(&g->stats));
  xprof_put32(b + 4, (uint32_t)plen);
  fill_stats(b + 8, &g->stats);
  xprof_put32(b + 24, g->n_objrefs);
  unsigned char *q = b + XB_PROG_FIXED;
  q += put_str(q, g->path, plen);
  for (uint32_t j = 0; j < g->n_objrefs; j++) {
    const char **hit = bsearch(&g->objrefs[j], sorted_paths, p->n_objfiles,
                               sizeof *sorted_paths, xprof_name_cmp);
    /* Validation guarantees the hit. */
    xprof_put32(q + 4 * j, hit ? ordinal_of_sorted[hit - sorted_paths] : 0);
  }
  int rc = emit_record(s, XB_TAG_PROG, 0, b, len);
  xprof_free(b);
  return rc;
}

/* The SMPL record of one image's samples. */
static int emit_samples(sink *s, const xprof_image *img) {
  size_t plen = strlen(img->path);
  uint64_t len = XB_SMPL_FIXED + str_size(plen) + xprof_align8(img->id_len) +
                 (uint64_t)img->n_bins * XB_SMPL_BIN;
  unsigned char *b = xprof_calloc(1, len);
  if (!b)
    return xprof_fail_nomem(s->err, s->name);
  xprof_put64(b, img->text_off);
  xprof_put64(b + 8, img->text_size);
  xprof_put64(b + 16, img->samples);
  xprof_put64(b + 24, img->time_ns);
  xprof_put32(b + 32, img->bin_width);
  xprof_put32(b + 36, img->flags);
  xprof_put32(b + 40, (uint32_t)plen);
  xprof_put32(b + 44, img->id_len);
  xprof_put32(b + 48, img->n_bins);
  unsigned char *q = b + XB_SMPL_FIXED;
  q += put_str(q, img->path, plen);
  if (img->id_len)
    memcpy(q, img->id, img->id_len);
  q += xprof_align8(img->id_len);
  for (uint32_t i = 0; i < img->n_bins; i++, q += XB_SMPL_BIN) {
    xprof_put64(q, img->bins[i].index);
    xprof_put64(q + 8, img->bins[i].count);
  }
  int rc = emit_record(s, XB_TAG_SMPL, 0, b, len);
  xprof_free(b);
  return rc;
}

/* The TIME record of object file o, if any of its procedures has a
 * first-run rank.  Returns 1 when it wrote one, 0 when there was none,
 * -1 on error. */
static int emit_time(sink *s, const xprof_objfile *o) {
  uint32_t n = 0;
  for (uint32_t j = 0; j < o->n_procs; j++)
    n += o->procs[j].first_run != 0;
  if (!n)
    return 0;
  uint64_t len = XB_TIME_FIXED + (uint64_t)n * XB_TIME_ENTRY;
  unsigned char *b = xprof_calloc(1, len);
  if (!b)
    return xprof_fail_nomem(s->err, s->name);
  xprof_put64(b, o->signature);
  xprof_put32(b + 8, n);
  unsigned char *q = b + XB_TIME_FIXED;
  for (uint32_t j = 0; j < o->n_procs; j++) {
    if (!o->procs[j].first_run)
      continue;
    xprof_put32(q, j);
    xprof_put64(q + 8, o->procs[j].first_run);
    q += XB_TIME_ENTRY;
  }
  int rc = emit_record(s, XB_TAG_TIME, 0, b, len);
  xprof_free(b);
  return rc < 0 ? -1 : 1;
}

/* The SHAP record of object file o, if any of its procedures has a
 * shape.  Returns 1 when it wrote one, 0 when there was none, -1 on
 * error. */
static int emit_shapes(sink *s, const xprof_objfile *o) {
  uint32_t n = 0;
  uint64_t len = XB_SHAP_FIXED;
  for (uint32_t j = 0; j < o->n_procs; j++)
    if (o->procs[j].shape) {
      n++;
      len += XB_SHAP_ENTRY + xprof_align8(o->procs[j].shape_size);
    }
  if (!n)
    return 0;
  unsigned char *b = xprof_calloc(1, len);
  if (!b)
    return xprof_fail_nomem(s->err, s->name);
  xprof_put64(b, o->signature);
  xprof_put32(b + 8, n);
  unsigned char *q = b + XB_SHAP_FIXED;
  for (uint32_t j = 0; j < o->n_procs; j++) {
    const xprof_proc *f = &o->procs[j];
    if (!f->shape)
      continue;
    xprof_put32(q, j);
    xprof_put32(q + 4, f->shape_size);
    memcpy(q + XB_SHAP_ENTRY, f->shape, f->shape_size);
    q += XB_SHAP_ENTRY + xprof_align8(f->shape_size);
  }
  int rc = emit_record(s, XB_TAG_SHAP, 0, b, len);
  xprof_free(b);
  return rc < 0 ? -1 : 1;
}

typedef struct path_ord {
  const char *path;
  uint32_t ord;
} path_ord;

static int path_ord_cmp(const void *a, const void *b) {
  return strcmp(((const path_ord *)a)->path, ((const path_ord *)b)->path);
}

/* Each object file's OBJF record, then its time and shape records;
 * offs[i] gets object i's offset (for the index) and po[i] its path.
 * The number of records, or -1 (err set). */
static int64_t emit_objfiles(sink *s, const xprof_profile *p, uint64_t *offs, path_ord *po) {
  unsigned char *scratch = NULL;
  uint64_t scratch_cap = 0;
  int64_t n_records = 0;
  for (uint32_t i = 0; i < p->n_objfiles && n_records >= 0; i++) {
    const xprof_objfile *o = &p->objfiles[i];
    uint32_t n_strings;
    uint64_t len = objf_size(o, &n_strings);
    if (len > scratch_cap) {
      xprof_free(scratch);
      scratch = xprof_malloc(len);
      scratch_cap = scratch ? len : 0;
      if (!scratch) {
        n_records = xprof_fail_nomem(s->err, s->name);
        break;
      }
    }
    fill_objf(o, n_strings, scratch);
    offs[i] = s->off;
    int t = emit_record(s, XB_TAG_OBJF, 0, scratch, len) < 0 ? -1 : emit_time(s, o);
    int h = t < 0 ? -1 : s->no_shapes ? 0 : emit_shapes(s, o);
    n_records = t < 0 || h < 0 ? -1 : n_records + 1 + t + h;
    po[i].path = o->path;
    po[i].ord = i;
  }
  xprof_free(scratch);
  return n_records;
}

/* The records after the object files': programs (which name their
 * objects by their ordinals in path order: po, sorted here), time
 * samples, records of kinds this version does not know (kept), and the
 * runs, directly before the index.  Their number, or -1 (err set). */
static int64_t emit_rest(sink *s, const xprof_profile *p, path_ord *po) {
  uint32_t n = p->n_objfiles;
  const char **sorted = xprof_malloc(((size_t)n + 1) * sizeof *sorted);
  uint32_t *ords = xprof_malloc(((size_t)n + 1) * sizeof *ords);
  int64_t n_records = 0;
  if (!sorted || !ords)
    n_records = xprof_fail_nomem(s->err, s->name);
  if (n_records == 0 && n > 1)
    xprof_sort(po, n, sizeof *po, path_ord_cmp);
  for (uint32_t i = 0; n_records == 0 && i < n; i++) {
    sorted[i] = po[i].path;
    ords[i] = po[i].ord;
  }
  for (uint32_t i = 0; n_records >= 0 && i < p->n_programs; i++)
    n_records = emit_program(s, p, &p->programs[i], sorted, ords) < 0 ? -1 : n_records + 1;
  for (uint32_t i = 0; n_records >= 0 && i < p->n_images; i++)
    n_records = emit_samples(s, &p->images[i]) < 0 ? -1 : n_records + 1;
  for (uint32_t i = 0; n_records >= 0 && i < p->n_foreign; i++) {
    const xprof_foreign *f = &p->foreign[i];
    n_records = emit_record(s, f->tag, f->flags, f->data, f->size) < 0 ? -1 : n_records + 1;
  }
  if (n_records >= 0 && (p->runs || p->run_max_sum)) {
    unsigned char r[XB_RUNS_SIZE];
    xprof_put64(r, p->runs);
    xprof_put64(r + 8, p->run_max_sum);
    n_records = emit_record(s, XB_TAG_RUNS, 0, r, sizeof r) < 0 ? -1 : n_records + 1;
  }
  xprof_free(sorted);
  xprof_free(ords);
  return n_records;
}

/* The file header, written last: the sizes and offsets it holds are
 * known only once everything else is out. */
static int put_header(sink *s, uint64_t index_off, uint32_t n_records) {
  unsigned char hdr[XB_HEADER_SIZE] = {0};
  memcpy(hdr, XB_TEXT_LINE, sizeof XB_TEXT_LINE - 1);
  xprof_put32(hdr + 24, XB_MAGIC);
  xprof_put32(hdr + 28, XB_BOM);
  hdr[32] = XPROF_BINARY_MAJOR;
  hdr[33] = 0;
  hdr[34] = XPROF_BINARY_MINOR;
  hdr[35] = 0;
  xprof_put32(hdr + 36, XB_HEADER_SIZE);
  xprof_put64(hdr + 40, s->off);
  xprof_put64(hdr + 48, index_off);
  xprof_put32(hdr + 56, n_records);
  xprof_put32(hdr + 60, xprof_crc32c(0, hdr, 60));
  if (s->fd < 0)
    memcpy(s->mem, hdr, sizeof hdr);
  else if (pwrite(s->fd, hdr, sizeof hdr, s->start) != (ssize_t)sizeof hdr)
    return xprof_fail(s->err, XPROF_ERR_IO, "%s: write error: %s", s->name,
                      strerror(errno ? errno : EIO));
  return 0;
}

/* All of p: a header's room, the records, the index, then the header.
 * 0, or -1 (err set). */
static int emit_all(sink *s, const xprof_profile *p) {
  unsigned char room[XB_HEADER_SIZE] = {0};
  if (sink_put(s, room, sizeof room) < 0)
    return -1;
  uint64_t *offs = xprof_malloc(((size_t)p->n_objfiles + 1) * sizeof *offs);
  path_ord *po = xprof_malloc(((size_t)p->n_objfiles + 1) * sizeof *po);
  int64_t objs = -1, rest = -1;
  if (!offs || !po)
    xprof_fail_nomem(s->err, s->name);
  else if ((objs = emit_objfiles(s, p, offs, po)) >= 0)
    rest = emit_rest(s, p, po);
  uint64_t index_off = s->off;
  int rc = rest < 0 || emit_index(s, p, offs) < 0 || sink_flush(s) < 0
               ? -1
               : put_header(s, index_off, (uint32_t)(objs + rest + 1));
  xprof_free(offs);
  xprof_free(po);
  return rc;
}

int xprof_binary_serialize(const xprof_profile *p, unsigned char **out,
                           size_t *out_len, xprof_error *err) {
  if (xprof_validate(p, "<memory>", err) < 0)
    return -1;
  sink *s = xprof_calloc(1, sizeof *s);
  if (!s)
    return xprof_fail_nomem(err, "<memory>");
  s->fd = -1;
  s->name = "<memory>";
  s->err = err;
  int rc = emit_all(s, p);
  if (rc == 0) {
    *out = s->mem;
    *out_len = s->off;
  } else {
    xprof_free(s->mem);
  }
  xprof_free(s);
  return rc;
}

static int write_fd(const xprof_profile *p, int fd, const char *name, int no_shapes,
                    xprof_error *err) {
  if (xprof_validate(p, name, err) < 0)
    return -1;
  sink *s = xprof_calloc(1, sizeof *s);
  if (!s)
    return xprof_fail_nomem(err, name);
  s->fd = fd;
  s->start = lseek(fd, 0, SEEK_CUR);
  if (s->start < 0)
    s->start = 0;
  s->name = name;
  s->err = err;
  s->no_shapes = no_shapes;
  int rc = emit_all(s, p);
  xprof_free(s);
  return rc;
}

int xprof_binary_write_fd(const xprof_profile *p, int fd, const char *name,
                          xprof_error *err) {
  return write_fd(p, fd, name, 0, err);
}

int xprof_binary_write_counts_fd(const xprof_profile *p, int fd, const char *name,
                                 xprof_error *err) {
  return write_fd(p, fd, name, 1, err);
}

static int write_binary_cb(void *ctx, int fd, const char *name,
                           xprof_error *err) {
  return xprof_binary_write_fd(ctx, fd, name, err);
}

int xprof_binary_write_file(const xprof_profile *p, const char *path,
                            xprof_error *err) {
  return xprof_atomic_write(path, write_binary_cb, (void *)p, err);
}

static int write_counts_cb(void *ctx, int fd, const char *name, xprof_error *err) {
  return xprof_binary_write_counts_fd(ctx, fd, name, err);
}

int xprof_binary_write_counts_file(const xprof_profile *p, const char *path,
                                   xprof_error *err) {
  return xprof_atomic_write(path, write_counts_cb, (void *)p, err);
}
