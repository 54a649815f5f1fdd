/*
 * digest.c - what a compiler cache must know of a use build: a digest of
 * exactly the profile data that one compilation reads (its object file's
 * data and the parts of the whole profile's summary the compiler looks
 * at), so that a cache misses when that data changed and still hits when
 * only other object files' data did.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

/* Two FNV-1a lanes with different starting points and byte mixing: 128
 * bits, enough that two profiles never share a cache key by accident (a
 * cache key, not a defence against a crafted profile). */
struct digest {
  uint64_t a, b;
};

static void feed(struct digest *d, const void *data, size_t len) {
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++) {
    d->a = (d->a ^ p[i]) * 0x100000001b3ull;
    d->b = (d->b ^ (unsigned char)(p[i] + 0x5b)) * 0x100000001b3ull;
  }
}

static void feed64(struct digest *d, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (unsigned char)(v >> (8 * i));
  feed(d, b, sizeof b);
}

/* Strings with their terminator, so that "ab"+"c" differs from "a"+"bc";
 * NULL differs from "". */
static void feed_string(struct digest *d, const char *s) {
  if (s)
    feed(d, s, strlen(s) + 1);
  else
    feed64(d, 0xffffffffffffffffull);
}

static void feed_proc(struct digest *d, const xprof_proc *f) {
  feed_string(d, f->name);
  feed64(d, f->signature);
  feed64(d, f->n_counters);
  for (uint32_t k = 0; k < f->n_counters; k++) {
    feed64(d, f->counter_ids ? f->counter_ids[k] : k);
    feed64(d, f->counters[k]);
  }
  feed64(d, f->n_vp_sites);
  feed64(d, f->n_vp_records);
  for (uint32_t r = 0; r < f->n_vp_records; r++) {
    feed64(d, f->vp[r].type);
    feed64(d, f->vp[r].expr_id);
  }
}

static void feed_values(struct digest *d, const xprof_objfile *o) {
  for (uint32_t i = 0; i < o->n_procs; i++)
    for (uint32_t r = 0; r < o->procs[i].n_vp_records; r++)
      for (uint32_t v = 0; v < o->n_values_per_vp; v++) {
        const xprof_vp_value *x = &o->procs[i].vp[r].values[v];
        feed64(d, x->count);
        feed64(d, x->bits);
        feed_string(d, x->proc);
      }
}

void xprof_use_digest(const xprof_objfile *o, const xprof_summary *s, unsigned what,
                      char hex[XPROF_DIGEST_HEX]) {
  struct digest d = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
  feed_string(&d, "xprof use digest 1");
  if (o) {
    feed_string(&d, o->path);
    feed64(&d, o->signature);
    feed64(&d, o->n_values_per_vp);
    feed64(&d, o->n_procs);
    for (uint32_t i = 0; i < o->n_procs; i++)
      feed_proc(&d, &o->procs[i]);
    feed_values(&d, o);
  } else {
    feed_string(&d, "no data");
  }
  if (s && (what & XPROF_DIGEST_MAX))
    feed64(&d, s->total_max);
  if (s && (what & XPROF_DIGEST_SUMMARY)) {
    feed64(&d, s->total_sum);
    feed64(&d, s->n_counts);
    feed64(&d, s->n_procs);
    for (unsigned k = 0; k < XPROF_SUMMARY_CUTOFFS; k++) {
      feed64(&d, s->entry[k].cutoff);
      feed64(&d, s->entry[k].min_count);
      feed64(&d, s->entry[k].num_counts);
    }
  }
  snprintf(hex, XPROF_DIGEST_HEX, "%016llx%016llx", (unsigned long long)d.a,
           (unsigned long long)d.b);
}

char *xprof_compile_object_name(const char *output, const char *source) {
  const char *name = output && strcmp(output, "-") != 0 ? output : source;
  if (name == source) { /* the object of a source goes to the current directory */
    const char *slash = strrchr(source, '/');
    name = slash ? slash + 1 : source;
  }
  const char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
  size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - name) : strlen(name);
  return xprof_format("%.*s.o", (int)n, name);
}

/* ---- shipping a compilation's data to another machine ----------------- */

/* A compilation that runs on another machine (distcc) reads the profile
 * data shipped inside its preprocessed source, in a line
 *   # xprof use data 1 <summary: 52 numbers> <the object file as xprof_text, base64>
 * which the drivers put into a top-level asm statement: the plugins take
 * it out before anything is emitted.  The summary travels as numbers
 * because a profile of one object file would give another one. */

static const char ship_tag[] = "# xprof use data 1 ";
static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static char *base64(const unsigned char *p, size_t n) {
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

/* Decoded bytes of base64 text s[0..n) (malloc'd, *len set), or NULL. */
static unsigned char *unbase64(const char *s, size_t n, size_t *len) {
  unsigned char *out = xprof_malloc(n / 4 * 3 + 1);
  size_t k = 0;
  uint32_t v = 0;
  int bits = 0;
  for (size_t i = 0; out && i < n && s[i] != '='; i++) {
    const char *c = memchr(b64, s[i], 64);
    if (!c || !s[i]) {
      xprof_free(out);
      return NULL;
    }
    v = v << 6 | (uint32_t)(c - b64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[k++] = (unsigned char)(v >> bits);
    }
  }
  *len = k;
  return out;
}

char *xprof_use_ship(const xprof_objfile *o, const xprof_summary *s) {
  /* A view of a profile that holds only this object file. */
  xprof_profile view;
  memset(&view, 0, sizeof view);
  view.n_objfiles = 1;
  view.objfiles = (xprof_objfile *)o;
  char *text = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&text, &n);
  xprof_error err;
  if (!f)
    return NULL;
  int rc = xprof_text_write_stream(&view, f, "shipped data", &err);
  if (fclose(f) != 0 || rc < 0) {
    free(text);
    return NULL;
  }
  char *coded = base64((const unsigned char *)text, n);
  free(text);
  char head[1024];
  int k = snprintf(head, sizeof head, "%s%llu %llu %llu %llu", ship_tag,
                   (unsigned long long)s->total_max, (unsigned long long)s->total_sum,
                   (unsigned long long)s->n_counts, (unsigned long long)s->n_procs);
  for (unsigned i = 0; i < XPROF_SUMMARY_CUTOFFS; i++)
    k += snprintf(head + k, sizeof head - (size_t)k, " %u %llu %llu", s->entry[i].cutoff,
                  (unsigned long long)s->entry[i].min_count,
                  (unsigned long long)s->entry[i].num_counts);
  char *line = coded ? xprof_format("%s %s", head, coded) : NULL;
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
  return find_line(text, len, ship_tag, line_len);
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
    int ours = (n >= sizeof ship_tag - 1 && memcmp(text + i, ship_tag, sizeof ship_tag - 1) == 0) ||
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

int xprof_use_unship(const char *line, size_t len, xprof_profile **out, xprof_error *err) {
  size_t tn = sizeof ship_tag - 1;
  if (len < tn || memcmp(line, ship_tag, tn) != 0)
    return xprof_fail(err, XPROF_ERR_FORMAT, "shipped profile data: no '%s'", ship_tag);
  char *copy = xprof_format("%.*s", (int)(len - tn), line + tn);
  if (!copy)
    return xprof_fail_nomem(err, "shipped profile data");
  xprof_summary s;
  unsigned long long v[4 + 3 * XPROF_SUMMARY_CUTOFFS];
  char *p = copy, *end;
  for (size_t i = 0; i < sizeof v / sizeof *v; i++, p = end) {
    v[i] = strtoull(p, &end, 10);
    if (end == p) {
      xprof_free(copy);
      return xprof_fail(err, XPROF_ERR_FORMAT, "shipped profile data: a short summary");
    }
  }
  s.total_max = v[0], s.total_sum = v[1], s.n_counts = v[2], s.n_procs = v[3];
  for (unsigned i = 0; i < XPROF_SUMMARY_CUTOFFS; i++) {
    s.entry[i].cutoff = (uint32_t)v[4 + 3 * i];
    s.entry[i].min_count = v[5 + 3 * i];
    s.entry[i].num_counts = v[6 + 3 * i];
  }
  while (*p == ' ')
    p++;
  size_t n;
  unsigned char *text = unbase64(p, strlen(p), &n);
  xprof_free(copy);
  if (!text)
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
