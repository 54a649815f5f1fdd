/*
 * cfgdump.c - the plugins' debug dump of instrumented CFGs, and its
 * reader (for xprof_verify).  See xprof.h for the format.
 */
#define _GNU_SOURCE /* fmemopen */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "internal.h"
#include "xprof_graph.h"

void xprof_cfgdump_begin(FILE *f) { fputs("XPCFG 1\n", f); }

void xprof_cfgdump_proc(FILE *f, const char *name, uint64_t signature,
                        uint32_t n_nodes, const xprof_edge *edges,
                        uint32_t n_edges, const uint32_t *counter_of_edge,
                        uint32_t n_counters, int with_debug) {
  uint32_t n_debug = 0;
  for (uint32_t i = 0; with_debug && i < n_edges; i++)
    n_debug += XPROF_DEBUG_COUNTED(edges[i].flags);
  fprintf(f, "PROC %s 0x%" PRIx64 " %u %u %u %u\n", name, signature, n_nodes,
          n_edges, n_counters, n_debug);
  uint32_t next_debug = n_counters;
  for (uint32_t i = 0; i < n_edges; i++) {
    const xprof_edge *e = &edges[i];
    uint32_t c = counter_of_edge[i];
    fprintf(f, "%u %u %u ", e->src, e->dst, e->flags);
    if (c == XPROF_ON_TREE || c == XPROF_NOT_IN_GRAPH)
      fputs("-", f);
    else if (c == XPROF_MEASURED)
      fprintf(f, "s%u", e->site);
    else
      fprintf(f, "%u", c);
    if (with_debug && XPROF_DEBUG_COUNTED(e->flags))
      fprintf(f, " %u\n", next_debug++);
    else
      fputs(" -\n", f);
  }
}

static int parse_id(const char *s, uint32_t *out) {
  if (s[0] == '-' && s[1] == 0) {
    *out = XPROF_ON_TREE;
    return 0;
  }
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (*end || end == s || errno || v >= UINT32_MAX - 1)
    return -1;
  *out = (uint32_t)v;
  return 0;
}

/* A counter id, "-", or "sN" for an edge that site N measures. */
static int parse_counter(const char *s, xprof_edge *e, uint32_t *out) {
  if (s[0] != 's')
    return parse_id(s, out);
  if (!(e->flags & XPROF_EDGE_MEASURED) || parse_id(s + 1, &e->site) < 0 ||
      e->site == XPROF_ON_TREE)
    return -1;
  *out = XPROF_MEASURED;
  return 0;
}

/* Do edge i's ends name nodes of its procedure, and its counters the
 * procedure's counters (debug counters after the others)?  A reader of
 * the counts indexes with them. */
static int edge_in_range(const xprof_cfgdump_entry *p, uint32_t i) {
  const xprof_edge *e = &p->edges[i];
  uint32_t c = p->counter_of_edge[i], d = p->debug_of_edge[i];
  return e->src < p->n_nodes && e->dst < p->n_nodes &&
         (c == XPROF_ON_TREE || c == XPROF_MEASURED || c < p->n_counters) &&
         (d == XPROF_ON_TREE || (d >= p->n_counters && d - p->n_counters < p->n_debug));
}

/* One PROC record and its n_edges edge lines into *p. */
static int read_proc(FILE *f, const char *path, unsigned long *lineno,
                     const char *line, xprof_profile *owner,
                     xprof_cfgdump_entry *p, xprof_error *err) {
  char name[4096], a[32], b[32], buf[4096];
  unsigned long long sig;
  if (sscanf(line, "PROC %4095s 0x%llx %u %u %u %u", name, &sig, &p->n_nodes,
             &p->n_edges, &p->n_counters, &p->n_debug) != 6 ||
      p->n_edges > 10000000)
    return xprof_fail(err, XPROF_ERR_FORMAT, "%s:%lu: expected a PROC line",
                      path, *lineno);
  p->name = xprof_strdup(owner, name);
  p->signature = sig;
  p->decl_file = p->decl_line = p->end_line = XPROF_NO_LINE;
  p->edges = xprof_alloc(owner, ((size_t)p->n_edges + 1) * sizeof *p->edges);
  p->counter_of_edge = xprof_alloc(owner, ((size_t)p->n_edges + 1) * 4);
  p->debug_of_edge = xprof_alloc(owner, ((size_t)p->n_edges + 1) * 4);
  if (!p->name || !p->edges || !p->counter_of_edge || !p->debug_of_edge)
    return xprof_fail_nomem(err, path);
  for (uint32_t i = 0; i < p->n_edges; i++) {
    ++*lineno;
    if (!fgets(buf, sizeof buf, f) ||
        sscanf(buf, "%u %u %u %31s %31s", &p->edges[i].src, &p->edges[i].dst,
               &p->edges[i].flags, a, b) != 5 ||
        parse_counter(a, &p->edges[i], &p->counter_of_edge[i]) < 0 ||
        parse_id(b, &p->debug_of_edge[i]) < 0)
      return xprof_fail(err, XPROF_ERR_FORMAT, "%s:%lu: expected an edge line",
                        path, *lineno);
    if (!edge_in_range(p, i))
      return xprof_fail(err, XPROF_ERR_FORMAT,
                        "%s:%lu: edge %u of %s names a node or counter out of range",
                        path, *lineno, i, p->name);
    if (p->counter_of_edge[i] == XPROF_ON_TREE &&
        (p->edges[i].flags & XPROF_EDGE_IGNORE))
      p->counter_of_edge[i] = XPROF_NOT_IN_GRAPH;
  }
  return 0;
}

/* Growing lists while reading; handed to the owner at the end. */
typedef struct reader {
  const char *path;
  xprof_profile *owner;
  xprof_cfgdump_entry *procs;
  uint32_t n_procs, cap_procs;
  xprof_cfg_source *sources;
  uint32_t n_sources, cap_sources;
  xprof_cfg_context *contexts;
  uint32_t n_contexts, cap_contexts;
  xprof_cfg_line *lines; /* of the last procedure */
  uint32_t n_lines, cap_lines;
  uint32_t *n_pieces; /* of the last procedure's nodes, or NULL */
  xprof_cfg_edge_block *edge_blocks;
  uint32_t n_edge_blocks, cap_edge_blocks;
  xprof_cfg_call *calls; /* of the last procedure */
  uint32_t n_calls, cap_calls;
  xprof_cfg_line *sites; /* of the last procedure */
  uint32_t n_sites, cap_sites;
  xprof_cfg_line *columns; /* of the last procedure */
  uint32_t n_columns, cap_columns;
  int gcc_rules, version;
} reader;

/* "S <index> <size> <mtime> <hash> <path>": the next source file. */
static int read_source(reader *r, const char *line, unsigned long lineno,
                       xprof_error *err) {
  unsigned idx;
  unsigned long long size, mtime, hash;
  int at = 0;
  if (sscanf(line, "S %u %llu %llu %llx %n", &idx, &size, &mtime, &hash, &at) != 4 ||
      !at || idx != r->n_sources || !line[at] || line[at] == '\n')
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s:%lu: expected S %u SIZE MTIME HASH PATH", r->path, lineno,
                      r->n_sources);
  char *path = xprof_format("%s", line + at);
  if (!path || xprof_grow((void **)&r->sources, &r->cap_sources, r->n_sources,
                          sizeof *r->sources) < 0) {
    xprof_free(path);
    return xprof_fail_nomem(err, r->path);
  }
  path[strcspn(path, "\n")] = 0;
  xprof_cfg_source *s = &r->sources[r->n_sources++];
  s->path = xprof_strdup(r->owner, path);
  xprof_free(path);
  s->size = size;
  s->mtime = mtime;
  s->hash = hash;
  return s->path ? 0 : xprof_fail_nomem(err, r->path);
}

/* "B <node>": a new piece of the node. */
static int read_piece(reader *r, xprof_cfgdump_entry *p, const char *line) {
  uint32_t node;
  if (sscanf(line, "B %u", &node) != 1 || node >= p->n_nodes)
    return -1;
  if (!r->n_pieces) {
    r->n_pieces = xprof_calloc(p->n_nodes + 1, sizeof *r->n_pieces);
    if (!r->n_pieces)
      return -2;
    for (uint32_t n = 0; n < p->n_nodes; n++)
      r->n_pieces[n] = 1;
  }
  r->n_pieces[node]++;
  return 0;
}

/* "E <edge> [<file> <line>]": a block on an edge. */
static int read_edge_block(reader *r, xprof_cfgdump_entry *p, const char *line) {
  xprof_cfg_edge_block b = {0, XPROF_NO_LINE, 0};
  int n = sscanf(line, "E %u %u %u", &b.edge, &b.file, &b.line);
  if ((n != 1 && n != 3) || b.edge >= p->n_edges || (n == 3 && b.file >= r->n_sources))
    return -1;
  if (n == 1)
    b.file = XPROF_NO_LINE;
  if (xprof_grow((void **)&r->edge_blocks, &r->cap_edge_blocks, r->n_edge_blocks, sizeof b) < 0)
    return -2;
  r->edge_blocks[r->n_edge_blocks++] = b;
  return 0;
}

/* "K <node> <callee>": a direct call in a block. */
static int read_call(reader *r, xprof_cfgdump_entry *p, const char *line) {
  xprof_cfg_call k;
  int at = 0;
  if (sscanf(line, "K %u %n", &k.node, &at) != 1 || !at || k.node >= p->n_nodes)
    return -1;
  size_t len = strcspn(line + at, "\n");
  if (!len || line[at + len] != '\n' || !(k.callee = xprof_strndup(r->owner, line + at, len)))
    return len ? -2 : -1;
  if (xprof_grow((void **)&r->calls, &r->cap_calls, r->n_calls, sizeof k) < 0)
    return -2;
  r->calls[r->n_calls++] = k;
  return 0;
}

/* "O <index> <parent|-> <call line> <file> <line> <name>": an inline
 * context. */
static int read_context(reader *r, const char *line) {
  xprof_cfg_context c;
  uint32_t idx;
  int at = 0;
  c.parent = XPROF_NO_LINE;
  if (sscanf(line, "O %u - %u %u %u %n", &idx, &c.call_line, &c.file, &c.decl_line, &at) != 4 &&
      (sscanf(line, "O %u %u %u %u %u %n", &idx, &c.parent, &c.call_line, &c.file, &c.decl_line,
              &at) != 5 ||
       c.parent >= r->n_contexts))
    return -1;
  if (!at || idx != r->n_contexts || c.file >= r->n_sources)
    return -1;
  size_t len = strcspn(line + at, "\n");
  if (!len || line[at + len] != '\n')
    return -1;
  if (!(c.name = xprof_strndup(r->owner, line + at, len)) ||
      xprof_grow((void **)&r->contexts, &r->cap_contexts, r->n_contexts, sizeof c) < 0)
    return -2;
  r->contexts[r->n_contexts++] = c;
  return 0;
}

/* "L <node> <file> <line> [<context>]": a line of a block (of its last
 * piece so far); "M ...": the same, of debug statements only. */
static int read_line(reader *r, xprof_cfgdump_entry *p, const char *line) {
  xprof_cfg_line l;
  l.context = XPROF_NO_LINE;
  l.kind = XPROF_SITE_KINDS;
  l.marker = line[0] == 'M';
  l.column = 0;
  int n = sscanf(line + 1, " %u %u %u %u", &l.node, &l.file, &l.line, &l.context);
  if (n < 3 || l.file >= r->n_sources || l.node >= p->n_nodes ||
      (n == 4 && l.context >= r->n_contexts))
    return -1;
  l.piece = r->n_pieces ? r->n_pieces[l.node] - 1 : 0;
  if (xprof_grow((void **)&r->lines, &r->cap_lines, r->n_lines, sizeof l) < 0)
    return -2;
  r->lines[r->n_lines++] = l;
  return 0;
}

/* "A <node> <file> <line> <column> [<context>]": a column of a line of
 * a block. */
static int read_column(reader *r, xprof_cfgdump_entry *p, const char *line) {
  xprof_cfg_line l = {0, 0, 0, 0, XPROF_NO_LINE, XPROF_SITE_KINDS, 0, 0};
  int n = sscanf(line, "A %u %u %u %u %u", &l.node, &l.file, &l.line, &l.column, &l.context);
  if (n < 4 || l.file >= r->n_sources || l.node >= p->n_nodes || !l.column ||
      (n == 5 && l.context >= r->n_contexts))
    return -1;
  if (xprof_grow((void **)&r->columns, &r->cap_columns, r->n_columns, sizeof l) < 0)
    return -2;
  r->columns[r->n_columns++] = l;
  return 0;
}

/* "V <site> <kind> <file> <line> [<context>]" (version 5: no kind):
 * where a value-profile site is. */
static int read_site(reader *r, const char *line) {
  xprof_cfg_line l = {0, 0, 0, 0, XPROF_NO_LINE, XPROF_SITE_KINDS, 0, 0};
  int n = r->version >= 6
              ? sscanf(line, "V %u %u %u %u %u", &l.node, &l.kind, &l.file, &l.line, &l.context) - 1
              : sscanf(line, "V %u %u %u %u", &l.node, &l.file, &l.line, &l.context);
  if (n < 3 || l.file >= r->n_sources || (n == 4 && l.context >= r->n_contexts) ||
      l.kind > XPROF_SITE_KINDS)
    return -1;
  if (xprof_grow((void **)&r->sites, &r->cap_sites, r->n_sites, sizeof l) < 0)
    return -2;
  r->sites[r->n_sites++] = l;
  return 0;
}

/* The records that follow a procedure's edges: "F <file> <line>" (where
 * it is declared), "C" (a comdat function), "N <line>" (where it ends),
 * and B, E and L (above). */
static int read_line_record(reader *r, const char *line, unsigned long lineno,
                            xprof_error *err) {
  xprof_cfgdump_entry *p = r->n_procs ? &r->procs[r->n_procs - 1] : NULL;
  uint32_t file, at;
  int rc = -1;
  if (!p) {
    rc = -1;
  } else if (strcmp(line, "C\n") == 0) {
    p->comdat = 1;
    rc = 0;
  } else if (line[0] == 'F' && sscanf(line, "F %u %u", &file, &at) == 2 &&
             file < r->n_sources) {
    p->decl_file = file;
    p->decl_line = at;
    rc = 0;
  } else if (line[0] == 'N' && sscanf(line, "N %u", &at) == 1) {
    p->end_line = at;
    rc = 0;
  } else if (line[0] == 'B') {
    rc = read_piece(r, p, line);
  } else if (line[0] == 'E') {
    rc = read_edge_block(r, p, line);
  } else if (line[0] == 'L' || (line[0] == 'M' && r->version >= 6)) {
    rc = read_line(r, p, line);
  } else if (line[0] == 'A' && r->version >= 7) {
    rc = read_column(r, p, line);
  } else if (line[0] == 'K' && r->version >= 3) {
    rc = read_call(r, p, line);
  } else if (line[0] == 'O' && r->version >= 4) {
    rc = read_context(r, line);
  } else if (line[0] == 'V' && r->version >= 5) {
    rc = read_site(r, line);
  }
  if (rc == -2)
    return xprof_fail_nomem(err, r->path);
  if (rc < 0)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s:%lu: expected PROC, S, F, C, N, B, E, K, O, V, A or L (a record out of range, or "
                      "before any procedure?)",
                      r->path, lineno);
  return 0;
}

static void *owned_copy(xprof_profile *owner, const void *src, size_t n) {
  void *dst = xprof_alloc(owner, n + 1);
  if (dst && n)
    memcpy(dst, src, n);
  return dst;
}

/* Give the last procedure its line records, in the owner's memory. */
static int close_proc(reader *r, xprof_error *err) {
  if (!r->n_procs)
    return 0;
  xprof_cfgdump_entry *p = &r->procs[r->n_procs - 1];
  if (r->n_lines && !(p->lines = owned_copy(r->owner, r->lines, (size_t)r->n_lines * sizeof *p->lines)))
    return xprof_fail_nomem(err, r->path);
  if (r->n_pieces && !(p->n_pieces = owned_copy(r->owner, r->n_pieces, (size_t)p->n_nodes * 4)))
    return xprof_fail_nomem(err, r->path);
  if (r->n_edge_blocks &&
      !(p->edge_blocks = owned_copy(r->owner, r->edge_blocks,
                                    (size_t)r->n_edge_blocks * sizeof *p->edge_blocks)))
    return xprof_fail_nomem(err, r->path);
  if (r->n_calls &&
      !(p->calls = owned_copy(r->owner, r->calls, (size_t)r->n_calls * sizeof *p->calls)))
    return xprof_fail_nomem(err, r->path);
  if (r->n_sites &&
      !(p->sites = owned_copy(r->owner, r->sites, (size_t)r->n_sites * sizeof *p->sites)))
    return xprof_fail_nomem(err, r->path);
  if (r->n_columns &&
      !(p->columns = owned_copy(r->owner, r->columns, (size_t)r->n_columns * sizeof *p->columns)))
    return xprof_fail_nomem(err, r->path);
  p->n_lines = r->n_lines;
  p->n_edge_blocks = r->n_edge_blocks;
  p->n_calls = r->n_calls;
  p->n_sites = r->n_sites;
  p->n_columns = r->n_columns;
  r->n_lines = r->n_edge_blocks = r->n_calls = r->n_sites = r->n_columns = 0;
  xprof_free(r->n_pieces);
  r->n_pieces = NULL;
  return 0;
}

static int read_records(FILE *f, reader *r, xprof_error *err) {
  char line[8192];
  unsigned long lineno = 1;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    int rc;
    if (strncmp(line, "PROC ", 5) == 0) {
      if (close_proc(r, err) < 0 ||
          xprof_grow((void **)&r->procs, &r->cap_procs, r->n_procs, sizeof *r->procs) < 0)
        return xprof_fail_nomem(err, r->path);
      xprof_cfgdump_entry *p = &r->procs[r->n_procs];
      memset(p, 0, sizeof *p);
      p->gcc_rules = r->gcc_rules;
      rc = read_proc(f, r->path, &lineno, line, r->owner, p, err);
      r->n_procs += rc == 0;
    } else if (line[0] == 'S') {
      rc = read_source(r, line, lineno, err);
    } else if (strcmp(line, "R gcc\n") == 0 || strcmp(line, "R llvm\n") == 0) {
      r->gcc_rules = line[2] == 'g';
      rc = 0;
    } else {
      rc = read_line_record(r, line, lineno, err);
    }
    if (rc < 0)
      return -1;
  }
  return close_proc(r, err);
}

/* Read the dump or table open as f, named path in messages; 0 or -1. */
static int read_stream(FILE *f, const char *path, xprof_profile *owner, xprof_cfgdump *out,
                       xprof_error *err) {
  memset(out, 0, sizeof *out);
  char line[64];
  reader r = {.path = path, .owner = owner};
  int rc = -1;
  if (!fgets(line, sizeof line, f) ||
      strncmp(line, "XPCFG ", 6) != 0 || line[6] < '1' || line[6] > '7' || line[7] != '\n') {
    xprof_fail(err, XPROF_ERR_FORMAT,
               "%s:1: not a CFG dump or coverage table (expected XPCFG 1 to 7)", path);
    goto out;
  }
  out->version = r.version = line[6] - '0';
  if (read_records(f, &r, err) < 0)
    goto out;
  if (ferror(f)) {
    xprof_fail(err, XPROF_ERR_IO, "%s: read error: %s", path, strerror(errno));
    goto out;
  }
  out->procs = owned_copy(owner, r.procs, (size_t)r.n_procs * sizeof *r.procs);
  out->sources = owned_copy(owner, r.sources, (size_t)r.n_sources * sizeof *r.sources);
  out->contexts = owned_copy(owner, r.contexts, (size_t)r.n_contexts * sizeof *r.contexts);
  if (!out->procs || !out->sources || !out->contexts) {
    xprof_fail_nomem(err, path);
    goto out;
  }
  out->n_procs = r.n_procs;
  out->n_sources = r.n_sources;
  out->n_contexts = r.n_contexts;
  rc = 0;
out:
  xprof_free(r.procs);
  xprof_free(r.sources);
  xprof_free(r.contexts);
  xprof_free(r.calls);
  xprof_free(r.sites);
  xprof_free(r.columns);
  xprof_free(r.lines);
  xprof_free(r.n_pieces);
  xprof_free(r.edge_blocks);
  return rc;
}

int xprof_cfgdump_read(const char *path, xprof_profile *owner, xprof_cfgdump *out,
                       xprof_error *err) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "r");
  if (!f)
    return xprof_fail(err, XPROF_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  int rc = read_stream(f, path, owner, out, err);
  fclose(f);
  return rc;
}

int xprof_cfgdump_read_mem(const char *text, size_t len, const char *name,
                           xprof_profile *owner, xprof_cfgdump *out, xprof_error *err) {
  memset(out, 0, sizeof *out);
  /* fmemopen of an empty buffer fails; an empty table is not one. */
  FILE *f = len ? fmemopen((void *)text, len, "r") : NULL;
  if (!f && len)
    return xprof_fail_nomem(err, name);
  if (!f)
    return xprof_fail(err, XPROF_ERR_FORMAT, "%s: empty coverage table", name);
  int rc = read_stream(f, name, owner, out, err);
  fclose(f);
  return rc;
}

int xprof_solve_proc(const xprof_objfile *o, const xprof_proc *f, const xprof_cfgdump_entry *c,
                     uint64_t *edge_counts, uint64_t *node_counts) {
  uint64_t *values = xprof_calloc((size_t)c->n_counters + 1, sizeof *values);
  uint64_t *sites = xprof_calloc((size_t)f->n_vp_sites + 1, sizeof *sites);
  int rc = -1;
  if (values && sites) {
    for (uint32_t k = 0; k < c->n_counters; k++)
      values[k] = xprof_proc_counter(f, k);
    xprof_vp_site_totals(o, f, sites, f->n_vp_sites);
    rc = xprof_solve_flow_sites(c->n_nodes, c->edges, c->n_edges, c->counter_of_edge, values,
                                c->n_counters, sites, f->n_vp_sites, edge_counts, node_counts);
  }
  xprof_free(values);
  xprof_free(sites);
  return rc;
}
