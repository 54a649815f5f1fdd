/*
 * linetab.c - writing a coverage table (OBJECT.xpcov): the graphs the
 * collect pass instrumented with the source lines of their blocks, for
 * xprof_tcov and for line profiles.  The format is the CFG dump's,
 * version 7 (xprof_graph.h).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "xprof_graph.h"

/* An inline context: function `name` inlined at line `call_line` of its
 * parent context (UINT32_MAX: the procedure itself). */
typedef struct ctx_key {
  char *name;
  uint32_t parent, call_line;
  uint64_t hash;
} ctx_key;

typedef struct seen_line {
  uint32_t file, line;
} seen_line;

/* A line (column 0: its L record) or a column of one of the blocks of
 * the procedure being written; ctx: its inline context. */
typedef struct placed {
  uint32_t file, line, ctx, column, node;
} placed;

struct xprof_linetab {
  FILE *f; /* a memory stream: the file is written whole at the end */
  char *buf;
  size_t len;
  const char **names; /* source names as the compiler gave them */
  uint32_t n_names, cap_names, last;
  ctx_key *ctxs;        /* inline contexts, O records given */
  uint32_t n_ctxs, cap_ctxs;
  uint32_t *ctx_slots;  /* a hash of ctxs: index + 1, 0 empty */
  uint32_t ctx_mask;
  uint32_t node;      /* the block whose lines `seen` holds */
  seen_line *seen;
  uint32_t n_seen, cap_seen;
  placed *places; /* the procedure's lines and columns, for its A records */
  uint32_t n_places, cap_places;
  int has_lines, failed;
};

xprof_linetab *xprof_linetab_begin(int gcc_rules) {
  xprof_linetab *t = xprof_calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->f = open_memstream(&t->buf, &t->len);
  if (!t->f) {
    xprof_free(t);
    return NULL;
  }
  fputs(gcc_rules ? "XPCFG 7\nR gcc\n" : "XPCFG 7\nR llvm\n", t->f);
  return t;
}

/* An absolute name for a source the compiler named relative to its
 * working directory: the real path when the file is there. */
static char *absolute_source(const char *name) {
  char real[PATH_MAX], cwd[PATH_MAX];
  if (realpath(name, real))
    return xprof_format("%s", real);
  if (name[0] == '/' || !getcwd(cwd, sizeof cwd))
    return xprof_format("%s", name);
  return xprof_format("%s/%s", cwd, name);
}

uint64_t xprof_source_hash(const char *path) {
  unsigned char *bytes;
  size_t len;
  if (xprof_slurp(path, &bytes, &len, NULL) < 0)
    return 0;
  uint64_t h = xprof_hash64(bytes, len);
  xprof_free(bytes);
  return h;
}

/* The S record of a new source: what the file is now, at compile time,
 * so that a reader can tell when it changed since. */
static void write_source(xprof_linetab *t, uint32_t idx, const char *name) {
  char *abs = absolute_source(name);
  struct stat st;
  uint64_t size = 0, mtime = 0, hash = 0;
  if (abs && stat(abs, &st) == 0 && (hash = xprof_source_hash(abs)) != 0) {
    size = (uint64_t)st.st_size;
    mtime = (uint64_t)st.st_mtime;
  }
  fprintf(t->f, "S %u %" PRIu64 " %" PRIu64 " 0x%" PRIx64 " %s\n", idx, size, mtime, hash,
          abs ? abs : name);
  xprof_free(abs);
}

/* The index of source `name`, given an S record on first use. */
static uint32_t source_index(xprof_linetab *t, const char *name) {
  if (t->n_names && strcmp(t->names[t->last], name) == 0)
    return t->last;
  for (uint32_t i = 0; i < t->n_names; i++)
    if (strcmp(t->names[i], name) == 0)
      return t->last = i;
  char *copy = xprof_format("%s", name);
  if (!copy || xprof_grow((void **)&t->names, &t->cap_names, t->n_names, sizeof *t->names) < 0) {
    xprof_free(copy);
    t->failed = 1;
    return UINT32_MAX;
  }
  t->names[t->n_names] = copy;
  write_source(t, t->n_names, name);
  return t->last = t->n_names++;
}

static int placed_cmp(const void *a, const void *b) {
  const placed *x = a, *y = b;
  uint32_t kx[5] = {x->file, x->line, x->ctx, x->column, x->node};
  uint32_t ky[5] = {y->file, y->line, y->ctx, y->column, y->node};
  for (int i = 0; i < 5; i++)
    if (kx[i] != ky[i])
      return kx[i] < ky[i] ? -1 : 1;
  return 0;
}

static int same_line(const placed *a, const placed *b) {
  return a->file == b->file && a->line == b->line && a->ctx == b->ctx;
}

/* Whether the columns of the line at p[0..n) (sorted; its L records
 * first, column 0) would tell a reader anything: whether some column is
 * on other blocks than the line is.  A column's count is that of its
 * busiest block, as a line's is; a column on exactly the line's blocks
 * always has the line's count, and a line without columns means that. */
static int columns_inform(const placed *p, uint32_t n) {
  uint32_t n_line = 0;
  while (n_line < n && p[n_line].column == 0)
    n_line++;
  for (uint32_t i = n_line; i < n;) {
    uint32_t end = i, k = 0;
    while (end < n && p[end].column == p[i].column)
      end++;
    if (end - i != n_line)
      return 1;
    for (; i < end; i++, k++)
      if (p[i].node != p[k].node)
        return 1;
  }
  return 0;
}

/* The A records of the procedure just written: the columns of its lines
 * where they say more than the lines do (columns_inform), which is where
 * one line is several blocks with different code on it. */
static void put_columns(xprof_linetab *t) {
  placed *p = t->places;
  uint32_t n = 0;
  xprof_sort(p, t->n_places, sizeof *p, placed_cmp);
  for (uint32_t i = 0; i < t->n_places; i++) /* a block gives a line or column once */
    if (n == 0 || placed_cmp(&p[n - 1], &p[i]) != 0)
      p[n++] = p[i];
  for (uint32_t i = 0, end; i < n; i = end) {
    for (end = i; end < n && same_line(&p[end], &p[i]);)
      end++;
    if (!columns_inform(p + i, end - i))
      continue;
    for (uint32_t k = i; k < end; k++) {
      if (!p[k].column)
        continue;
      if (p[k].ctx == UINT32_MAX)
        fprintf(t->f, "A %u %u %u %u\n", p[k].node, p[k].file, p[k].line, p[k].column);
      else
        fprintf(t->f, "A %u %u %u %u %u\n", p[k].node, p[k].file, p[k].line, p[k].column,
                p[k].ctx);
    }
  }
  t->n_places = 0;
}

/* Remember a line or column of the procedure for put_columns. */
static void add_place(xprof_linetab *t, placed p) {
  if (xprof_grow((void **)&t->places, &t->cap_places, t->n_places, sizeof *t->places) < 0) {
    t->failed = 1;
    return;
  }
  t->places[t->n_places++] = p;
}

void xprof_linetab_proc(xprof_linetab *t, const char *name, uint64_t signature, uint32_t n_nodes,
                        const xprof_edge *edges, uint32_t n_edges,
                        const uint32_t *counter_of_edge, uint32_t n_counters, int comdat,
                        const char *decl_file, uint32_t decl_line) {
  put_columns(t);
  xprof_cfgdump_proc(t->f, name, signature, n_nodes, edges, n_edges, counter_of_edge,
                     n_counters, 0);
  if (comdat)
    fputs("C\n", t->f);
  t->n_seen = 0;
  t->node = UINT32_MAX;
  if (!decl_file || !decl_file[0] || !decl_line)
    return;
  uint32_t file = source_index(t, decl_file);
  if (file != UINT32_MAX)
    fprintf(t->f, "F %u %u\n", file, decl_line);
}

void xprof_linetab_end_line(xprof_linetab *t, uint32_t line) {
  if (line)
    fprintf(t->f, "N %u\n", line);
}

static uint64_t ctx_hash(const char *name, uint32_t parent, uint32_t call_line) {
  uint64_t h = xprof_hash64(name, strlen(name));
  return h ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)call_line << 32);
}

/* Put context i in the hash, doubling it when half full; 0 or -1. */
static int ctx_insert(xprof_linetab *t, uint32_t i) {
  if (2 * (t->n_ctxs + 1) > t->ctx_mask + 1 || !t->ctx_slots) {
    uint32_t size = t->ctx_slots ? 2 * (t->ctx_mask + 1) : 64;
    uint32_t *slots = xprof_calloc(size, sizeof *slots);
    if (!slots)
      return -1;
    xprof_free(t->ctx_slots);
    t->ctx_slots = slots;
    t->ctx_mask = size - 1;
    for (uint32_t k = 0; k < i; k++)
      ctx_insert(t, k);
  }
  uint32_t at = (uint32_t)t->ctxs[i].hash & t->ctx_mask;
  while (t->ctx_slots[at])
    at = (at + 1) & t->ctx_mask;
  t->ctx_slots[at] = i + 1;
  return 0;
}

/* The index of the context of frame f inside context `parent`, given an O
 * record on first use; UINT32_MAX when it cannot be named. */
static uint32_t ctx_index(xprof_linetab *t, uint32_t parent, const xprof_inline_frame *f) {
  if (!f->fn || !f->fn[0] || strpbrk(f->fn, " \t\n") || !f->fn_file || !f->fn_file[0] ||
      !f->fn_line || !f->call_line)
    return UINT32_MAX;
  uint64_t h = ctx_hash(f->fn, parent, f->call_line);
  for (uint32_t at = t->ctx_slots ? (uint32_t)h & t->ctx_mask : 0; t->ctx_slots && t->ctx_slots[at];
       at = (at + 1) & t->ctx_mask) {
    const ctx_key *c = &t->ctxs[t->ctx_slots[at] - 1];
    if (c->hash == h && c->parent == parent && c->call_line == f->call_line &&
        strcmp(c->name, f->fn) == 0)
      return t->ctx_slots[at] - 1;
  }
  uint32_t k = source_index(t, f->fn_file);
  char *copy = k == UINT32_MAX ? NULL : xprof_format("%s", f->fn);
  if (!copy || xprof_grow((void **)&t->ctxs, &t->cap_ctxs, t->n_ctxs, sizeof *t->ctxs) < 0) {
    xprof_free(copy);
    t->failed = 1;
    return UINT32_MAX;
  }
  t->ctxs[t->n_ctxs] = (ctx_key){copy, parent, f->call_line, h};
  if (ctx_insert(t, t->n_ctxs) < 0) {
    xprof_free(copy);
    t->failed = 1;
    return UINT32_MAX;
  }
  if (parent == UINT32_MAX)
    fprintf(t->f, "O %u - %u %u %u %s\n", t->n_ctxs, f->call_line, k, f->fn_line, f->fn);
  else
    fprintf(t->f, "O %u %u %u %u %u %s\n", t->n_ctxs, parent, f->call_line, k, f->fn_line,
            f->fn);
  return t->n_ctxs++;
}

/* The context of the innermost frame that can be named (O records
 * given where new), UINT32_MAX: the procedure's own code. */
static uint32_t context_of(xprof_linetab *t, const xprof_inline_frame *frames, uint32_t depth) {
  uint32_t ctx = UINT32_MAX;
  for (uint32_t i = depth; i-- > 0;) { /* from the outermost in */
    uint32_t c = ctx_index(t, ctx, &frames[i]);
    if (c == UINT32_MAX)
      break; /* the deepest context that can be named */
    ctx = c;
  }
  return ctx;
}

/* An L record, or (tag 'M') a line that only debug statements give. */
static void put_line(xprof_linetab *t, char tag, uint32_t node, const char *file, uint32_t line,
                     const xprof_inline_frame *frames, uint32_t depth) {
  if (!file || !file[0] || !line)
    return;
  uint32_t k = source_index(t, file);
  if (k == UINT32_MAX)
    return;
  if (node != t->node) {
    t->node = node;
    t->n_seen = 0;
  }
  for (uint32_t i = 0; i < t->n_seen; i++) /* a block has few lines */
    if (t->seen[i].file == k && t->seen[i].line == line)
      return;
  uint32_t ctx = context_of(t, frames, depth);
  if (xprof_grow((void **)&t->seen, &t->cap_seen, t->n_seen, sizeof *t->seen) < 0) {
    t->failed = 1;
    return;
  }
  t->seen[t->n_seen++] = (seen_line){k, line};
  if (tag == 'L')
    add_place(t, (placed){k, line, ctx, 0, node});
  if (ctx == UINT32_MAX)
    fprintf(t->f, "%c %u %u %u\n", tag, node, k, line);
  else
    fprintf(t->f, "%c %u %u %u %u\n", tag, node, k, line, ctx);
  t->has_lines = 1;
}

void xprof_linetab_inlined_line(xprof_linetab *t, uint32_t node, const char *file, uint32_t line,
                                const xprof_inline_frame *frames, uint32_t depth) {
  put_line(t, 'L', node, file, line, frames, depth);
}

void xprof_linetab_marker_line(xprof_linetab *t, uint32_t node, const char *file, uint32_t line,
                               const xprof_inline_frame *frames, uint32_t depth) {
  put_line(t, 'M', node, file, line, frames, depth);
}

void xprof_linetab_site(xprof_linetab *t, uint32_t site, uint32_t kind, const char *file,
                        uint32_t line, const xprof_inline_frame *frames, uint32_t depth) {
  uint32_t k = file && file[0] && line ? source_index(t, file) : UINT32_MAX;
  if (k == UINT32_MAX)
    return;
  uint32_t ctx = context_of(t, frames, depth);
  if (ctx == UINT32_MAX)
    fprintf(t->f, "V %u %u %u %u\n", site, kind, k, line);
  else
    fprintf(t->f, "V %u %u %u %u %u\n", site, kind, k, line, ctx);
}

void xprof_linetab_column(xprof_linetab *t, uint32_t node, const char *file, uint32_t line,
                          uint32_t column, const xprof_inline_frame *frames, uint32_t depth) {
  uint32_t k = file && file[0] && line && column ? source_index(t, file) : UINT32_MAX;
  if (k != UINT32_MAX)
    add_place(t, (placed){k, line, context_of(t, frames, depth), column, node});
}

void xprof_linetab_line(xprof_linetab *t, uint32_t node, const char *file, uint32_t line) {
  xprof_linetab_inlined_line(t, node, file, line, NULL, 0);
}

void xprof_linetab_call(xprof_linetab *t, uint32_t node, const char *callee) {
  if (callee && callee[0] && !strpbrk(callee, " \t\n"))
    fprintf(t->f, "K %u %s\n", node, callee);
}

void xprof_linetab_piece(xprof_linetab *t, uint32_t node) {
  fprintf(t->f, "B %u\n", node);
  t->node = UINT32_MAX; /* a new block for gcov: its lines start afresh */
}

void xprof_linetab_edge_block(xprof_linetab *t, uint32_t edge, const char *file, uint32_t line) {
  uint32_t k = file && file[0] && line ? source_index(t, file) : UINT32_MAX;
  if (k == UINT32_MAX) {
    fprintf(t->f, "E %u\n", edge);
    return;
  }
  fprintf(t->f, "E %u %u %u\n", edge, k, line);
  t->has_lines = 1;
}

int xprof_linetab_has_lines(const xprof_linetab *t) { return t->has_lines; }

static int write_buffer(void *ctx, int fd, const char *name, xprof_error *err) {
  const xprof_linetab *t = ctx;
  return xprof_write_all(fd, t->buf, t->len, name, err);
}

/* Free t but for its text. */
static void free_table(xprof_linetab *t) {
  for (uint32_t i = 0; i < t->n_names; i++)
    xprof_free((char *)t->names[i]);
  xprof_free(t->names);
  for (uint32_t i = 0; i < t->n_ctxs; i++)
    xprof_free(t->ctxs[i].name);
  xprof_free(t->ctxs);
  xprof_free(t->ctx_slots);
  xprof_free(t->seen);
  xprof_free(t->places);
  xprof_free(t);
}

int xprof_linetab_end(xprof_linetab *t, const char *path, xprof_error *err) {
  int rc = 0;
  put_columns(t);
  if (fclose(t->f) != 0 || t->failed)
    rc = path ? xprof_fail_nomem(err, path) : -1;
  else if (path)
    rc = xprof_replace_file(path, write_buffer, t, err);
  free(t->buf); /* open_memstream's, from the C library's malloc */
  free_table(t);
  return rc;
}

int xprof_linetab_take(xprof_linetab *t, char **text, size_t *len) {
  *text = NULL;
  *len = 0;
  put_columns(t);
  if (fclose(t->f) != 0 || t->failed) {
    free(t->buf);
  } else {
    *text = t->buf;
    *len = t->len;
  }
  free_table(t);
  return *text ? 0 : -1;
}

char *xprof_linetab_path(const char *objpath, const char *dir) {
  if (!dir || !dir[0])
    return xprof_format("%s.xpcov", objpath);
  char *path = xprof_format("%s/%s.xpcov", dir, objpath);
  if (!path)
    return NULL;
  for (char *p = path + strlen(dir) + 1; *p; p++)
    if (*p == '/')
      *p = '#';
  return path;
}

int xprof_linetab_write(xprof_linetab *t, const char *objpath, const char *dir,
                        xprof_error *err) {
  char *path = xprof_linetab_path(objpath, dir);
  if (!path || (dir && xprof_mkdirs(dir, err) < 0)) {
    xprof_linetab_end(t, NULL, NULL);
    if (!path)
      xprof_fail_nomem(err, objpath);
    xprof_free(path);
    return -1;
  }
  int rc = xprof_linetab_end(t, path, err);
  xprof_free(path);
  return rc;
}
