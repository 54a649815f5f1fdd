/*
 * ship.c - what a compiler cache must know of a use build: a digest of
 * exactly the profile data that one compilation reads (its object file's
 * data and the parts of the whole profile's summary the compiler looks
 * at), so that a cache misses when that data changed and still hits when
 * only other object files' data did.
 */
#define _GNU_SOURCE
#include <ctype.h>
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
 *   # xprof use data 4 <summary: 54 numbers> <object> <lines>
 * which the drivers put into a top-level asm statement: the plugins take
 * it out before anything is emitted.  <object> is the object file's data
 * as xprof_text, <lines> the part of the line profile that the source may
 * define (clang's text, as the profile directory keeps it), each in
 * base64 or "-" for none.  The summary travels as numbers because a
 * profile of one object file would give another one.  The version after
 * the tag changes with what is shipped: version 1 lacked the training
 * runs, version 2 the first-run ranks and the shapes (the text of its
 * time had no extension lines), version 3 the lines. */

static const char ship_tag[] = "# xprof use data 4 ";
static const char ship_prefix[] = "# xprof use data "; /* of every version */

/* The line profile as clang's text, malloc'd by the C library, *n its
 * length; NULL when out of memory. */
static char *lines_text(const xprof_lineprof *lp, size_t *n) {
  char *text = NULL;
  FILE *f = open_memstream(&text, n);
  if (!f)
    return NULL;
  int rc = xprof_lineprof_write_llvm(f, lp);
  if (fclose(f) != 0 || rc < 0) {
    free(text);
    return NULL;
  }
  return text;
}

/* Text of n bytes (malloc'd by the C library, freed here) in base64, or
 * "-" for no text; NULL when out of memory. */
static char *coded(char *text, size_t n, int wanted) {
  if (!wanted)
    return xprof_format("-");
  char *b = text ? xprof_base64(text, n) : NULL;
  free(text);
  return b;
}

char *xprof_use_ship(const xprof_objfile *o, const xprof_summary *s, const xprof_lineprof *lines) {
  size_t n_obj = 0, n_lines = 0;
  char *obj_text = o ? objfile_text(o, &n_obj) : NULL;
  char *obj = coded(obj_text, n_obj, o != NULL);
  char *lines_txt = lines ? lines_text(lines, &n_lines) : NULL;
  char *lp = coded(lines_txt, n_lines, lines != NULL);
  char head[1024];
  summary_text(s, XPROF_DIGEST_SUMMARY, head, sizeof head);
  char *line = obj && lp ? xprof_format("%s%s %s %s", ship_tag, head, obj, lp) : NULL;
  xprof_free(obj);
  xprof_free(lp);
  return line;
}

/* ---- the part of the line profile a source may define ------------------- */

/* An identifier that a function's symbol name is made of. */
typedef struct name_part {
  const char *s;
  size_t len;
  uint32_t func; /* the function's index in the line profile */
} name_part;

typedef struct name_parts {
  name_part *v;
  uint32_t n, cap;
} name_parts;

static int ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

static int push_part(name_parts *p, const char *s, size_t len, uint32_t func) {
  if (xprof_grow((void **)&p->v, &p->cap, p->n, sizeof *p->v) < 0)
    return -1;
  p->v[p->n++] = (name_part){s, len, func};
  return 0;
}

/* The identifiers of symbol `name` into p: a C name up to a clone's
 * ".suffix"; of a C++ mangled name, each source name (<length><id>) --
 * more than the function's own name (its scopes, its argument types),
 * which only lets more through.  0 or -1. */
static int name_parts_of(name_parts *p, const char *name, uint32_t func) {
  if (strncmp(name, "_Z", 2) != 0) {
    size_t len = strcspn(name, ".");
    return len ? push_part(p, name, len, func) : 0;
  }
  for (size_t i = 2; name[i];) {
    if (!isdigit((unsigned char)name[i])) {
      i++;
      continue;
    }
    char *end;
    unsigned long len = strtoul(name + i, &end, 10);
    size_t at = (size_t)(end - name), k = 0;
    while (k < len && ident_char((unsigned char)name[at + k]))
      k++;
    if (len && k == len && push_part(p, name + at, len, func) < 0)
      return -1;
    i = at + k;
  }
  return 0;
}

static int part_cmp(const void *a, const void *b) {
  const name_part *x = a, *y = b;
  if (x->len != y->len)
    return x->len < y->len ? -1 : 1;
  return memcmp(x->s, y->s, x->len);
}

/* Mark in keep the functions that identifier s[0..len) is a part of. */
static void mark_named(const name_parts *p, const char *s, size_t len, unsigned char *keep) {
  name_part key = {s, len, 0};
  uint32_t a = 0, b = p->n;
  while (a < b) { /* the first part not below s */
    uint32_t mid = a + (b - a) / 2;
    if (part_cmp(&p->v[mid], &key) < 0)
      a = mid + 1;
    else
      b = mid;
  }
  for (; a < p->n && part_cmp(&p->v[a], &key) == 0; a++)
    keep[p->v[a].func] = 1;
}

int xprof_lines_for_source(xprof_lineprof *lp, const char *text, size_t len) {
  name_parts p = {NULL, 0, 0};
  unsigned char *keep = xprof_calloc(lp->n_funcs + 1, 1);
  int rc = keep ? 0 : -1;
  for (uint32_t i = 0; rc == 0 && i < lp->n_funcs; i++) {
    uint32_t before = p.n;
    rc = name_parts_of(&p, lp->funcs[i].name, i);
    keep[i] = rc == 0 && p.n == before; /* a name of no identifier stays */
  }
  if (rc == 0) {
    if (p.n > 1)
      xprof_sort(p.v, p.n, sizeof *p.v, part_cmp);
    for (size_t i = 0; i < len;) {
      if (!ident_char((unsigned char)text[i])) {
        i++;
        continue;
      }
      size_t start = i;
      while (i < len && ident_char((unsigned char)text[i]))
        i++;
      if (!isdigit((unsigned char)text[start])) /* a number is no name */
        mark_named(&p, text + start, i - start, keep);
    }
    xprof_lineprof_keep(lp, keep);
  }
  xprof_free(p.v);
  xprof_free(keep);
  return rc;
}

/* The line profile that a use build of objpath reads, as xprof_use_open
 * finds it, with the entries of its own that xprof_use_open gives
 * functions inlined everywhere; NULL when it reads none. */
static xprof_lineprof *lines_read(const char *const *names, unsigned n_names,
                                  const char *const *pathmap, unsigned n_pathmap,
                                  const char *objpath, int has_obj, int any_data) {
  xprof_lineprof *lp = xprof_use_lookup_lines(names, n_names, NULL, NULL);
  xprof_missing why = XPROF_MISSING_UNLINKED;
  if (lp && !has_obj && any_data) {
    char *map = NULL;
    why = xprof_use_explain_missing(names, n_names, pathmap, n_pathmap, objpath, &map);
    xprof_free(map);
  }
  if (lp && (!xprof_use_takes_lines(lp, has_obj, why) ||
             xprof_lineprof_fold_inlined(lp, 0) < 0)) {
    xprof_lineprof_free(lp);
    lp = NULL;
  }
  return lp;
}

char *xprof_use_ship_for(const char *const *names, unsigned n_names, const char *const *pathmap,
                         unsigned n_pathmap, const char *objpath, const char *text, size_t len) {
  const xprof_objfile *o = NULL;
  int any = 0;
  xprof_profile *p =
      xprof_use_lookup(names, n_names, pathmap, n_pathmap, objpath, &o, &any, NULL, NULL);
  xprof_lineprof *lp = lines_read(names, n_names, pathmap, n_pathmap, objpath, o != NULL, any);
  xprof_summary s;
  if (o && p->summary)
    s = *p->summary;
  else if (o)
    xprof_compute_summary(p, &s);
  else if (lp && !xprof_use_whole_summary(names, n_names, &s))
    xprof_lineprof_summary(lp, &s);
  /* Out of memory, the whole line profile goes: more than needed. */
  if (lp && text)
    xprof_lines_for_source(lp, text, len);
  char *line = o || lp ? xprof_use_ship(o, &s, lp) : NULL;
  xprof_lineprof_free(lp);
  xprof_profile_free(p);
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

/* The shipped summary: SHIP_NUMBERS numbers from *p on (*p moved past
 * them); 0, or -1 when there are fewer. */
static int read_summary(char **p, xprof_summary *s) {
  unsigned long long v[SHIP_NUMBERS];
  for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
    char *end;
    v[i] = strtoull(*p, &end, 10);
    if (end == *p)
      return -1;
    *p = end;
  }
  s->total_max = v[0], s->total_sum = v[1], s->n_counts = v[2], s->n_procs = v[3];
  s->runs = v[4], s->run_max_sum = v[5];
  for (unsigned i = 0; i < XPROF_SUMMARY_CUTOFFS; i++) {
    s->entry[i].cutoff = (uint32_t)v[6 + 3 * i];
    s->entry[i].min_count = v[7 + 3 * i];
    s->entry[i].num_counts = v[8 + 3 * i];
  }
  return 0;
}

/* The next word of *p (moved past it) decoded from base64: 1 with *text
 * and *n set, 0 for "-" (none), -1 with err set. */
static int read_part(char **p, const char *what, unsigned char **text, size_t *n,
                     xprof_error *err) {
  while (**p == ' ')
    (*p)++;
  size_t len = strcspn(*p, " ");
  char *word = *p;
  *p += len;
  if (len == 1 && word[0] == '-')
    return 0;
  int ok = len ? xprof_unbase64(word, len, text, n) : 0;
  if (ok < 0)
    return xprof_fail_nomem(err, "shipped profile data");
  if (!ok)
    return xprof_fail(err, XPROF_ERR_FORMAT, "shipped profile data: bad base64 in its %s", what);
  return 1;
}

/* The object file's data from xprof_text into a profile of its own. */
static int read_object(const unsigned char *text, size_t n, xprof_profile **out,
                       xprof_error *err) {
  if (xprof_text_parse("shipped profile data", (const char *)text, n, out, err) < 0)
    return -1;
  if ((*out)->n_objfiles == 1)
    return 0;
  xprof_fail(err, XPROF_ERR_FORMAT, "shipped profile data: %u object files, not 1",
             (*out)->n_objfiles);
  xprof_profile_free(*out);
  *out = NULL;
  return -1;
}

/* The line profile from clang's text; NULL (0) when it has no
 * functions. */
static int read_lines(const unsigned char *text, size_t n, xprof_lineprof **out,
                      xprof_error *err) {
  if (xprof_lineprof_read_llvm("shipped line profile", (const char *)text, n, out, err) < 0)
    return -1;
  if (!(*out)->n_funcs) {
    xprof_lineprof_free(*out);
    *out = NULL;
  }
  return 0;
}

/* The version check: 0, or -1 with err naming the versions. */
static int ship_version(const char *line, size_t len, xprof_error *err) {
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
  return 0;
}

int xprof_use_unship(const char *line, size_t len, xprof_profile **out, xprof_lineprof **lines,
                     xprof_error *err) {
  *out = NULL;
  *lines = NULL;
  if (ship_version(line, len, err) < 0)
    return -1;
  size_t tn = sizeof ship_tag - 1;
  char *copy = xprof_format("%.*s", (int)(len - tn), line + tn);
  if (!copy)
    return xprof_fail_nomem(err, "shipped profile data");
  xprof_summary s;
  char *p = copy;
  unsigned char *obj = NULL, *lp = NULL;
  size_t n_obj = 0, n_lp = 0;
  int rc = read_summary(&p, &s) < 0
               ? xprof_fail(err, XPROF_ERR_FORMAT, "shipped profile data: a short summary")
               : 0;
  int has_obj = rc < 0 ? -1 : read_part(&p, "object file data", &obj, &n_obj, err);
  int has_lp = has_obj < 0 ? -1 : read_part(&p, "line profile", &lp, &n_lp, err);
  xprof_free(copy);
  rc = has_lp < 0 ? -1 : has_obj ? read_object(obj, n_obj, out, err) : 0;
  if (rc == 0 && has_lp)
    rc = read_lines(lp, n_lp, lines, err);
  xprof_free(obj);
  xprof_free(lp);
  if (rc == 0 && !*out && !(*out = xprof_profile_new()))
    rc = xprof_fail_nomem(err, "shipped profile data");
  if (rc == 0 && !((*out)->summary = xprof_alloc(*out, sizeof s)))
    rc = xprof_fail_nomem(err, "shipped profile data");
  if (rc < 0) {
    xprof_profile_free(*out);
    xprof_lineprof_free(*lines);
    *out = NULL;
    *lines = NULL;
    return -1;
  }
  *(*out)->summary = s;
  return 0;
}
