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
 * blocks' counts -- over all the functions of the source at once (the
 * callers of xprof_proc_coverage add the procedures up that way).  GCC
 * 12's gcov sorts each run of a block's lines from one source and takes
 * the highest, and leaves out the block numbered last (the last piece of
 * the last block); llvm-cov gcov takes the last line in the block's
 * order, and every block.  The loops on a line are counted as gcov
 * counts them: the circuits among its blocks, found in gcov's order.
 *
 * GCC's coverage graph has blocks that the pass's graph lacks -- pieces
 * of a block split after calls, blocks on edges -- which the table
 * describes (B and E records) and expand() rebuilds.
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof_views.h"

static int line_cmp(const void *a, const void *b) {
  const xprof_cov_line *x = a, *y = b;
  if (x->file != y->file)
    return x->file < y->file ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

static uint32_t line_index(const xprof_proc_cov *cov, uint32_t file, uint32_t line) {
  xprof_cov_line key = {file, line, 0, 0, 0};
  const xprof_cov_line *l = bsearch(&key, cov->lines, cov->n_lines, sizeof key, line_cmp);
  return (uint32_t)(l - cov->lines);
}

/* The distinct lines of c, sorted. */
static int distinct_lines(const xprof_cfgdump_entry *c, xprof_proc_cov *cov) {
  cov->lines = xprof_calloc((size_t)c->n_lines + 1, sizeof *cov->lines);
  if (!cov->lines)
    return -1;
  for (uint32_t i = 0; i < c->n_lines; i++)
    cov->lines[i] = (xprof_cov_line){c->lines[i].file, c->lines[i].line, 0, 0, 0};
  xprof_sort(cov->lines, c->n_lines, sizeof *cov->lines, line_cmp);
  uint32_t n = 0;
  for (uint32_t i = 0; i < c->n_lines; i++)
    if (n == 0 || line_cmp(&cov->lines[n - 1], &cov->lines[i]) != 0)
      cov->lines[n++] = cov->lines[i];
  cov->n_lines = n;
  return 0;
}

/* ---- a line's count -------------------------------------------------- */

/* The graph's edges by source, each block's in increasing destination (as
 * gcov sorts a block's arcs), and by destination. */
typedef struct adjacency {
  uint32_t *out_at, *out; /* out[out_at[n] .. out_at[n + 1]): edge ids */
  uint32_t *in_at, *in;
} adjacency;

static void free_adjacency(adjacency *a) {
  xprof_free(a->out_at);
  xprof_free(a->out);
  xprof_free(a->in_at);
  xprof_free(a->in);
}

static int make_adjacency(const xprof_cfgdump_entry *c, adjacency *a) {
  size_t nn = (size_t)c->n_nodes + 2, ne = (size_t)c->n_edges + 1;
  a->out_at = xprof_calloc(nn, 4);
  a->in_at = xprof_calloc(nn, 4);
  a->out = xprof_malloc(ne * 4);
  a->in = xprof_malloc(ne * 4);
  if (!a->out_at || !a->in_at || !a->out || !a->in)
    return -1;
  for (uint32_t e = 0; e < c->n_edges; e++) {
    a->out_at[c->edges[e].src + 1]++;
    a->in_at[c->edges[e].dst + 1]++;
  }
  for (uint32_t n = 0; n < c->n_nodes; n++) {
    a->out_at[n + 1] += a->out_at[n];
    a->in_at[n + 1] += a->in_at[n];
  }
  uint32_t *o = xprof_calloc(nn, 4), *i = xprof_calloc(nn, 4);
  if (!o || !i) {
    xprof_free(o);
    xprof_free(i);
    return -1;
  }
  for (uint32_t e = 0; e < c->n_edges; e++) {
    a->out[a->out_at[c->edges[e].src] + o[c->edges[e].src]++] = e;
    a->in[a->in_at[c->edges[e].dst] + i[c->edges[e].dst]++] = e;
  }
  xprof_free(o);
  xprof_free(i);
  for (uint32_t n = 0; n < c->n_nodes; n++) /* by destination: few edges each */
    for (uint32_t k = a->out_at[n] + 1; k < a->out_at[n + 1]; k++)
      for (uint32_t j = k; j > a->out_at[n] && c->edges[a->out[j - 1]].dst > c->edges[a->out[j]].dst;
           j--) {
        uint32_t t = a->out[j];
        a->out[j] = a->out[j - 1];
        a->out[j - 1] = t;
      }
  return 0;
}

/* The blocks of one line, and gcov's search for the loops among them:
 * Hawick and James's enumeration of elementary circuits, each circuit
 * giving the line the smallest flow left on it (gcov.cc, circuit). */
typedef struct line_set {
  const xprof_edge *edges;
  const adjacency *a;
  unsigned char *member, *blocked; /* by node */
  int64_t *left;                   /* by edge: flow not yet in a circuit */
  uint32_t **waiting;              /* by node: who to unblock with it */
  uint32_t *n_waiting, *cap_waiting;
  uint32_t *path, depth;
  uint64_t count;
  int failed;
} line_set;

/* Does w continue a circuit from `start`: a block of the line, not below
 * the start, over an edge with flow left? */
static int next_on_line(const line_set *s, uint32_t e, uint32_t start) {
  uint32_t w = s->edges[e].dst;
  return w >= start && s->left[e] > 0 && s->member[w];
}

static void unblock(line_set *s, uint32_t u) {
  if (!s->blocked[u])
    return;
  s->blocked[u] = 0;
  uint32_t n = s->n_waiting[u], *list = s->waiting[u];
  s->waiting[u] = NULL; /* a list of its own while it is walked */
  s->n_waiting[u] = s->cap_waiting[u] = 0;
  for (uint32_t k = 0; k < n; k++)
    unblock(s, list[k]);
  xprof_free(list);
}

static void wait_for(line_set *s, uint32_t w, uint32_t v) {
  for (uint32_t k = 0; k < s->n_waiting[w]; k++)
    if (s->waiting[w][k] == v)
      return;
  if (xprof_grow((void **)&s->waiting[w], &s->cap_waiting[w], s->n_waiting[w], 4) < 0) {
    s->failed = 1;
    return;
  }
  s->waiting[w][s->n_waiting[w]++] = v;
}

static void take_circuit(line_set *s) {
  int64_t flow = INT64_MAX;
  for (uint32_t d = 0; d < s->depth; d++)
    flow = s->left[s->path[d]] < flow ? s->left[s->path[d]] : flow;
  for (uint32_t d = 0; d < s->depth; d++)
    s->left[s->path[d]] -= flow;
  s->count = xprof_sat_add(s->count, (uint64_t)flow);
}

static int path_spent(const line_set *s) {
  for (uint32_t d = 0; d < s->depth; d++)
    if (s->left[s->path[d]] <= 0)
      return 1;
  return 0;
}

static int circuit(line_set *s, uint32_t v, uint32_t start) {
  int found = 0;
  const adjacency *a = s->a;
  s->blocked[v] = 1;
  for (uint32_t k = a->out_at[v]; k < a->out_at[v + 1]; k++) {
    uint32_t e = a->out[k], w = s->edges[e].dst;
    if (!next_on_line(s, e, start))
      continue;
    s->path[s->depth++] = e;
    if (w == start) {
      take_circuit(s);
      found = 1;
    } else if (!path_spent(s) && !s->blocked[w]) {
      found |= circuit(s, w, start);
    }
    s->depth--;
  }
  if (found) {
    unblock(s, v);
    return 1;
  }
  for (uint32_t k = a->out_at[v]; k < a->out_at[v + 1]; k++)
    if (next_on_line(s, a->out[k], start))
      wait_for(s, s->edges[a->out[k]].dst, v);
  return 0;
}

/* Two numbers sorted by the first, then the second: a line and a block
 * that ends on it (gcov's line sets), a block and an edge out of it. */
typedef struct pair {
  uint32_t key, id;
} pair;

static int by_pair(const void *a, const void *b) {
  const pair *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* The count of the line whose blocks are ends[0 .. n) (key: the line,
 * id: a block): the entries into them from other blocks, plus the flow of
 * the circuits among them. */
static uint64_t line_set_count(line_set *s, const uint64_t *edge_count, const pair *ends,
                               uint32_t n) {
  const adjacency *a = s->a;
  uint64_t entries = 0;
  for (uint32_t i = 0; i < n; i++)
    s->member[ends[i].id] = 1;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t v = ends[i].id;
    for (uint32_t k = a->in_at[v]; k < a->in_at[v + 1]; k++)
      if (!s->member[s->edges[a->in[k]].src])
        entries = xprof_sat_add(entries, edge_count[a->in[k]]);
    for (uint32_t k = a->out_at[v]; k < a->out_at[v + 1]; k++)
      s->left[a->out[k]] = edge_count[a->out[k]] > INT64_MAX ? INT64_MAX
                                                               : (int64_t)edge_count[a->out[k]];
  }
  s->count = 0;
  for (uint32_t i = 0; i < n; i++) {
    s->depth = 0;
    circuit(s, ends[i].id, ends[i].id);
    for (uint32_t j = 0; j < n; j++) /* a fresh search from each start */
      unblock(s, ends[j].id);
  }
  for (uint32_t i = 0; i < n; i++)
    s->member[ends[i].id] = 0;
  return xprof_sat_add(entries, s->count);
}

/* Line counts by gcov's rule (above): ends[0 .. n_ends), (line, block)
 * pairs, says which lines each block ends on. */
static int count_lines(const xprof_cfgdump_entry *c, const uint64_t *edge_count,
                       const uint64_t *node_count, pair *ends, uint32_t n_ends,
                       xprof_proc_cov *cov) {
  for (uint32_t i = 0; i < c->n_lines; i++) { /* each block has a line once */
    xprof_cov_line *l = &cov->lines[line_index(cov, c->lines[i].file, c->lines[i].line)];
    l->blocks = xprof_sat_add(l->blocks, node_count[c->lines[i].node]);
    l->count = l->blocks;
  }
  adjacency a = {0};
  size_t nn = (size_t)c->n_nodes + 1;
  line_set s = {c->edges, &a, xprof_calloc(nn, 1), xprof_calloc(nn, 1),
                xprof_calloc((size_t)c->n_edges + 1, 8), xprof_calloc(nn, sizeof(uint32_t *)),
                xprof_calloc(nn, 4), xprof_calloc(nn, 4), xprof_calloc(nn + 1, 4), 0, 0, 0};
  int rc = -1;
  if (make_adjacency(c, &a) < 0 || !s.member || !s.blocked || !s.left || !s.waiting ||
      !s.n_waiting || !s.cap_waiting || !s.path)
    goto out;
  xprof_sort(ends, n_ends, sizeof *ends, by_pair);
  for (uint32_t i = 0, j; i < n_ends; i = j) {
    for (j = i + 1; j < n_ends && ends[j].key == ends[i].key; j++)
      ;
    cov->lines[ends[i].key].count = line_set_count(&s, edge_count, ends + i, j - i);
    cov->lines[ends[i].key].flags |= XPROF_COV_ENDS_BLOCK;
  }
  rc = s.failed ? -1 : 0;
out:
  free_adjacency(&a);
  for (uint32_t n = 0; s.waiting && n < c->n_nodes; n++)
    xprof_free(s.waiting[n]);
  xprof_free(s.member);
  xprof_free(s.blocked);
  xprof_free(s.left);
  xprof_free(s.waiting);
  xprof_free(s.n_waiting);
  xprof_free(s.cap_waiting);
  xprof_free(s.path);
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
} gcov_graph;

static void free_gcov_graph(gcov_graph *g) {
  xprof_free(g->c.edges);
  xprof_free(g->c.lines);
  xprof_free(g->edge_count);
  xprof_free(g->node_count);
}


/* gcov's numbering: each node's pieces in turn, each followed by the
 * blocks on its edges (GCC puts a block split off an edge after the
 * edge's source when the block before the destination falls into it,
 * the common case).  first[k], last[k]: node k's first and last piece;
 * on_edge[e]: the block on edge e or UINT32_MAX.  Returns the number of
 * blocks, or 0 when out of memory. */
static uint32_t number_blocks(const xprof_cfgdump_entry *c, uint32_t *first, uint32_t *last,
                              uint32_t *on_edge) {
  pair *eb = xprof_malloc(((size_t)c->n_edge_blocks + 1) * sizeof *eb);
  if (!eb)
    return 0;
  for (uint32_t b = 0; b < c->n_edge_blocks; b++)
    eb[b] = (pair){c->edges[c->edge_blocks[b].edge].src, c->edge_blocks[b].edge};
  xprof_sort(eb, c->n_edge_blocks, sizeof *eb, by_pair);
  for (uint32_t e = 0; e < c->n_edges; e++)
    on_edge[e] = UINT32_MAX;
  uint32_t n = 0, b = 0;
  for (uint32_t k = 0; k < c->n_nodes; k++) {
    first[k] = n;
    n += c->n_pieces ? c->n_pieces[k] : 1;
    last[k] = n - 1;
    for (; b < c->n_edge_blocks && eb[b].key == k; b++)
      on_edge[eb[b].id] = n++;
  }
  xprof_free(eb);
  return n;
}

static int expand(const xprof_cfgdump_entry *c, const uint64_t *edge_count,
                  const uint64_t *node_count, gcov_graph *g) {
  memset(g, 0, sizeof *g);
  uint32_t *first = xprof_malloc(((size_t)c->n_nodes + 1) * 4);
  uint32_t *last = xprof_malloc(((size_t)c->n_nodes + 1) * 4);
  uint32_t *on_edge = xprof_malloc(((size_t)c->n_edges + 1) * 4);
  uint32_t n = first && last && on_edge ? number_blocks(c, first, last, on_edge) : 0;
  if (!n)
    goto fail;
  g->c.n_nodes = n;
  g->c.gcc_rules = c->gcc_rules;
  size_t n_edges = (size_t)c->n_edges + n;
  g->c.edges = xprof_calloc(n_edges + 1, sizeof *g->c.edges);
  g->edge_count = xprof_calloc(n_edges + 1, 8);
  g->node_count = xprof_calloc((size_t)n + 1, 8);
  g->c.lines = xprof_calloc((size_t)c->n_lines + c->n_edge_blocks + 1, sizeof *g->c.lines);
  if (!g->c.edges || !g->edge_count || !g->node_count || !g->c.lines)
    goto fail;
  uint32_t m = 0;
  for (uint32_t k = 0; k < c->n_nodes; k++)
    for (uint32_t p = first[k]; p <= last[k]; p++) {
      g->node_count[p] = node_count[k];
      if (p < last[k]) { /* a piece runs into the next */
        g->c.edges[m] = (xprof_edge){p, p + 1, 0, 0, 0};
        g->edge_count[m++] = node_count[k];
      }
    }
  for (uint32_t e = 0; e < c->n_edges; e++) {
    const xprof_edge *x = &c->edges[e];
    uint32_t from = last[x->src], to = first[x->dst];
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
      g->c.lines[g->c.n_lines++] = (xprof_cfg_line){on_edge[c->edge_blocks[b].edge],
                                                    c->edge_blocks[b].file,
                                                    c->edge_blocks[b].line, 0, XPROF_NO_LINE,
                                                    XPROF_SITE_KINDS, 0, 0};
  xprof_free(first);
  xprof_free(last);
  xprof_free(on_edge);
  return 0;
fail:
  xprof_free(first);
  xprof_free(last);
  xprof_free(on_edge);
  free_gcov_graph(g);
  return -1;
}

/* The lines each block ends on: per run of its lines from one source (a
 * location group of gcov's notes), the highest under GCC's rules (gcov
 * sorts them), the last under LLVM's; none for last_block.  last_of[n]:
 * the line its last run ends on, where its branches are. */
static pair *block_ends(const xprof_cfgdump_entry *c, const xprof_proc_cov *cov,
                          uint32_t last_block, uint32_t *last_of, uint32_t *n_ends) {
  pair *ends = xprof_malloc(((size_t)c->n_lines + 1) * sizeof *ends);
  uint32_t n = 0;
  if (!ends)
    return NULL;
  for (uint32_t i = 0; i < c->n_lines; i++) {
    const xprof_cfg_line *r = &c->lines[i];
    uint32_t l = line_index(cov, r->file, r->line);
    int same_run = i > 0 && c->lines[i - 1].node == r->node && c->lines[i - 1].file == r->file;
    if (!same_run)
      ends[n++] = (pair){l, r->node};
    else if (!c->gcc_rules || r->line > cov->lines[ends[n - 1].key].line)
      ends[n - 1].key = l;
    last_of[r->node] = ends[n - 1].key;
  }
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++)
    if (ends[i].id != last_block)
      ends[m++] = ends[i];
  *n_ends = m;
  return ends;
}

/* Coverage of graph c (with gcov's blocks) and its counts; last_block:
 * the block that is no line's under GCC's rules, or UINT32_MAX. */
static int cover(const xprof_cfgdump_entry *c, const uint64_t *edge_count,
                 const uint64_t *node_count, uint32_t last_block, xprof_proc_cov *cov) {
  uint32_t *first_of = xprof_malloc(((size_t)c->n_nodes + 1) * 4);
  uint32_t *last_of = xprof_malloc(((size_t)c->n_nodes + 1) * 4);
  pair *ends = NULL;
  uint32_t n_ends = 0;
  int rc = -1;
  if (!first_of || !last_of || distinct_lines(c, cov) < 0)
    goto out;
  for (uint32_t n = 0; n < c->n_nodes; n++)
    first_of[n] = last_of[n] = UINT32_MAX;
  for (uint32_t i = 0; i < c->n_lines; i++) {
    uint32_t n = c->lines[i].node;
    if (first_of[n] == UINT32_MAX)
      first_of[n] = line_index(cov, c->lines[i].file, c->lines[i].line);
  }
  ends = block_ends(c, cov, last_block, last_of, &n_ends);
  if (!ends || count_lines(c, edge_count, node_count, ends, n_ends, cov) < 0 ||
      blocks_and_branches(c, edge_count, node_count, first_of, last_of, cov) < 0)
    goto out;
  rc = 0;
out:
  xprof_free(first_of);
  xprof_free(last_of);
  xprof_free(ends);
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
    /* The block GCC numbers last. */
    uint32_t last = c->gcc_rules && c->n_nodes > 2 ? g.c.n_nodes - 1 : UINT32_MAX;
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
