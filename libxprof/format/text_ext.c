/*
 * text_ext.c - reading xprof's extension lines of xprof_text(4): what
 * binary data holds beyond the 3.1 text (the training runs, when each
 * procedure first ran, the procedures' shapes, time samples, records of
 * kinds this library does not know), so that text is a lossless twin of
 * binary data.
 *
 * An extension line starts with the token "#+", which a reader of plain
 * 3.1 text takes for a comment: such a reader reads the file as it
 * would without the extension.  Extension lines stand in three places:
 * after the header (RUNS), after a procedure's statistics (FIRST-RUN,
 * SHAPE) and after the last program (IMAGE with its BIN lines, RECORD).
 * Elsewhere they are comments, and so is one whose keyword this reader
 * does not know there: a later writer may add keywords without breaking
 * this reader, as a later writer of binary data adds records that are
 * not critical.  A known keyword with bad fields is an error.
 *
 * Each reader below takes the extension lines it knows and stops at any
 * other line, which stays pending: the grammar's next read takes it, and
 * drops it as a comment if it is an extension line (text_lex.c).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "binary_format.h"
#include "text.h"

/* Whether the next line is an extension line: 1 (its tokens in r), 0
 * when it is not or there is none, -1; the line stays pending. */
static int next_ext(text_reader *r) {
  r->ext = 1;
  int rc = xprof_tr_next_line(r);
  r->ext = 0;
  if (rc <= 0)
    return rc;
  return xprof_tr_is(r, 0, "#+");
}

/* Token i as base64 bytes, into the profile's memory ("-": none). */
static int ext_bytes(text_reader *r, int i, const char *what, const unsigned char **out,
                     size_t *len) {
  char b[48];
  *out = NULL;
  *len = 0;
  if (i >= r->ntok)
    return xprof_tr_fail(r, "expected %s, found end of line", what);
  if (xprof_tr_is(r, i, "-"))
    return 0;
  unsigned char *d;
  int ok = xprof_unbase64(r->tok[i], r->len[i], &d, len);
  if (ok < 0)
    return xprof_fail_nomem(r->err, r->name);
  if (!ok)
    return xprof_tr_fail(r, "%s %s is not base64", what, xprof_tr_show(r, i, b, sizeof b));
  unsigned char *kept = *len ? xprof_alloc(r->prof, *len) : NULL;
  if (*len && !kept) {
    xprof_free(d);
    return xprof_fail_nomem(r->err, r->name);
  }
  if (*len)
    memcpy(kept, d, *len);
  xprof_free(d);
  *out = kept;
  return 0;
}

int xprof_text_ext_read_head(text_reader *r) {
  int rc;
  while ((rc = next_ext(r)) > 0 && xprof_tr_is(r, 1, "RUNS")) {
    if (xprof_tr_fields(r, 4, "#+ RUNS line") < 0 ||
        xprof_tr_u64(r, 2, "training runs", &r->prof->runs) < 0 ||
        xprof_tr_u64(r, 3, "sum of the runs' largest counters", &r->prof->run_max_sum) < 0)
      return -1;
    xprof_tr_consume(r);
  }
  return rc < 0 ? -1 : 0;
}

int xprof_text_ext_read_proc(text_reader *r, xprof_proc *f) {
  int rc;
  while ((rc = next_ext(r)) > 0) {
    if (xprof_tr_is(r, 1, "FIRST-RUN")) {
      if (xprof_tr_fields(r, 3, "#+ FIRST-RUN line") < 0 ||
          xprof_tr_u64(r, 2, "first-run rank", &f->first_run) < 0)
        return -1;
    } else if (xprof_tr_is(r, 1, "SHAPE")) {
      const unsigned char *shape;
      size_t n;
      if (xprof_tr_fields(r, 3, "#+ SHAPE line") < 0 || ext_bytes(r, 2, "shape", &shape, &n) < 0)
        return -1;
      if (n > UINT32_MAX)
        return xprof_tr_fail(r, "shape of %s is too large", f->name);
      f->shape = shape;
      f->shape_size = (uint32_t)n;
    } else {
      return 0;
    }
    xprof_tr_consume(r);
  }
  return rc < 0 ? -1 : 0;
}

/* An IMAGE line and the n_bins BIN lines after it. */
static int read_image(text_reader *r) {
  uint64_t off, size, samples, time_ns;
  uint32_t flags, width, n_bins;
  const char *path;
  const unsigned char *id;
  size_t id_len;
  if (xprof_tr_fields(r, 11, "#+ IMAGE line") < 0 || xprof_tr_name(r, 2, "image path", &path) < 0 ||
      ext_bytes(r, 3, "image id", &id, &id_len) < 0 ||
      xprof_tr_u32(r, 4, "image flags", &flags) < 0 ||
      xprof_tr_hex64(r, 5, "text offset", &off) < 0 ||
      xprof_tr_hex64(r, 6, "text size", &size) < 0 ||
      xprof_tr_u32(r, 7, "bin width", &width) < 0 ||
      xprof_tr_u64(r, 8, "samples", &samples) < 0 ||
      xprof_tr_u64(r, 9, "sampled time", &time_ns) < 0 ||
      xprof_tr_u32(r, 10, "n_bins", &n_bins) < 0)
    return -1;
  if (id_len > XPROF_IMAGE_ID_MAX)
    return xprof_tr_fail(r, "image id of %zu bytes (at most %d)", id_len, XPROF_IMAGE_ID_MAX);
  if (flags & XPROF_IMAGE_OVERFLOW)
    path = ""; /* written as "-" */
  if (xprof_find_image(r->prof, path, off))
    return xprof_tr_fail(r, "second IMAGE of %s at offset 0x%" PRIx64, path, off);
  if ((uint64_t)n_bins * 8 > (uint64_t)(r->end - r->p) + 8)
    return xprof_tr_fail(r, "IMAGE declares %u bins, more than the rest of the file holds",
                         n_bins);
  xprof_image *img = xprof_add_image(r->prof, path, off);
  xprof_sample_bin *bins = xprof_malloc(((size_t)n_bins + 1) * sizeof *bins);
  if (!img || !bins || xprof_image_set_id(r->prof, img, id, (uint32_t)id_len) < 0) {
    xprof_free(bins);
    return xprof_fail_nomem(r->err, r->name);
  }
  img->flags = flags;
  img->text_size = size;
  img->bin_width = width;
  img->time_ns = time_ns;
  xprof_tr_consume(r);
  int rc = 0;
  for (uint32_t i = 0; i < n_bins && rc == 0; i++) {
    rc = next_ext(r);
    if (rc == 0 || (rc > 0 && !xprof_tr_is(r, 1, "BIN")))
      rc = xprof_tr_fail(r, "IMAGE %s declares %u bins, found %u (expected #+ BIN)", path,
                         n_bins, i);
    else if (rc > 0)
      rc = xprof_tr_fields(r, 4, "#+ BIN line") < 0 ||
                   xprof_tr_u64(r, 2, "bin index", &bins[i].index) < 0 ||
                   xprof_tr_u64(r, 3, "bin count", &bins[i].count) < 0
               ? -1
               : 0;
    xprof_tr_consume(r);
  }
  if (rc == 0 && xprof_image_set_bins(r->prof, img, bins, n_bins) < 0)
    rc = xprof_fail_nomem(r->err, r->name);
  xprof_free(bins);
  if (rc == 0 && img->samples != samples)
    return xprof_tr_fail(r, "IMAGE %s: its bins add up to %" PRIu64 ", its total says %" PRIu64,
                         path, img->samples, samples);
  return rc;
}

/* A RECORD line: a binary record of a kind this library does not know. */
static int read_record(text_reader *r) {
  uint64_t tag;
  uint32_t flags;
  const unsigned char *data;
  size_t n;
  if (xprof_tr_fields(r, 5, "#+ RECORD line") < 0 || xprof_tr_hex64(r, 2, "record tag", &tag) < 0 ||
      xprof_tr_u32(r, 3, "record flags", &flags) < 0 || ext_bytes(r, 4, "record", &data, &n) < 0)
    return -1;
  if (tag > UINT32_MAX)
    return xprof_tr_fail(r, "record tag 0x%" PRIx64 " does not fit in 32 bits", tag);
  if (flags & XB_FLAG_CRITICAL) /* as the binary reader refuses it */
    return xprof_fail(r->err, XPROF_ERR_VERSION,
                      "%s:%" PRIu64 ": record kind 0x%08" PRIx64 " is required to read this "
                      "profile but unknown to this reader",
                      r->name, r->line, tag);
  xprof_profile *p = r->prof;
  if (xprof_grow((void **)&p->foreign, &p->cap_foreign, p->n_foreign, sizeof *p->foreign) < 0)
    return xprof_fail_nomem(r->err, r->name);
  xprof_foreign *f = &p->foreign[p->n_foreign++];
  f->tag = (uint32_t)tag;
  f->flags = flags;
  f->size = n;
  f->data = data;
  xprof_tr_consume(r);
  return 0;
}

int xprof_text_ext_read_tail(text_reader *r) {
  int rc;
  while ((rc = next_ext(r)) > 0) {
    if (xprof_tr_is(r, 1, "IMAGE"))
      rc = read_image(r);
    else if (xprof_tr_is(r, 1, "RECORD"))
      rc = read_record(r);
    else
      return 0;
    if (rc < 0)
      return -1;
  }
  return rc < 0 ? -1 : 0;
}
