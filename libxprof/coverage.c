/*
 * coverage.c - line, block and branch coverage of one procedure from its
 * coverage table (OBJECT.xpcov) and its solved edge and block counts, by
 * gcov's rules, so that a line's count here is the count gcov gives the
 * same line of the same graph.
 *
 * gcov (GCC's gcov.cc) gives each line the blocks whose last line it is;
 * a line with such blocks counts the entries into them from other blocks
 * plus the flow around the cycles among them (a loop written on one
 * line), and a line that is no block's last line counts the sum of its
 * blocks' counts.  GCC 12's gcov, measured against: a block's last line
 * is its highest, and the block numbered last (in GCC's order: the last
 * piece of the last block) is no line's; llvm-cov gcov takes the last
 * line in the block's order, and every block.
 *
 * GCC's coverage graph has blocks that the pass's graph lacks -- pieces
 * of a block split after calls, blocks on edges -- which the table
 * describes (B and E records) and expand() rebuilds.
 */
#include <stdlib.h>

#include "internal.h"

static int line_cmp(const void *a, const void *b) {
  const xprof_cov_line *x = a, *y = b;
  if (x->file != y->file)
    return x->file < y->file ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

static uint32_t line_index(const xprof_proc_cov *cov, uint32_t file, uint32_t line) {
  xprof_cov_line key = {file, line, 0, 0};
  const xprof_cov_line *l = bsearch(&key, cov->lines, cov->n_lines, sizeof key, line_cmp);
  return (uint32_t)(l - cov->lines);
}

/* The distinct lines of c, sorted. */
static int distinct_lines(const xprof_cfgdump_entry *c, xprof_proc_cov *cov) {
  cov->lines = xprof_calloc((size_t)c->n_lines + 1, sizeof *cov->lines);
  if (!cov->lines)
    return -1;
  for (uint32_t i = 0; i < c->n_lines; i++)
    cov->lines[i] = (xprof_cov_line){c->lines[i].file, c->lines[i].line, 0, 0};
  qsort(cov->lines, c->n_lines, sizeof *cov->lines, line_cmp);
  uint32_t n = 0;
  for (uint32_t i = 0; i < c->n_lines; i++)
    if (n == 0 || line_cmp(&cov->lines[n - 1], &cov->lines[i]) != 0)
      cov->lines[n++] = cov->lines[i];
  cov->n_lines = n;
  return 0;
}

/* Edges whose ends both have line L as their last: a cycle among them is
 * a loop on that line. */
typedef struct cycle_graph {
  const xprof_edge *edges;
  uint64_t *left;      /* by edge: flow not yet given to a cycle */
  const uint32_t *ids; /* the line's edges */
  uint32_t n;
  uint32_t *path, *next; /* DFS: edges taken, and per depth the next to try */
  unsigned char *on;     /* by node: on the path */
} cycle_graph;

/* Find a cycle through `start` over nodes not below it with flow left in
 * every edge (gcov's rule); give it its smallest flow and return that, or
 * 0 when there is none. */
static uint64_t cancel_cycle(cycle_graph *g, uint32_t start) {
  uint32_t depth = 0, at = start;
  g->next[0] = 0;
  for (;;) {
    uint32_t k = g->next[depth];
    for (; k < g->n; k++) {
      const xprof_edge *e = &g->edges[g->ids[k]];
      if (e->src == at && g->left[g->ids[k]] && e->dst >= start && (e->dst == start || !g->on[e->dst]))
        break;
    }
    if (k == g->n) { /* dead end: back up */
      if (depth == 0)
        return 0;
      g->on[at] = 0;
      depth--;
      at = g->edges[g->path[depth]].src;
      continue;
    }
    g->next[depth] = k + 1;
    g->path[depth++] = g->ids[k];
    uint32_t to = g->edges[g->ids[k]].dst;
    if (to == start)
      break;
    g->on[to] = 1;
    at = to;
    g->next[depth] = 0;
  }
  uint64_t flow = UINT64_MAX;
  for (uint32_t d = 0; d < depth; d++)
    flow = g->left[g->path[d]] < flow ? g->left[g->path[d]] : flow;
  for (uint32_t d = 0; d < depth; d++) {
    g->left[g->path[d]] -= flow;
    if (d)
      g->on[g->edges[g->path[d]].src] = 0;
  }
  return flow;
}

static uint64_t cycles_count(cycle_graph *g, uint32_t n_nodes) {
  uint64_t total = 0;
  for (uint32_t s = 0; s < n_nodes; s++) {
    int starts = 0;
    for (uint32_t k = 0; k < g->n && !starts; k++)
      starts = g->edges[g->ids[k]].src == s;
    uint64_t flow;
    while (starts && (flow = cancel_cycle(g, s)) != 0)
      total = xprof_sat_add(total, flow);
  }
  return total;
}

/* Line counts: gcov's rule (above), with last_of[node] the index of the
 * node's last line (UINT32_MAX: none). */
static int count_lines(const xprof_cfgdump_entry *c, const uint64_t *edge_count,
                       const uint64_t *node_count, const uint32_t *last_of,
                       xprof_proc_cov *cov) {
  unsigned char *has_last = xprof_calloc((size_t)cov->n_lines + 1, 1);
  uint64_t *entries = xprof_calloc((size_t)cov->n_lines + 1, sizeof *entries);
  cycle_graph g = {c->edges, xprof_calloc((size_t)c->n_edges + 1, 8),
                   xprof_calloc((size_t)c->n_edges + 1, 4), 0,
                   xprof_calloc((size_t)c->n_edges + 1, 4), xprof_calloc((size_t)c->n_edges + 2, 4),
                   xprof_calloc((size_t)c->n_nodes + 1, 1)};
  uint32_t *ids = (uint32_t *)g.ids;
  int rc = -1;
  if (!has_last || !entries || !g.left || !ids || !g.path || !g.next || !g.on)
    goto out;
  for (uint32_t i = 0; i < c->n_lines; i++) { /* each block has a line once */
    xprof_cov_line *l = &cov->lines[line_index(cov, c->lines[i].file, c->lines[i].line)];
    l->count = xprof_sat_add(l->count, node_count[c->lines[i].node]);
  }
  for (uint32_t n = 0; n < c->n_nodes; n++)
    if (last_of[n] != UINT32_MAX)
      has_last[last_of[n]] = 1;
  for (uint32_t e = 0; e < c->n_edges; e++) {
    uint32_t to = last_of[c->edges[e].dst], from = last_of[c->edges[e].src];
    if (to != UINT32_MAX && from != to)
      entries[to] = xprof_sat_add(entries[to], edge_count[e]);
  }
  for (uint32_t l = 0; l < cov->n_lines; l++) {
    if (!has_last[l])
      continue;
    g.n = 0;
    for (uint32_t e = 0; e < c->n_edges; e++)
      if (last_of[c->edges[e].src] == l && last_of[c->edges[e].dst] == l) {
        ids[g.n++] = e;
        g.left[e] = edge_count[e];
      }
    cov->lines[l].count = xprof_sat_add(entries[l], g.n ? cycles_count(&g, c->n_nodes) : 0);
  }
  rc = 0;
out:
  xprof_free(has_last);
  xprof_free(entries);
  xprof_free(g.left);
  xprof_free(ids);
  xprof_free(g.path);
  xprof_free(g.next);
  xprof_free(g.on);
  return rc;
}

/* The blocks with lines (their first line, where tcov shows them), and
 * the branches of those with more than one real successor, at the
 * block's last line as gcov puts them. */
static int blocks_and_branches(const xprof_cfgdump_entry *c, const uint64_t *edge_count,
                               const uint64_t *node_count, const uint32_t *first_of,
                               const uint32_t *last_of, xprof_proc_cov *cov) {
  cov->blocks = xprof_calloc((size_t)c->n_nodes + 1, sizeof *cov->blocks);
  cov->branches = xprof_calloc((size_t)c->n_edges + 1, sizeof *cov->branches);
  if (!cov->blocks || !cov->branches)
    return -1;
  for (uint32_t n = 0; n < c->n_nodes; n++) {
    if (first_of[n] == UINT32_MAX)
      continue;
    xprof_cov_line *first = &cov->lines[first_of[n]], *last = &cov->lines[last_of[n]];
    first->flags |= XPROF_COV_BEGINS_BLOCK;
    cov->blocks[cov->n_blocks++] = (xprof_cov_block){n, first->file, first->line, node_count[n]};
    uint32_t real = 0;
    for (uint32_t e = 0; e < c->n_edges; e++)
      real += c->edges[e].src == n && !(c->edges[e].flags & (XPROF_EDGE_FAKE | XPROF_EDGE_IGNORE));
    if (real < 2)
      continue;
    uint32_t k = 0;
    for (uint32_t e = 0; e < c->n_edges; e++)
      if (c->edges[e].src == n && !(c->edges[e].flags & (XPROF_EDGE_FAKE | XPROF_EDGE_IGNORE)))
        cov->branches[cov->n_branches++] =
            (xprof_cov_branch){last->file, last->line, n, k++, edge_count[e], node_count[n]};
  }
  return 0;
}

/* gcov's graph: each piece of a node a block of its own, chained by
 * edges that carry the node's count, and each edge block between its
 * edge's ends.  Ids: the pieces of node 0, of node 1, ..., then the edge
 * blocks.  Writes *g (its arrays xprof_malloc'd) and the counts; 0 or -1. */
typedef struct gcov_graph {
  xprof_cfgdump_entry c;
  uint64_t *edge_count, *node_count;
  uint32_t n_pieces; /* the edge blocks' ids follow */
} gcov_graph;

static void free_gcov_graph(gcov_graph *g) {
  xprof_free(g->c.edges);
  xprof_free(g->c.lines);
  xprof_free(g->edge_count);
  xprof_free(g->node_count);
}

static int expand(const xprof_cfgdump_entry *c, const uint64_t *edge_count,
                  const uint64_t *node_count, gcov_graph *g) {
  memset(g, 0, sizeof *g);
  uint32_t *first = xprof_malloc(((size_t)c->n_nodes + 1) * 4), n = 0;
  uint32_t *on_edge = xprof_malloc(((size_t)c->n_edges + 1) * 4);
  if (!first || !on_edge)
    goto fail;
  for (uint32_t k = 0; k < c->n_nodes; k++) {
    first[k] = n;
    n += c->n_pieces ? c->n_pieces[k] : 1;
  }
  uint32_t n_chain = n - c->n_nodes;
  for (uint32_t e = 0; e < c->n_edges; e++)
    on_edge[e] = UINT32_MAX;
  for (uint32_t b = 0; b < c->n_edge_blocks; b++)
    on_edge[c->edge_blocks[b].edge] = n + b;
  g->c.n_nodes = n + c->n_edge_blocks;
  g->c.gcc_rules = c->gcc_rules;
  g->n_pieces = n;
  size_t n_edges = (size_t)c->n_edges + n_chain + c->n_edge_blocks;
  g->c.edges = xprof_calloc(n_edges + 1, sizeof *g->c.edges);
  g->edge_count = xprof_calloc(n_edges + 1, 8);
  g->node_count = xprof_calloc((size_t)g->c.n_nodes + 1, 8);
  g->c.lines = xprof_calloc((size_t)c->n_lines + c->n_edge_blocks + 1, sizeof *g->c.lines);
  if (!g->c.edges || !g->edge_count || !g->node_count || !g->c.lines)
    goto fail;
  uint32_t m = 0;
  for (uint32_t k = 0; k < c->n_nodes; k++)
    for (uint32_t p = first[k]; p < (k + 1 < c->n_nodes ? first[k + 1] : n); p++) {
      g->node_count[p] = node_count[k];
      if (p + 1 < (k + 1 < c->n_nodes ? first[k + 1] : n)) {
        g->c.edges[m] = (xprof_edge){p, p + 1, 0, 0, 0};
        g->edge_count[m++] = node_count[k];
      }
    }
  for (uint32_t e = 0; e < c->n_edges; e++) {
    const xprof_edge *x = &c->edges[e];
    uint32_t from = x->src + 1 < c->n_nodes ? first[x->src + 1] - 1 : n - 1, to = first[x->dst];
    if (on_edge[e] != UINT32_MAX) {
      g->node_count[on_edge[e]] = edge_count[e];
      g->c.edges[m] = (xprof_edge){on_edge[e], to, 0, 0, 0};
      g->edge_count[m++] = edge_count[e];
      to = on_edge[e];
    }
    g->c.edges[m] = (xprof_edge){from, to, x->flags, 0, 0};
    g->edge_count[m++] = edge_count[e];
  }
  g->c.n_edges = m;
  for (uint32_t i = 0; i < c->n_lines; i++) {
    g->c.lines[i] = c->lines[i];
    g->c.lines[i].node = first[c->lines[i].node] + c->lines[i].piece;
  }
  g->c.n_lines = c->n_lines;
  for (uint32_t b = 0; b < c->n_edge_blocks; b++)
    if (c->edge_blocks[b].file != XPROF_NO_LINE)
      g->c.lines[g->c.n_lines++] =
          (xprof_cfg_line){n + b, c->edge_blocks[b].file, c->edge_blocks[b].line, 0};
  xprof_free(first);
  xprof_free(on_edge);
  return 0;
fail:
  xprof_free(first);
  xprof_free(on_edge);
  free_gcov_graph(g);
  return -1;
}

/* Coverage of graph c (with gcov's blocks) and its counts; last_block:
 * the block that is no line's under GCC's rules, or UINT32_MAX. */
static int cover(const xprof_cfgdump_entry *c, const uint64_t *edge_count,
                 const uint64_t *node_count, uint32_t last_block, xprof_proc_cov *cov) {
  uint32_t *first_of = xprof_malloc(((size_t)c->n_nodes + 1) * 4);
  uint32_t *last_of = xprof_malloc(((size_t)c->n_nodes + 1) * 4);
  int rc = -1;
  if (!first_of || !last_of || distinct_lines(c, cov) < 0)
    goto out;
  for (uint32_t n = 0; n < c->n_nodes; n++)
    first_of[n] = last_of[n] = UINT32_MAX;
  for (uint32_t i = 0; i < c->n_lines; i++) {
    uint32_t n = c->lines[i].node, l = line_index(cov, c->lines[i].file, c->lines[i].line);
    if (first_of[n] == UINT32_MAX)
      first_of[n] = l;
    if (last_of[n] == UINT32_MAX || !c->gcc_rules ||
        cov->lines[l].file != cov->lines[last_of[n]].file ||
        cov->lines[l].line > cov->lines[last_of[n]].line)
      last_of[n] = l;
  }
  uint32_t *ends = xprof_malloc(((size_t)c->n_nodes + 1) * 4);
  if (!ends)
    goto out;
  memcpy(ends, last_of, (size_t)c->n_nodes * 4);
  if (last_block != UINT32_MAX)
    ends[last_block] = UINT32_MAX;
  rc = count_lines(c, edge_count, node_count, ends, cov);
  xprof_free(ends);
  if (rc < 0 ||
      blocks_and_branches(c, edge_count, node_count, first_of, last_of, cov) < 0)
    goto out;
  rc = 0;
out:
  xprof_free(first_of);
  xprof_free(last_of);
  return rc;
}

int xprof_proc_coverage(const xprof_cfgdump_entry *c, const uint64_t *edge_count,
                        const uint64_t *node_count, xprof_proc_cov *cov) {
  memset(cov, 0, sizeof *cov);
  for (uint32_t e = 0; e < c->n_edges; e++)
    if (c->edges[e].src == XPROF_ENTRY && !(c->edges[e].flags & XPROF_EDGE_FAKE))
      cov->entry_count = xprof_sat_add(cov->entry_count, edge_count[e]);
  gcov_graph g;
  int rc = expand(c, edge_count, node_count, &g);
  if (rc == 0) {
    /* GCC numbers blocks in their order: its last is the last piece of
     * the last block. */
    uint32_t last = c->gcc_rules && c->n_nodes > 2 ? g.n_pieces - 1 : UINT32_MAX;
    rc = cover(&g.c, g.edge_count, g.node_count, last, cov);
    free_gcov_graph(&g);
  }
  if (rc < 0)
    xprof_proc_coverage_free(cov);
  return rc;
}

void xprof_proc_coverage_free(xprof_proc_cov *cov) {
  xprof_free(cov->lines);
  xprof_free(cov->blocks);
  xprof_free(cov->branches);
  memset(cov, 0, sizeof *cov);
}
