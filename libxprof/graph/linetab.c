/*
 * linetab.c - writing a coverage table (OBJECT.xpcov): the graphs the
 * collect pass instrumented with the source lines of their blocks, for
 * xprof_tcov.  The format is the CFG dump's, version 2 (xprof.h).
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

typedef struct seen_line {
  uint32_t file, line;
} seen_line;

struct xprof_linetab {
  FILE *f; /* a memory stream: the file is written whole at the end */
  char *buf;
  size_t len;
  const char **names; /* source names as the compiler gave them */
  uint32_t n_names, cap_names, last;
  uint32_t node;      /* the block whose lines `seen` holds */
  seen_line *seen;
  uint32_t n_seen, cap_seen;
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
  fputs(gcc_rules ? "XPCFG 3\nR gcc\n" : "XPCFG 3\nR llvm\n", t->f);
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

/* The S record of a new source: what the file is now, at compile time,
 * so that a reader can tell when it changed since. */
static void write_source(xprof_linetab *t, uint32_t idx, const char *name) {
  char *abs = absolute_source(name);
  struct stat st;
  unsigned char *bytes = NULL;
  size_t len = 0;
  uint64_t size = 0, mtime = 0, hash = 0;
  if (abs && stat(abs, &st) == 0 && xprof_slurp(abs, &bytes, &len, NULL) == 0) {
    size = (uint64_t)st.st_size;
    mtime = (uint64_t)st.st_mtime;
    hash = xprof_hash64(bytes, len);
  }
  fprintf(t->f, "S %u %" PRIu64 " %" PRIu64 " 0x%" PRIx64 " %s\n", idx, size, mtime, hash,
          abs ? abs : name);
  xprof_free(bytes);
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

void xprof_linetab_proc(xprof_linetab *t, const char *name, uint64_t signature, uint32_t n_nodes,
                        const xprof_edge *edges, uint32_t n_edges,
                        const uint32_t *counter_of_edge, uint32_t n_counters, int comdat,
                        const char *decl_file, uint32_t decl_line) {
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

void xprof_linetab_line(xprof_linetab *t, uint32_t node, const char *file, uint32_t line) {
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
  if (xprof_grow((void **)&t->seen, &t->cap_seen, t->n_seen, sizeof *t->seen) < 0) {
    t->failed = 1;
    return;
  }
  t->seen[t->n_seen++] = (seen_line){k, line};
  fprintf(t->f, "L %u %u %u\n", node, k, line);
  t->has_lines = 1;
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
  xprof_free(t->seen);
  xprof_free(t);
}

int xprof_linetab_end(xprof_linetab *t, const char *path, xprof_error *err) {
  int rc = 0;
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
