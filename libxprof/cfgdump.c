/*
 * cfgdump.c - the plugins' debug dump of instrumented CFGs, and its
 * reader (for xprof_verify).  See xprof.h for the format.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "internal.h"

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

int xprof_cfgdump_read(const char *path, xprof_profile *owner,
                       xprof_cfgdump_entry **procs, uint32_t *n_procs,
                       xprof_error *err) {
  FILE *f = fopen(path, "r");
  if (!f)
    return xprof_fail(err, XPROF_ERR_IO, "%s: cannot open: %s", path,
                      strerror(errno));
  char line[4096], name[4096], a[32], b[32];
  unsigned long lineno = 1;
  uint32_t n = 0, cap = 0;
  xprof_cfgdump_entry *list = NULL;
  int rc = -1;
  if (!fgets(line, sizeof line, f) || strcmp(line, "XPCFG 1\n") != 0) {
    xprof_fail(err, XPROF_ERR_FORMAT, "%s:1: not a CFG dump (expected XPCFG 1)",
               path);
    goto out;
  }
  while (fgets(line, sizeof line, f)) {
    lineno++;
    xprof_cfgdump_entry p = {0};
    unsigned long long sig;
    if (sscanf(line, "PROC %4095s 0x%llx %u %u %u %u", name, &sig, &p.n_nodes,
               &p.n_edges, &p.n_counters, &p.n_debug) != 6 ||
        p.n_edges > 10000000) {
      xprof_fail(err, XPROF_ERR_FORMAT, "%s:%lu: expected a PROC line", path,
                 lineno);
      goto out;
    }
    p.name = xprof_strdup(owner, name);
    p.signature = sig;
    p.edges = xprof_alloc(owner, ((size_t)p.n_edges + 1) * sizeof *p.edges);
    p.counter_of_edge = xprof_alloc(owner, ((size_t)p.n_edges + 1) * 4);
    p.debug_of_edge = xprof_alloc(owner, ((size_t)p.n_edges + 1) * 4);
    if (!p.name || !p.edges || !p.counter_of_edge || !p.debug_of_edge) {
      xprof_fail_nomem(err, path);
      goto out;
    }
    for (uint32_t i = 0; i < p.n_edges; i++) {
      lineno++;
      if (!fgets(line, sizeof line, f) ||
          sscanf(line, "%u %u %u %31s %31s", &p.edges[i].src, &p.edges[i].dst,
                 &p.edges[i].flags, a, b) != 5 ||
          parse_counter(a, &p.edges[i], &p.counter_of_edge[i]) < 0 ||
          parse_id(b, &p.debug_of_edge[i]) < 0) {
        xprof_fail(err, XPROF_ERR_FORMAT, "%s:%lu: expected an edge line",
                   path, lineno);
        goto out;
      }
      if (!edge_in_range(&p, i)) {
        xprof_fail(err, XPROF_ERR_FORMAT,
                   "%s:%lu: edge %u of %s names a node or counter out of range", path,
                   lineno, i, p.name);
        goto out;
      }
      if (p.counter_of_edge[i] == XPROF_ON_TREE &&
          (p.edges[i].flags & XPROF_EDGE_IGNORE))
        p.counter_of_edge[i] = XPROF_NOT_IN_GRAPH;
    }
    if (xprof_grow((void **)&list, &cap, n, sizeof *list) < 0) {
      xprof_fail_nomem(err, path);
      goto out;
    }
    list[n++] = p;
  }
  /* hand the list to the owner's memory */
  *procs = xprof_alloc(owner, ((size_t)n + 1) * sizeof *list);
  if (!*procs) {
    xprof_fail_nomem(err, path);
    goto out;
  }
  if (n)
    memcpy(*procs, list, (size_t)n * sizeof *list);
  *n_procs = n;
  rc = 0;
out:
  xprof_free(list);
  fclose(f);
  return rc;
}
