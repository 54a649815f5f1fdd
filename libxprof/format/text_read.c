/*
 * text_read.c - parse xprof_text(4).
 *
 * The parser reads line by line and names the line of every problem
 * (the lines and fields: text_lex.c; xprof's extension lines, which carry
 * what binary data holds beyond 3.1: text_ext.c).
 * Beyond the page: blank lines and lines starting with '#' are ignored
 * (for hand-edited files), fields may be separated by any run of blanks,
 * counter records may come in any order (they are sorted), and a value
 * field must be absent when its count is 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "text.h"

/* Optional "max N" / "sum N" lines.  An extension line ends them, and
 * stays pending for whoever takes it (text_ext.c). */
static int parse_stats(text_reader *r, xprof_stats *s) {
  for (;;) {
    r->ext = 1;
    int rc = xprof_tr_next_line(r);
    r->ext = 0;
    if (rc <= 0)
      return rc;
    if (xprof_tr_is(r, 0, "max") || xprof_tr_is(r, 0, "sum")) {
      int is_max = xprof_tr_is(r, 0, "max");
      if (xprof_tr_fields(r, 2, is_max ? "max statistic" : "sum statistic") < 0)
        return -1;
      if ((is_max && s->has_max) || (!is_max && s->has_sum))
        return xprof_tr_fail(r, "%s statistic given twice", is_max ? "max" : "sum");
      if (xprof_tr_u64(r, 1, is_max ? "max count" : "sum count",
                    is_max ? &s->max : &s->sum) < 0)
        return -1;
      if (is_max)
        s->has_max = 1;
      else
        s->has_sum = 1;
      xprof_tr_consume(r);
      continue;
    }
    return 0;
  }
}

typedef struct pair {
  uint32_t id;
  uint64_t value;
} pair;

static int pair_cmp(const void *a, const void *b) {
  uint32_t x = ((const pair *)a)->id, y = ((const pair *)b)->id;
  return x < y ? -1 : x > y;
}

static int vp_cmp(const void *a, const void *b) {
  uint32_t x = ((const xprof_vp_record *)a)->expr_id,
           y = ((const xprof_vp_record *)b)->expr_id;
  return x < y ? -1 : x > y;
}

static int parse_float_token(const char *t, size_t n, int is_double,
                             uint64_t *bits) {
  char buf[80];
  if (n == 0 || n >= sizeof buf)
    return -1;
  memcpy(buf, t, n);
  buf[n] = 0;
  const char *s = buf;
  int neg = 0;
  if (*s == '-' || *s == '+')
    neg = *s++ == '-';
  if (strncmp(s, "nan(0x", 6) == 0 && buf[n - 1] == ')') {
    uint64_t m = 0;
    size_t digits = 0;
    for (const char *q = s + 6; *q != ')'; q++, digits++) {
      int d = xprof_hexval(*q);
      if (d < 0 || digits >= 16)
        return -1;
      m = m << 4 | (uint64_t)d;
    }
    if (is_double) {
      if (m == 0 || m > 0xfffffffffffffull)
        return -1;
      *bits = (uint64_t)neg << 63 | 0x7ff0000000000000ull | m;
    } else {
      if (m == 0 || m > 0x7fffff)
        return -1;
      *bits = (uint64_t)neg << 31 | 0x7f800000u | m;
    }
    return 0;
  }
  char *e;
  errno = 0;
  if (is_double) {
    double d = strtod(buf, &e);
    if (*e || e == buf || isnan(d))
      return -1;
    memcpy(bits, &d, sizeof d);
  } else {
    float f = strtof(buf, &e);
    uint32_t b;
    if (*e || e == buf || isnan(f))
      return -1;
    memcpy(&b, &f, sizeof b);
    *bits = b;
  }
  return 0;
}

static int parse_vp_line(text_reader *r, xprof_vp_type *type, uint32_t *expr,
                         xprof_vp_value *x) {
  char b[48];
  int t;
  for (t = 0; t < XPROF_VP_NTYPES; t++)
    if (xprof_tr_is(r, 0, xprof_vp_type_name((xprof_vp_type)t)))
      break;
  if (t == XPROF_VP_NTYPES)
    return xprof_tr_fail(r,
                 "expected a value-profile record (VP_INT, VP_LLONG, "
                 "VP_FLOAT, VP_DOUBLE or VP_PROC), found %s",
                 xprof_tr_show(r, 0, b, sizeof b));
  *type = (xprof_vp_type)t;
  if (r->ntok < 3 || r->ntok > 4)
    return xprof_tr_fail(r, "value-profile record has %d fields, expected 3 or 4",
                 r->ntok);
  if (xprof_tr_u32(r, 1, "expression id", expr) < 0 ||
      xprof_tr_u64(r, 2, "value count", &x->count) < 0)
    return -1;
  if (r->ntok == 3)
    return 0;
  if (x->count == 0)
    return xprof_tr_fail(r, "a value is given for a zero count (the value field "
                    "must be empty)");
  const char *tok = r->tok[3];
  size_t n = r->len[3];
  char *end;
  switch (*type) {
  case XPROF_VP_INT:
  case XPROF_VP_LLONG: {
    char num[32];
    if (n >= sizeof num)
      return xprof_tr_fail(r, "value %s is not an integer", xprof_tr_show(r, 3, b, sizeof b));
    memcpy(num, tok, n);
    num[n] = 0;
    errno = 0;
    long long v = strtoll(num, &end, 10);
    if (*end || end == num || errno == ERANGE ||
        (*type == XPROF_VP_INT && (v < INT32_MIN || v > INT32_MAX)))
      return xprof_tr_fail(r, "value %s is not a %s", xprof_tr_show(r, 3, b, sizeof b),
                   *type == XPROF_VP_INT ? "32-bit int" : "64-bit integer");
    x->bits = (uint64_t)(int64_t)v;
    return 0;
  }
  case XPROF_VP_FLOAT:
  case XPROF_VP_DOUBLE:
    if (parse_float_token(tok, n, *type == XPROF_VP_DOUBLE, &x->bits) < 0)
      return xprof_tr_fail(r, "value %s is not a %s", xprof_tr_show(r, 3, b, sizeof b),
                   *type == XPROF_VP_FLOAT ? "float" : "double");
    return 0;
  case XPROF_VP_PROC:
    return xprof_tr_name(r, 3, "callee name", &x->proc);
  default:
    return -1;
  }
}

/* The counter records of procedure f: read into pairs (n of them), then
 * checked for repeated ids.  Returns the pairs sorted by id (malloc'd),
 * or NULL after an error. */
static pair *read_counter_records(text_reader *r, const xprof_proc *f, uint32_t n) {
  char b[48];
  pair *pairs = xprof_malloc((size_t)n * sizeof *pairs + 1);
  if (!pairs) {
    xprof_fail_nomem(r->err, r->name);
    return NULL;
  }
  int sorted = 1;
  for (uint32_t k = 0; k < n; k++) {
    if (xprof_tr_next_line(r) <= 0) {
      if (!r->err || !r->err->code)
        xprof_tr_fail(r, "end of file inside procedure %s: %u of %u counter records read", f->name, k,
              n);
      xprof_free(pairs);
      return NULL;
    }
    if (r->ntok != 2 || r->tok[0][0] < '0' || r->tok[0][0] > '9') {
      xprof_tr_fail(r, "expected counter record '<id> <value>' (%u of %u in procedure %s), found %s",
            k + 1, n, f->name, xprof_tr_show(r, 0, b, sizeof b));
      xprof_free(pairs);
      return NULL;
    }
    if (xprof_tr_u32(r, 0, "counter id", &pairs[k].id) < 0 ||
        xprof_tr_u64(r, 1, "counter value", &pairs[k].value) < 0) {
      xprof_free(pairs);
      return NULL;
    }
    if (k && pairs[k].id <= pairs[k - 1].id)
      sorted = 0;
    xprof_tr_consume(r);
  }
  if (!sorted)
    xprof_sort(pairs, n, sizeof *pairs, pair_cmp);
  for (uint32_t k = 1; k < n; k++)
    if (pairs[k].id == pairs[k - 1].id) {
      xprof_tr_fail(r, "procedure %s: counter id %u appears twice", f->name, pairs[k].id);
      xprof_free(pairs);
      return NULL;
    }
  return pairs;
}

/* f's counters from n counter records: dense ids 0..n-1 as they are,
 * others with their ids. */
static int parse_counters(text_reader *r, xprof_proc *f, uint32_t n) {
  if (!n)
    return xprof_proc_alloc_counters(r->prof, f, 0) < 0 ? xprof_fail_nomem(r->err, r->name) : 0;
  pair *pairs = read_counter_records(r, f, n);
  if (!pairs)
    return -1;
  int dense = 1;
  for (uint32_t k = 0; k < n && dense; k++)
    dense = pairs[k].id == k;
  int rc = 0;
  if (xprof_proc_alloc_counters(r->prof, f, n) < 0 ||
      (!dense && !(f->counter_ids = xprof_alloc(r->prof, (size_t)n * sizeof(uint32_t))))) {
    rc = xprof_fail_nomem(r->err, r->name);
  } else {
    for (uint32_t k = 0; k < n; k++) {
      f->counters[k] = pairs[k].value;
      if (!dense)
        f->counter_ids[k] = pairs[k].id;
    }
  }
  xprof_free(pairs);
  return rc;
}

/* f's value-profile records: n_values_per_vp lines each, one expression
 * per record, no expression twice. */
static int parse_vp_records(text_reader *r, const xprof_objfile *o, xprof_proc *f, uint32_t n) {
  if (xprof_proc_alloc_vp(r->prof, o, f, n) < 0)
    return xprof_fail_nomem(r->err, r->name);
  for (uint32_t rec = 0; rec < n; rec++) {
    xprof_vp_record *v = &f->vp[rec];
    for (uint32_t k = 0; k < o->n_values_per_vp; k++) {
      xprof_vp_type type = XPROF_VP_INT;
      uint32_t expr = 0;
      if (xprof_tr_next_line(r) <= 0)
        return r->err && r->err->code
                   ? -1
                   : xprof_tr_fail(r, "end of file inside procedure %s: value-profile record %u of %u "
                              "incomplete",
                           f->name, rec + 1, n);
      if (parse_vp_line(r, &type, &expr, &v->values[k]) < 0)
        return -1;
      if (k == 0) {
        v->type = type;
        v->expr_id = expr;
      } else if (type != v->type || expr != v->expr_id) {
        return xprof_tr_fail(r, "value-profile record %u of procedure %s: line %u of %u has %s %u, "
                        "expected %s %u (one record is n_values_per_vp lines of one "
                        "expression)",
                     rec + 1, f->name, k + 1, o->n_values_per_vp, xprof_vp_type_name(type),
                     expr, xprof_vp_type_name(v->type), v->expr_id);
      }
      xprof_tr_consume(r);
    }
  }
  if (f->n_vp_records > 1)
    xprof_sort(f->vp, f->n_vp_records, sizeof *f->vp, vp_cmp);
  for (uint32_t rec = 1; rec < f->n_vp_records; rec++)
    if (f->vp[rec].expr_id == f->vp[rec - 1].expr_id)
      return xprof_tr_fail(r, "procedure %s: two value-profile records for expression %u", f->name,
                   f->vp[rec].expr_id);
  return 0;
}

static int parse_proc(text_reader *r, xprof_objfile *o) {
  uint32_t n_counters, n_vp_records;
  const char *name;
  if (xprof_tr_fields(r, 7, "PROC: record") < 0 ||
      xprof_tr_name(r, 1, "procedure name", &name) < 0)
    return -1;
  xprof_proc *f = xprof_add_proc(r->prof, o, name);
  if (!f)
    return xprof_fail_nomem(r->err, r->name);
  if (xprof_tr_hex64(r, 2, "procedure signature", &f->signature) < 0 ||
      xprof_tr_u32(r, 3, "n_counters", &n_counters) < 0 ||
      xprof_tr_u32(r, 4, "n_vp_sites", &f->n_vp_sites) < 0 ||
      xprof_tr_u32(r, 5, "n_vp_records", &n_vp_records) < 0 ||
      xprof_tr_u32(r, 6, "procedure id", &f->id) < 0)
    return -1;
  xprof_tr_consume(r);
  if (parse_stats(r, &f->stats) < 0 || xprof_text_ext_read_proc(r, f) < 0)
    return -1;
  /* Counts come from the file: bound them by what the input can hold
   * before allocating (every record takes at least 4 bytes). */
  uint64_t left = (uint64_t)(r->end - r->p) + (r->pending ? 64 : 0);
  if ((uint64_t)n_counters * 4 > left + 4)
    return xprof_tr_fail(r, "procedure %s declares %u counter%s, more than the rest of the file holds",
                 f->name, n_counters, xprof_plural(n_counters));
  /* (Records of no values take no lines: their count still cannot pass
   * the file's bytes; found by fuzz_text.) */
  uint64_t per_record = o->n_values_per_vp ? (uint64_t)o->n_values_per_vp * 8 : 1;
  if ((uint64_t)n_vp_records * per_record > left + 8)
    return xprof_tr_fail(r, "procedure %s declares %u value-profile record%s, more than the rest of "
                    "the file holds",
                 f->name, n_vp_records, xprof_plural(n_vp_records));
  if (parse_counters(r, f, n_counters) < 0)
    return -1;
  return parse_vp_records(r, o, f, n_vp_records);
}

static int parse_objfile(text_reader *r) {
  uint32_t n_procs;
  const char *path;
  if (xprof_tr_fields(r, 6, "OBJFILE: record") < 0 ||
      xprof_tr_name(r, 1, "object file pathname", &path) < 0)
    return -1;
  xprof_objfile *o = xprof_add_objfile(r->prof, path);
  if (!o)
    return xprof_fail_nomem(r->err, r->name);
  uint64_t usec;
  if (xprof_tr_u32(r, 2, "n_procs", &n_procs) < 0 ||
      xprof_tr_u64(r, 3, "tv_sec", &o->tv_sec) < 0 ||
      xprof_tr_u64(r, 4, "tv_usec", &usec) < 0 ||
      xprof_tr_u32(r, 5, "n_values_per_vp", &o->n_values_per_vp) < 0)
    return -1;
  if (usec > 999999)
    return xprof_tr_fail(r, "tv_usec %" PRIu64 " is not below 1000000", usec);
  o->tv_usec = (uint32_t)usec;
  if (o->n_values_per_vp > 4096)
    return xprof_tr_fail(r, "n_values_per_vp %u is unreasonably large (limit 4096)",
                 o->n_values_per_vp);
  xprof_tr_consume(r);
  if (xprof_tr_next_line(r) <= 0)
    return r->err && r->err->code ? -1
           : xprof_tr_fail(r, "end of file: expected the signature of object file %s",
                   o->path);
  if (xprof_tr_fields(r, 1, "object file signature line") < 0 ||
      xprof_tr_hex64(r, 0, "object file signature", &o->signature) < 0)
    return -1;
  xprof_tr_consume(r);
  if (parse_stats(r, &o->stats) < 0)
    return -1;
  if ((uint64_t)n_procs * 16 > (uint64_t)(r->end - r->p) + 64)
    return xprof_tr_fail(r, "object file %s declares %u procedure%s, more than the "
                    "rest of the file holds", o->path, n_procs, xprof_plural(n_procs));
  for (uint32_t j = 0; j < n_procs; j++) {
    char b[48];
    int rc = xprof_tr_next_line(r);
    if (rc < 0)
      return -1;
    if (rc == 0 || !xprof_tr_is(r, 0, "PROC:")) {
      const char *found = rc == 0 ? "end of file" : xprof_tr_show(r, 0, b, sizeof b);
      return xprof_tr_fail(r, "object file %s declares %u procedure%s, found %u "
                      "(expected PROC:, found %s)",
                   o->path, n_procs, xprof_plural(n_procs), j, found);
    }
    /* The procedure array may move while it grows: refetch o each time. */
    if (parse_proc(r, &r->prof->objfiles[r->prof->n_objfiles - 1]) < 0)
      return -1;
  }
  return 0;
}

static int parse_program(text_reader *r) {
  uint32_t n;
  const char *path;
  if (xprof_tr_fields(r, 3, "PROGRAM: record") < 0 ||
      xprof_tr_name(r, 1, "program pathname", &path) < 0 ||
      xprof_tr_u32(r, 2, "n_objfiles", &n) < 0)
    return -1;
  xprof_program *g = xprof_add_program(r->prof, path);
  if (!g)
    return xprof_fail_nomem(r->err, r->name);
  xprof_tr_consume(r);
  if (parse_stats(r, &g->stats) < 0)
    return -1;
  for (uint32_t j = 0; j < n; j++) {
    char b[48];
    const char *ref;
    int rc = xprof_tr_next_line(r);
    if (rc < 0)
      return -1;
    if (rc == 0 || !xprof_tr_is(r, 0, "OBJREF:"))
      return xprof_tr_fail(r, "program %s declares %u object file%s, found %u "
                      "(expected OBJREF:, found %s)",
                   g->path, n, xprof_plural(n), j,
                   rc ? xprof_tr_show(r, 0, b, sizeof b) : "end of file");
    if (xprof_tr_fields(r, 2, "OBJREF: record") < 0 ||
        xprof_tr_name(r, 1, "object file name", &ref) < 0)
      return -1;
    /* References are checked by xprof_validate, with a sorted table. */
    if (xprof_program_add_objref(r->prof, g, ref) < 0)
      return xprof_fail_nomem(r->err, r->name);
    xprof_tr_consume(r);
  }
  return 0;
}

static int parse_all(text_reader *r) {
  char b[48];
  uint32_t n_obj, n_prog, n_names;
  if (xprof_tr_next_line(r) <= 0)
    return r->err && r->err->code ? -1
           : xprof_tr_fail(r, "empty file: expected 'PROFILE-FEEDBACK-DATA: 3.1 ...'");
  if (!xprof_tr_is(r, 0, "PROFILE-FEEDBACK-DATA:"))
    return xprof_tr_fail(r, "not an xprof text profile: expected "
                    "'PROFILE-FEEDBACK-DATA:', found %s",
                 xprof_tr_show(r, 0, b, sizeof b));
  if (xprof_tr_fields(r, 5, "header") < 0)
    return -1;
  if (!xprof_tr_is(r, 1, "3.1")) {
    if (r->err)
      xprof_fail(r->err, XPROF_ERR_VERSION,
                 "%s:%" PRIu64 ": text format version %s is not supported "
                 "(this reader knows 3.1)",
                 r->name, r->line, xprof_tr_show(r, 1, b, sizeof b));
    return -1;
  }
  if (xprof_tr_u32(r, 2, "n_objfiles", &n_obj) < 0 ||
      xprof_tr_u32(r, 3, "n_programs", &n_prog) < 0 ||
      xprof_tr_u32(r, 4, "n_proc_names", &n_names) < 0)
    return -1;
  xprof_tr_consume(r);
  if (xprof_text_ext_read_head(r) < 0)
    return -1;
  for (uint32_t i = 0; i < n_obj; i++) {
    int rc = xprof_tr_next_line(r);
    if (rc < 0)
      return -1;
    if (rc == 0 || !xprof_tr_is(r, 0, "OBJFILE:"))
      return xprof_tr_fail(r, "header declares %u object file%s, found %u (expected "
                      "OBJFILE:, found %s)",
                   n_obj, xprof_plural(n_obj), i,
                   rc ? xprof_tr_show(r, 0, b, sizeof b) : "end of file");
    if (parse_objfile(r) < 0)
      return -1;
  }
  for (uint32_t i = 0; i < n_prog; i++) {
    int rc = xprof_tr_next_line(r);
    if (rc < 0)
      return -1;
    if (rc == 0 || !xprof_tr_is(r, 0, "PROGRAM:"))
      return xprof_tr_fail(r, "header declares %u object file%s and %u program%s, "
                      "found %u (expected PROGRAM:, found %s)",
                   n_obj, xprof_plural(n_obj), n_prog, xprof_plural(n_prog), i,
                   rc ? xprof_tr_show(r, 0, b, sizeof b) : "end of file");
    if (parse_program(r) < 0)
      return -1;
  }
  if (xprof_text_ext_read_tail(r) < 0)
    return -1;
  int rc = xprof_tr_next_line(r);
  if (rc < 0)
    return -1;
  if (rc > 0)
    return xprof_tr_fail(r, "unexpected %s after the last record (header declares "
                    "%u object file%s and %u program%s)",
                 xprof_tr_show(r, 0, b, sizeof b), n_obj, xprof_plural(n_obj), n_prog,
                 xprof_plural(n_prog));
  uint32_t names = xprof_count_proc_names(r->prof);
  if (names != n_names) {
    r->line = 1;
    return xprof_tr_fail(r, "header declares %u indirectly called procedure name%s, "
                    "the value profiles name %u", n_names, xprof_plural(n_names), names);
  }
  return 0;
}

int xprof_text_parse(const char *name, const char *buf, size_t len,
                     xprof_profile **out, xprof_error *err) {
  xprof_error local;
  if (!err)
    err = &local;
  xprof_clear_error(err);
  text_reader r = {0};
  r.name = name;
  r.p = buf + xprof_bom_len(buf, len);
  r.end = buf + len;
  r.err = err;
  r.prof = xprof_profile_new();
  if (!r.prof)
    return xprof_fail_nomem(err, name);
  int rc = parse_all(&r);
  xprof_free(r.scratch);
  if (rc == 0)
    rc = xprof_validate(r.prof, name, err);
  if (rc < 0) {
    xprof_profile_free(r.prof);
    return -1;
  }
  *out = r.prof;
  return 0;
}

int xprof_text_read_file(const char *path, xprof_profile **out,
                         xprof_error *err) {
  unsigned char *buf;
  size_t len;
  if (xprof_slurp(path, &buf, &len, err) < 0)
    return -1;
  int rc = xprof_text_parse(path, (const char *)buf, len, out, err);
  xprof_free(buf);
  return rc;
}
