/*
 * ship.c - what a compiler cache must know of a use build: a digest of
 * exactly the profile data that one compilation reads (its object file's
 * data and the parts of the whole profile's summary the compiler looks
 * at), so that a cache misses when that data changed and still hits when
 * only other object files' data did.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "xprof_plan.h"

/* An object file's data as xprof_text, which carries all of it (with
 * xprof's extension lines: first-run ranks, shapes); malloc'd by the C
 * library (free), *n its length, or NULL. */
static char *objfile_text(const xprof_objfile *o, size_t *n) {
  /* A view of a profile that holds only this object file. */
  xprof_profile view;
  memset(&view, 0, sizeof view);
  view.n_objfiles = 1;
  view.objfiles = (xprof_objfile *)o;
  char *text = NULL;
  FILE *f = open_memstream(&text, n);
  xprof_error err;
  if (!f)
    return NULL;
  int rc = xprof_text_write_stream(&view, f, "object file data", &err);
  if (fclose(f) != 0 || rc < 0) {
    free(text);
    return NULL;
  }
  return text;
}

/* The summary fields `what` as text: what GCC reads ("max N runs N sum N
 * hot N"), or all of them (the numbers alone, as they are shipped:
 * SHIP_NUMBERS of them). */
#define SHIP_NUMBERS (6 + 3 * XPROF_SUMMARY_CUTOFFS)
static void summary_text(const xprof_summary *s, unsigned what, char *buf, size_t size) {
  int k = 0;
  buf[0] = 0;
  if (what & XPROF_DIGEST_SUMMARY) {
    k = snprintf(buf, size, "%llu %llu %llu %llu %llu %llu", (unsigned long long)s->total_max,
                 (unsigned long long)s->total_sum, (unsigned long long)s->n_counts,
                 (unsigned long long)s->n_procs, (unsigned long long)s->runs,
                 (unsigned long long)s->run_max_sum);
    for (unsigned i = 0; i < XPROF_SUMMARY_CUTOFFS; i++)
      k += snprintf(buf + k, size - (size_t)k, " %u %llu %llu", s->entry[i].cutoff,
                    (unsigned long long)s->entry[i].min_count,
                    (unsigned long long)s->entry[i].num_counts);
  } else if (what & XPROF_DIGEST_MAX) {
    snprintf(buf, size, "max %llu runs %llu sum %llu hot %llu", (unsigned long long)s->total_max,
             (unsigned long long)s->runs, (unsigned long long)s->run_max_sum,
             (unsigned long long)xprof_cutoff_count(s, XPROF_HOT_CUTOFF));
  }
}

/* 128 bits from the hashes libxprof has: FNV-1a and CRC-32C from two
 * starting points -- enough that two profiles never share a cache key by
 * accident (a cache key, not a defence against a crafted profile). */
void xprof_use_digest(const xprof_objfile *o, const xprof_summary *s, unsigned what,
                      char hex[XPROF_DIGEST_HEX]) {
  char sum[1024];
  summary_text(s ? s : &(xprof_summary){0}, s ? what : 0, sum, sizeof sum);
  size_t n = 0;
  char *text = o ? objfile_text(o, &n) : NULL;
  /* Data that could not be written (out of memory) must not share a key
   * with anything: the moment and the process make this one unique. */
  char unique[64];
  snprintf(unique, sizeof unique, "unwritten %ld %d", (long)time(NULL), (int)getpid());
  char *all = xprof_format("xprof use digest 5\n%s\n%.*s", sum, text ? (int)n : -1,
                           text ? text : o ? unique : "no data");
  free(text);
  const char *data = all ? all : unique;
  size_t len = strlen(data);
  snprintf(hex, XPROF_DIGEST_HEX, "%016llx%08x%08x", (unsigned long long)xprof_hash64(data, len),
           xprof_crc32c(0, data, len), xprof_crc32c(0x9e3779b9u, data, len));
  xprof_free(all);
}

/* ---- shipping a compilation's data to another machine ----------------- */

/* A compilation that runs on another machine (distcc) reads the profile
 * data shipped inside its preprocessed source, in a line
 *   # xprof use data 3 <summary: 54 numbers> <the object file as xprof_text, base64>
 * which the drivers put into a top-level asm statement: the plugins take
 * it out before anything is emitted.  The summary travels as numbers
 * because a profile of one object file would give another one.  The
 * version after the tag changes with what is shipped: version 1 lacked
 * the training runs, version 2 the first-run ranks and the shapes (the
 * text of its time had no extension lines). */

static const char ship_tag[] = "# xprof use data 3 ";
static const char ship_prefix[] = "# xprof use data "; /* of every version */
char *xprof_use_ship(const xprof_objfile *o, const xprof_summary *s) {
  size_t n = 0;
  char *text = objfile_text(o, &n);
  char *coded = text ? xprof_base64(text, n) : NULL;
  free(text);
  char head[1024];
  summary_text(s, XPROF_DIGEST_SUMMARY, head, sizeof head);
  char *line = coded ? xprof_format("%s%s %s", ship_tag, head, coded) : NULL;
  xprof_free(coded);
  return line;
}

/* The line of text[0..len) that starts with tag, or NULL; *line_len its
 * length without the newline. */
static const char *find_line(const char *text, size_t len, const char *tag, size_t *line_len) {
  size_t tn = strlen(tag);
  for (size_t i = 0; i + tn <= len; i++) {
    if ((i == 0 || text[i - 1] == '\n') && memcmp(text + i, tag, tn) == 0) {
      const char *end = memchr(text + i, '\n', len - i);
      *line_len = end ? (size_t)(end - (text + i)) : len - i;
      return text + i;
    }
  }
  return NULL;
}

const char *xprof_use_find_shipped(const char *text, size_t len, size_t *line_len) {
  return find_line(text, len, ship_prefix, line_len);
}

static const char object_tag[] = "# xprof object ";

char *xprof_ship_object(const char *objpath) {
  return xprof_format("%s%s", object_tag, objpath);
}

char *xprof_find_shipped_object(const char *text, size_t len) {
  size_t n, tn = sizeof object_tag - 1;
  const char *line = find_line(text, len, object_tag, &n);
  return line ? xprof_format("%.*s", (int)(n - tn), line + tn) : NULL;
}

char *xprof_drop_shipped(const char *text, size_t len, size_t *out_len) {
  char *out = xprof_malloc(len + 1);
  size_t k = 0;
  if (!out)
    return NULL;
  for (size_t i = 0; i < len;) {
    const char *end = memchr(text + i, '\n', len - i);
    size_t n = end ? (size_t)(end - (text + i)) + 1 : len - i;
    int ours = (n >= sizeof ship_prefix - 1 &&
                memcmp(text + i, ship_prefix, sizeof ship_prefix - 1) == 0) ||
               (n >= sizeof object_tag - 1 &&
                memcmp(text + i, object_tag, sizeof object_tag - 1) == 0);
    if (!ours) {
      memcpy(out + k, text + i, n);
      k += n;
    }
    i += n;
  }
  out[k] = 0;
  *out_len = k;
  return out;
}

int xprof_take_shipped(const char *text, size_t len, xprof_shipped *s) {
  size_t n;
  memset(s, 0, sizeof *s);
  const char *line = xprof_use_find_shipped(text, len, &n);
  s->objpath = xprof_find_shipped_object(text, len);
  if (!line && !s->objpath)
    return 0;
  if (line) {
    s->data = xprof_format("%.*s", (int)n, line);
    s->n = n;
  }
  s->kept = xprof_drop_shipped(text, len, &s->kept_len);
  if (!s->kept || (line && !s->data)) {
    xprof_shipped_free(s);
    return -1;
  }
  return 1;
}

void xprof_shipped_free(xprof_shipped *s) {
  xprof_free(s->objpath);
  xprof_free(s->data);
  xprof_free(s->kept);
  memset(s, 0, sizeof *s);
}

int xprof_use_unship(const char *line, size_t len, xprof_profile **out, xprof_error *err) {
  size_t tn = sizeof ship_tag - 1, pn = sizeof ship_prefix - 1;
  if (len >= pn && memcmp(line, ship_prefix, pn) == 0 && (len < tn || memcmp(line, ship_tag, tn) != 0)) {
    size_t vn = pn;
    while (vn < len && line[vn] != ' ' && line[vn] != '\n')
      vn++;
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "shipped profile data of another xprof version ('%.*s'; this one "
                      "reads '%.*s'): use the same xprof on both machines",
                      (int)vn, line, (int)tn - 1, ship_tag);
  }
  if (len < tn || memcmp(line, ship_tag, tn) != 0)
    return xprof_fail(err, XPROF_ERR_FORMAT, "shipped profile data: no '%s'", ship_tag);
  char *copy = xprof_format("%.*s", (int)(len - tn), line + tn);
  if (!copy)
    return xprof_fail_nomem(err, "shipped profile data");
  xprof_summary s;
  unsigned long long v[SHIP_NUMBERS];
  char *p = copy, *end;
  for (size_t i = 0; i < sizeof v / sizeof *v; i++, p = end) {
    v[i] = strtoull(p, &end, 10);
    if (end == p) {
      xprof_free(copy);
      return xprof_fail(err, XPROF_ERR_FORMAT, "shipped profile data: a short summary");
    }
  }
  s.total_max = v[0], s.total_sum = v[1], s.n_counts = v[2], s.n_procs = v[3];
  s.runs = v[4], s.run_max_sum = v[5];
  for (unsigned i = 0; i < XPROF_SUMMARY_CUTOFFS; i++) {
    s.entry[i].cutoff = (uint32_t)v[6 + 3 * i];
    s.entry[i].min_count = v[7 + 3 * i];
    s.entry[i].num_counts = v[8 + 3 * i];
  }
  while (*p == ' ')
    p++;
  size_t n;
  unsigned char *text;
  int ok = xprof_unbase64(p, strlen(p), &text, &n);
  xprof_free(copy);
  if (ok < 0)
    return xprof_fail_nomem(err, "shipped profile data");
  if (!ok)
    return xprof_fail(err, XPROF_ERR_FORMAT, "shipped profile data: bad base64");
  int rc = xprof_text_parse("shipped profile data", (const char *)text, n, out, err);
  xprof_free(text);
  if (rc < 0)
    return -1;
  if ((*out)->n_objfiles != 1) {
    xprof_profile_free(*out);
    return xprof_fail(err, XPROF_ERR_FORMAT, "shipped profile data: %u object files, not 1",
                      (*out)->n_objfiles);
  }
  (*out)->summary = xprof_alloc(*out, sizeof s);
  if (!(*out)->summary) {
    xprof_profile_free(*out);
    return xprof_fail_nomem(err, "shipped profile data");
  }
  *(*out)->summary = s;
  return 0;
}
