/*
 * text_write.c - canonical xprof_text(4) output.
 *
 * Canonical form: one record per line, single spaces, the signature on
 * the line after OBJFILE:, statistics as "max N" then "sum N" lines,
 * counters in increasing id order, value-profile records in increasing
 * expression id order.  Names and pathnames escape bytes <= 0x20, 0x7f
 * and '\' as \xHH so that every token reads back as it was written.
 * Floats and doubles are written with enough digits to read back
 * bit-identical; NaNs carry their payload as nan(0xMANTISSA).  What
 * binary data holds beyond 3.1 follows in xprof's extension lines, "#+
 * KEYWORD ...", which a 3.1 reader takes for comments (text_ext.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

typedef struct writer {
  FILE *f;
  const char *name;
  size_t n;
  int failed;
  char buf[1 << 16];
} writer;

static void w_flush(writer *w) {
  if (w->n && !w->failed && fwrite(w->buf, 1, w->n, w->f) != w->n)
    w->failed = errno ? errno : EIO;
  w->n = 0;
}

static void w_mem(writer *w, const char *s, size_t n) {
  while (n) {
    if (w->n == sizeof w->buf)
      w_flush(w);
    size_t k = sizeof w->buf - w->n;
    if (k > n)
      k = n;
    memcpy(w->buf + w->n, s, k);
    w->n += k;
    s += k;
    n -= k;
  }
}

static void w_str(writer *w, const char *s) { w_mem(w, s, strlen(s)); }
static void w_chr(writer *w, char c) { w_mem(w, &c, 1); }

static void w_u64(writer *w, uint64_t v) {
  char t[24];
  int i = sizeof t;
  do
    t[--i] = (char)('0' + v % 10);
  while (v /= 10);
  w_mem(w, t + i, sizeof t - (size_t)i);
}

static void w_hex(writer *w, uint64_t v) {
  char t[24];
  int n = snprintf(t, sizeof t, "0x%" PRIx64, v);
  w_mem(w, t, (size_t)n);
}

/* Write a token with bytes <= 0x20, 0x7f and '\' escaped as \xHH. */
static void w_token(writer *w, const char *s) {
  static const char hex[] = "0123456789abcdef";
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c <= 0x20 || c == 0x7f || c == '\\') {
      char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
      w_mem(w, e, 4);
    } else {
      w_chr(w, (char)c);
    }
  }
}

static void w_stats(writer *w, const xprof_stats *s) {
  if (s->has_max) {
    w_str(w, "max ");
    w_u64(w, s->max);
    w_chr(w, '\n');
  }
  if (s->has_sum) {
    w_str(w, "sum ");
    w_u64(w, s->sum);
    w_chr(w, '\n');
  }
}

static void w_float(writer *w, double v, uint64_t bits, int is_double) {
  char t[64];
  if (isnan(v)) {
    uint64_t sign = is_double ? bits >> 63 : (bits >> 31) & 1;
    uint64_t mant = is_double ? bits & 0xfffffffffffffull : bits & 0x7fffff;
    snprintf(t, sizeof t, "%snan(0x%" PRIx64 ")", sign ? "-" : "", mant);
  } else if (isinf(v)) {
    snprintf(t, sizeof t, "%sinf", v < 0 ? "-" : "");
  } else if (is_double) {
    snprintf(t, sizeof t, "%.17g", v);
    double back = strtod(t, NULL);
    if (memcmp(&back, &v, sizeof v) != 0) /* never expected; be exact */
      snprintf(t, sizeof t, "%a", v);
  } else {
    float fv = (float)v;
    snprintf(t, sizeof t, "%.9g", v);
    float back = strtof(t, NULL);
    if (memcmp(&back, &fv, sizeof fv) != 0)
      snprintf(t, sizeof t, "%a", v);
  }
  w_str(w, t);
}

static void w_vp_value(writer *w, xprof_vp_type type, const xprof_vp_value *x) {
  if (x->count == 0)
    return;
  switch (type) {
  case XPROF_VP_INT:
  case XPROF_VP_LLONG: {
    char t[24];
    snprintf(t, sizeof t, "%lld", (long long)(int64_t)x->bits);
    w_chr(w, ' ');
    w_str(w, t);
    break;
  }
  case XPROF_VP_FLOAT: {
    uint32_t b = (uint32_t)x->bits;
    float f;
    memcpy(&f, &b, sizeof f);
    w_chr(w, ' ');
    w_float(w, f, b, 0);
    break;
  }
  case XPROF_VP_DOUBLE: {
    double d;
    memcpy(&d, &x->bits, sizeof d);
    w_chr(w, ' ');
    w_float(w, d, x->bits, 1);
    break;
  }
  case XPROF_VP_PROC:
    if (x->proc) {
      w_chr(w, ' ');
      w_token(w, x->proc);
    }
    break;
  default:
    break;
  }
}

/* ---- xprof's extension lines (text_ext.c says where they stand) ------- */

static void w_ext(writer *w, const char *keyword) {
  w_str(w, "#+ ");
  w_str(w, keyword);
}

/* Bytes as base64, "-" for none. */
static void w_bytes(writer *w, const unsigned char *p, size_t n) {
  w_chr(w, ' ');
  if (!n) {
    w_chr(w, '-');
    return;
  }
  char *b = xprof_base64(p, n);
  if (!b) {
    w->failed = ENOMEM;
    return;
  }
  w_str(w, b);
  xprof_free(b);
}

static void w_ext_proc(writer *w, const xprof_proc *f) {
  if (f->first_run) {
    w_ext(w, "FIRST-RUN ");
    w_u64(w, f->first_run);
    w_chr(w, '\n');
  }
  if (f->shape_size) {
    w_ext(w, "SHAPE");
    w_bytes(w, f->shape, f->shape_size);
    w_chr(w, '\n');
  }
}

static void w_image(writer *w, const xprof_image *img) {
  w_ext(w, "IMAGE ");
  if (img->flags & XPROF_IMAGE_OVERFLOW)
    w_chr(w, '-');
  else
    w_token(w, img->path);
  w_bytes(w, img->id, img->id_len);
  w_chr(w, ' ');
  w_u64(w, img->flags);
  w_chr(w, ' ');
  w_hex(w, img->text_off);
  w_chr(w, ' ');
  w_hex(w, img->text_size);
  w_chr(w, ' ');
  w_u64(w, img->bin_width);
  w_chr(w, ' ');
  w_u64(w, img->samples);
  w_chr(w, ' ');
  w_u64(w, img->time_ns);
  w_chr(w, ' ');
  w_u64(w, img->n_bins);
  w_chr(w, '\n');
  for (uint32_t i = 0; i < img->n_bins; i++) {
    w_ext(w, "BIN ");
    w_u64(w, img->bins[i].index);
    w_chr(w, ' ');
    w_u64(w, img->bins[i].count);
    w_chr(w, '\n');
  }
}

static void w_ext_tail(writer *w, const xprof_profile *p) {
  for (uint32_t i = 0; i < p->n_images; i++)
    w_image(w, &p->images[i]);
  for (uint32_t i = 0; i < p->n_foreign; i++) {
    const xprof_foreign *f = &p->foreign[i];
    w_ext(w, "RECORD ");
    char t[16];
    snprintf(t, sizeof t, "0x%08x", f->tag);
    w_str(w, t);
    w_chr(w, ' ');
    w_u64(w, f->flags);
    w_bytes(w, f->data, f->size);
    w_chr(w, '\n');
  }
}

static void w_proc(writer *w, const xprof_objfile *o, const xprof_proc *f) {
  w_str(w, "PROC: ");
  w_token(w, f->name);
  w_chr(w, ' ');
  w_hex(w, f->signature);
  w_chr(w, ' ');
  w_u64(w, f->n_counters);
  w_chr(w, ' ');
  w_u64(w, f->n_vp_sites);
  w_chr(w, ' ');
  w_u64(w, f->n_vp_records);
  w_chr(w, ' ');
  w_u64(w, f->id);
  w_chr(w, '\n');
  w_stats(w, &f->stats);
  w_ext_proc(w, f);
  for (uint32_t k = 0; k < f->n_counters; k++) {
    w_u64(w, f->counter_ids ? f->counter_ids[k] : k);
    w_chr(w, ' ');
    w_u64(w, f->counters[k]);
    w_chr(w, '\n');
  }
  for (uint32_t r = 0; r < f->n_vp_records; r++) {
    const xprof_vp_record *v = &f->vp[r];
    for (uint32_t k = 0; k < o->n_values_per_vp; k++) {
      w_str(w, xprof_vp_type_name(v->type));
      w_chr(w, ' ');
      w_u64(w, v->expr_id);
      w_chr(w, ' ');
      w_u64(w, v->values[k].count);
      w_vp_value(w, v->type, &v->values[k]);
      w_chr(w, '\n');
    }
  }
}

int xprof_text_write_stream(const xprof_profile *p, FILE *f, const char *name,
                            xprof_error *err) {
  if (xprof_validate(p, name, err) < 0)
    return -1;
  writer *w = xprof_malloc(sizeof *w);
  if (!w)
    return xprof_fail_nomem(err, name);
  w->f = f;
  w->name = name;
  w->n = 0;
  w->failed = 0;
  errno = 0;

  w_str(w, "PROFILE-FEEDBACK-DATA: 3.1 ");
  w_u64(w, p->n_objfiles);
  w_chr(w, ' ');
  w_u64(w, p->n_programs);
  w_chr(w, ' ');
  w_u64(w, xprof_count_proc_names(p));
  w_chr(w, '\n');
  if (p->runs || p->run_max_sum) {
    w_ext(w, "RUNS ");
    w_u64(w, p->runs);
    w_chr(w, ' ');
    w_u64(w, p->run_max_sum);
    w_chr(w, '\n');
  }
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    const xprof_objfile *o = &p->objfiles[i];
    w_str(w, "OBJFILE: ");
    w_token(w, o->path);
    w_chr(w, ' ');
    w_u64(w, o->n_procs);
    w_chr(w, ' ');
    w_u64(w, o->tv_sec);
    w_chr(w, ' ');
    w_u64(w, o->tv_usec);
    w_chr(w, ' ');
    w_u64(w, o->n_values_per_vp);
    w_chr(w, '\n');
    w_hex(w, o->signature);
    w_chr(w, '\n');
    w_stats(w, &o->stats);
    for (uint32_t j = 0; j < o->n_procs; j++)
      w_proc(w, o, &o->procs[j]);
  }
  for (uint32_t i = 0; i < p->n_programs; i++) {
    const xprof_program *g = &p->programs[i];
    w_str(w, "PROGRAM: ");
    w_token(w, g->path);
    w_chr(w, ' ');
    w_u64(w, g->n_objrefs);
    w_chr(w, '\n');
    w_stats(w, &g->stats);
    for (uint32_t j = 0; j < g->n_objrefs; j++) {
      w_str(w, "OBJREF: ");
      w_token(w, g->objrefs[j]);
      w_chr(w, '\n');
    }
  }
  w_ext_tail(w, p);
  w_flush(w);
  if (!w->failed && fflush(f) != 0)
    w->failed = errno ? errno : EIO;
  int failed = w->failed;
  xprof_free(w);
  if (failed)
    return xprof_fail(err, XPROF_ERR_IO, "%s: write error: %s", name,
                      strerror(failed));
  return 0;
}

struct text_ctx {
  const xprof_profile *p;
};

static int write_text_fd(void *ctx, int fd, const char *name,
                         xprof_error *err) {
  struct text_ctx *c = ctx;
  int fd2 = dup(fd);
  FILE *f = fd2 >= 0 ? fdopen(fd2, "w") : NULL;
  if (!f) {
    if (fd2 >= 0)
      close(fd2);
    return xprof_fail(err, XPROF_ERR_IO, "%s: %s", name, strerror(errno));
  }
  int rc = xprof_text_write_stream(c->p, f, name, err);
  if (fclose(f) != 0 && rc == 0)
    rc = xprof_fail(err, XPROF_ERR_IO, "%s: write error: %s", name,
                    strerror(errno));
  return rc;
}

int xprof_text_write_file(const xprof_profile *p, const char *path,
                          xprof_error *err) {
  if (strcmp(path, "-") == 0)
    return xprof_text_write_stream(p, stdout, "<stdout>", err);
  struct text_ctx c = {p};
  return xprof_atomic_write(path, write_text_fd, &c, err);
}
