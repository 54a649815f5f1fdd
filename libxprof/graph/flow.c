/*
 * flow.c - counter placement on a spanning tree, CFG signatures and the
 * flow solver, shared by both compiler plugins and the tools.
 *
 * Only the edges off a spanning tree of the CFG (with the virtual edge
 * EXIT -> ENTRY) need counters: by flow conservation every tree edge's
 * count follows from them (Knuth and Stevenson, 1973; Ball and Larus,
 * 1994).  Putting the heaviest edges on the tree leaves the counters on
 * cold edges.
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof_graph.h"

static uint32_t uf_find(uint32_t *parent, uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

/* Join the sets of a and b; returns 0 when they were already one. */
static int uf_union(uint32_t *parent, uint32_t a, uint32_t b) {
  a = uf_find(parent, a);
  b = uf_find(parent, b);
  if (a == b)
    return 0;
  parent[a] = b;
  return 1;
}

typedef struct ranked {
  uint32_t edge;
  uint32_t klass; /* 0 first */
  uint64_t weight;
} ranked;

static int ranked_cmp(const void *pa, const void *pb) {
  const ranked *a = pa, *b = pb;
  if (a->klass != b->klass)
    return a->klass < b->klass ? -1 : 1;
  if (a->weight != b->weight)
    return a->weight > b->weight ? -1 : 1;
  return a->edge < b->edge ? -1 : a->edge > b->edge;
}

int64_t xprof_place_counters(uint32_t n_nodes, const xprof_edge *edges,
                             uint32_t n_edges, uint32_t *counter_of_edge) {
  if (n_nodes < 2)
    return -1;
  uint32_t *parent = xprof_malloc((size_t)n_nodes * sizeof *parent);
  ranked *order = xprof_malloc(((size_t)n_edges + 1) * sizeof *order);
  if (!parent || !order) {
    xprof_free(parent);
    xprof_free(order);
    return -1;
  }
  for (uint32_t i = 0; i < n_nodes; i++)
    parent[i] = i;
  uf_union(parent, XPROF_EXIT, XPROF_ENTRY); /* the virtual edge */

  uint32_t n = 0;
  for (uint32_t e = 0; e < n_edges; e++) {
    counter_of_edge[e] = XPROF_NOT_IN_GRAPH;
    if (edges[e].flags & XPROF_EDGE_IGNORE)
      continue;
    if (edges[e].src >= n_nodes || edges[e].dst >= n_nodes) {
      xprof_free(parent);
      xprof_free(order);
      return -1;
    }
    if (edges[e].flags & XPROF_EDGE_MEASURED) {
      counter_of_edge[e] = XPROF_MEASURED;
      continue;
    }
    /* Fake edges cannot carry counters; counters on edges into EXIT would
     * sit after the return value is set.  Critical edges would need a new
     * block, so they count double. */
    uint32_t klass = (edges[e].flags & (XPROF_EDGE_FAKE | XPROF_EDGE_NOCOUNT)) ? 0
                     : edges[e].dst == XPROF_EXIT       ? 1
                                                        : 2;
    uint64_t w = edges[e].weight;
    if (edges[e].flags & XPROF_EDGE_CRITICAL)
      w = w > UINT64_MAX / 2 ? UINT64_MAX : 2 * w + 1;
    order[n++] = (ranked){e, klass, w};
  }
  xprof_sort(order, n, sizeof *order, ranked_cmp);
  int64_t result = 0;
  for (uint32_t i = 0; i < n; i++) {
    const xprof_edge *e = &edges[order[i].edge];
    if (uf_union(parent, e->src, e->dst)) {
      counter_of_edge[order[i].edge] = XPROF_ON_TREE;
    } else if (e->flags & (XPROF_EDGE_FAKE | XPROF_EDGE_NOCOUNT)) {
      result = -1; /* would need a counter where none can go */
    } else {
      counter_of_edge[order[i].edge] = 0; /* numbered below */
    }
  }
  if (result == 0) {
    uint32_t next = 0;
    for (uint32_t e = 0; e < n_edges; e++)
      if (counter_of_edge[e] == 0 &&
          !(edges[e].flags & XPROF_EDGE_IGNORE))
        counter_of_edge[e] = next++;
    result = next;
  }
  xprof_free(parent);
  xprof_free(order);
  return result;
}

/* Mark in reach[] the nodes that reach `from` backward over `edges` (in
 * the reverse adjacency rfirst/rnext of edge indices). */
static void mark_reaching(const xprof_edge *edges, const uint32_t *rfirst,
                          const uint32_t *rnext, uint32_t from, unsigned char *reach,
                          uint32_t *stack) {
  uint32_t sp = 0;
  if (reach[from])
    return;
  reach[from] = 1;
  stack[sp++] = from;
  while (sp) {
    uint32_t v = stack[--sp];
    for (uint32_t e = rfirst[v]; e != UINT32_MAX; e = rnext[e])
      if (!reach[edges[e].src]) {
        reach[edges[e].src] = 1;
        stack[sp++] = edges[e].src;
      }
  }
}

int64_t xprof_dead_ends(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                        uint32_t *from) {
  uint32_t *rfirst = xprof_malloc(((size_t)n_nodes + 1) * sizeof *rfirst);
  uint32_t *rnext = xprof_malloc(((size_t)n_edges + 1) * sizeof *rnext);
  uint32_t *ffirst = xprof_malloc(((size_t)n_nodes + 1) * sizeof *ffirst);
  uint32_t *fnext = xprof_malloc(((size_t)n_edges + 1) * sizeof *fnext);
  uint32_t *stack = xprof_malloc(((size_t)n_nodes + 1) * sizeof *stack);
  unsigned char *reach = xprof_calloc((size_t)n_nodes + 1, 1);
  unsigned char *walked = xprof_calloc((size_t)n_nodes + 1, 1);
  int64_t n = -1;
  if (!rfirst || !rnext || !ffirst || !fnext || !stack || !reach || !walked)
    goto out;
  for (uint32_t v = 0; v < n_nodes; v++)
    rfirst[v] = ffirst[v] = UINT32_MAX;
  for (uint32_t e = n_edges; e-- > 0;) { /* lists in edge order */
    if (edges[e].flags & XPROF_EDGE_IGNORE || edges[e].src >= n_nodes ||
        edges[e].dst >= n_nodes)
      continue;
    rnext[e] = rfirst[edges[e].dst];
    rfirst[edges[e].dst] = e;
    fnext[e] = ffirst[edges[e].src];
    ffirst[edges[e].src] = e;
  }
  mark_reaching(edges, rfirst, rnext, XPROF_EXIT, reach, stack);
  n = 0;
  for (uint32_t v = 2; v < n_nodes; v++) {
    if (reach[v])
      continue;
    /* Every successor of v is a dead end too: walk along first successors
     * until the walk closes a loop (or stops at a block without any), and
     * give that block the fake edge, as GCC's connect_infinite_loops_to_exit
     * gives one to a block of each infinite loop. */
    uint32_t u = v;
    for (;;) {
      walked[u] = 1;
      uint32_t next = UINT32_MAX;
      for (uint32_t e = ffirst[u]; e != UINT32_MAX && next == UINT32_MAX; e = fnext[e])
        if (!reach[edges[e].dst] && edges[e].dst != XPROF_ENTRY)
          next = edges[e].dst;
      if (next == UINT32_MAX || walked[next]) {
        u = next == UINT32_MAX ? u : next;
        break;
      }
      u = next;
    }
    from[n++] = u;
    /* The fake edge u -> EXIT makes u and all that leads to it reach EXIT. */
    mark_reaching(edges, rfirst, rnext, u, reach, stack);
    memset(walked, 0, n_nodes);
  }
out:
  xprof_free(rfirst);
  xprof_free(rnext);
  xprof_free(ffirst);
  xprof_free(fnext);
  xprof_free(stack);
  xprof_free(reach);
  xprof_free(walked);
  return n;
}

uint64_t xprof_cfg_signature(uint32_t n_nodes, const xprof_edge *edges,
                             uint32_t n_edges, const uint32_t *counter_of_edge) {
  /* FNV-1a over little-endian words: node count, then per edge its ends,
   * its kind and whether it has a counter. */
  uint64_t h = 0xcbf29ce484222325ull;
  unsigned char w[4];
#define MIX(v)                                                               \
  do {                                                                       \
    xprof_put32(w, (v));                                                     \
    for (int k_ = 0; k_ < 4; k_++) {                                         \
      h ^= w[k_];                                                            \
      h *= 0x100000001b3ull;                                                 \
    }                                                                        \
  } while (0)
  MIX(n_nodes);
  MIX(n_edges);
  for (uint32_t e = 0; e < n_edges; e++) {
    MIX(edges[e].src);
    MIX(edges[e].dst);
    MIX(edges[e].flags & (XPROF_EDGE_FAKE | XPROF_EDGE_IGNORE));
    MIX(counter_of_edge[e] == XPROF_ON_TREE        ? 0u
        : counter_of_edge[e] == XPROF_NOT_IN_GRAPH ? 1u
        : counter_of_edge[e] == XPROF_MEASURED     ? 3u + edges[e].site
                                                   : 2u);
  }
#undef MIX
  return h;
}

uint64_t xprof_proc_signature(uint64_t cfg_signature, uint32_t n_vp_sites) {
  return cfg_signature ^ (0x9e3779b97f4a7c15ull * (uint64_t)(n_vp_sites + 1));
}

uint64_t xprof_comdat_key(uint64_t signature, const xprof_edge *edges,
                          uint32_t n_edges, int debug_counters,
                          const uint32_t *site_words, uint32_t n_sites) {
  uint64_t h = signature ^ 0x9e3779b97f4a7c15ull;
  for (uint32_t e = 0; debug_counters && e < n_edges; e++)
    h = (h ^ (XPROF_DEBUG_COUNTED(edges[e].flags) ? e + 1 : 0)) * 0x100000001b3ull;
  for (uint32_t s = 0; s < n_sites; s++)
    h = (h ^ site_words[s]) * 0x100000001b3ull;
  return h;
}

/* A solved count as a counter: huge sums (a damaged profile) saturate. */
static uint64_t clamp64(__int128 v) {
  return v > (__int128)UINT64_MAX ? UINT64_MAX : v < 0 ? 0 : (uint64_t)v;
}

int xprof_solve_flow(uint32_t n_nodes, const xprof_edge *edges,
                     uint32_t n_edges, const uint32_t *counter_of_edge,
                     const uint64_t *counters, uint32_t n_counters,
                     uint64_t *edge_count, uint64_t *node_count) {
  return xprof_solve_flow_sites(n_nodes, edges, n_edges, counter_of_edge,
                                counters, n_counters, NULL, 0, edge_count,
                                node_count);
}

/* The solver's state.  Edge n_edges is the virtual EXIT -> ENTRY edge.
 * Counts are kept as signed 128-bit values while solving so that an
 * inconsistent profile shows up as a negative count instead of wrapping. */
typedef struct solver {
  uint32_t n_nodes, n_edges, m; /* m: the edges with the virtual one */
  const xprof_edge *edges;
  __int128 *val, *in_sum, *out_sum;
  unsigned char *known;
  uint32_t *unknown_in, *unknown_out;
  uint32_t *first, *adj; /* incidence lists: node v's edges are adj[first[v]..first[v+1]) */
  uint32_t *stack;
} solver;

static uint32_t src_of(const solver *s, uint32_t e) {
  return e == s->n_edges ? XPROF_EXIT : s->edges[e].src;
}

static uint32_t dst_of(const solver *s, uint32_t e) {
  return e == s->n_edges ? XPROF_ENTRY : s->edges[e].dst;
}

static int ignored(const solver *s, uint32_t e) {
  return e < s->n_edges && (s->edges[e].flags & XPROF_EDGE_IGNORE);
}

static void solver_free(solver *s) {
  xprof_free(s->val);
  xprof_free(s->known);
  xprof_free(s->unknown_in);
  xprof_free(s->unknown_out);
  xprof_free(s->in_sum);
  xprof_free(s->out_sum);
  xprof_free(s->first);
  xprof_free(s->adj);
  xprof_free(s->stack);
}

static int solver_init(solver *s, uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges) {
  memset(s, 0, sizeof *s);
  s->n_nodes = n_nodes;
  s->n_edges = n_edges;
  s->m = n_edges + 1;
  s->edges = edges;
  s->val = xprof_calloc(s->m, sizeof *s->val);
  s->known = xprof_calloc(s->m, 1);
  s->unknown_in = xprof_calloc(n_nodes, sizeof *s->unknown_in);
  s->unknown_out = xprof_calloc(n_nodes, sizeof *s->unknown_out);
  s->in_sum = xprof_calloc(n_nodes, sizeof *s->in_sum);
  s->out_sum = xprof_calloc(n_nodes, sizeof *s->out_sum);
  s->first = xprof_calloc((size_t)n_nodes + 1, sizeof *s->first);
  s->adj = xprof_malloc((size_t)s->m * 2 * sizeof *s->adj);
  s->stack = xprof_malloc(((size_t)n_nodes + 1) * sizeof *s->stack);
  if (s->val && s->known && s->unknown_in && s->unknown_out && s->in_sum && s->out_sum &&
      s->first && s->adj && s->stack && n_nodes >= 2)
    return 0;
  solver_free(s);
  return -1;
}

/* Each edge in the incidence lists of both its ends; -1 when an edge
 * names a node the graph does not have. */
static int incidence(solver *s) {
  for (uint32_t e = 0; e < s->m; e++) {
    if (ignored(s, e))
      continue;
    if (src_of(s, e) >= s->n_nodes || dst_of(s, e) >= s->n_nodes)
      return -1;
    s->first[src_of(s, e)]++;
    s->first[dst_of(s, e)]++;
  }
  for (uint32_t i = 0, acc = 0; i <= s->n_nodes; i++) {
    uint32_t c = i < s->n_nodes ? s->first[i] : 0;
    s->first[i] = acc;
    acc += c;
  }
  uint32_t *fill = xprof_calloc(s->n_nodes, sizeof *fill);
  if (!fill)
    return -1;
  for (uint32_t e = 0; e < s->m; e++) {
    if (ignored(s, e))
      continue;
    s->adj[s->first[src_of(s, e)] + fill[src_of(s, e)]++] = e;
    s->adj[s->first[dst_of(s, e)] + fill[dst_of(s, e)]++] = e;
  }
  xprof_free(fill);
  return 0;
}

static void set_known(solver *s, uint32_t e, __int128 v) {
  s->known[e] = 1;
  s->val[e] = v;
  s->in_sum[dst_of(s, e)] += v;
  s->out_sum[src_of(s, e)] += v;
}

/* What the counters and sites say: their edges' counts; -1 when a counter
 * or site is beyond those given. */
static int seed(solver *s, const uint32_t *counter_of_edge, const uint64_t *counters,
                uint32_t n_counters, const uint64_t *site_total, uint32_t n_sites) {
  for (uint32_t e = 0; e < s->m; e++) {
    uint32_t c = e < s->n_edges ? counter_of_edge[e] : XPROF_ON_TREE;
    if (ignored(s, e)) {
      s->known[e] = 1; /* not part of the graph: count 0 */
    } else if (c == XPROF_MEASURED) {
      if (s->edges[e].site >= n_sites)
        return -1;
      set_known(s, e, site_total[s->edges[e].site]);
    } else if (XPROF_HAS_COUNTER(c)) {
      if (c >= n_counters)
        return -1;
      set_known(s, e, counters[c]);
    } else {
      s->unknown_in[dst_of(s, e)]++;
      s->unknown_out[src_of(s, e)]++;
    }
  }
  return 0;
}

/* Peel: a node with exactly one unknown incident edge determines it. */
static void peel(solver *s) {
  uint32_t sp = 0;
  for (uint32_t v = 0; v < s->n_nodes; v++)
    if (s->unknown_in[v] + s->unknown_out[v] == 1)
      s->stack[sp++] = v;
  while (sp) {
    uint32_t v = s->stack[--sp];
    if (s->unknown_in[v] + s->unknown_out[v] != 1)
      continue;
    uint32_t e = UINT32_MAX;
    for (uint32_t k = s->first[v]; k < s->first[v + 1]; k++)
      if (!s->known[s->adj[k]]) {
        e = s->adj[k];
        break;
      }
    if (e == UINT32_MAX)
      continue;
    /* in(v) = out(v): the unknown edge makes up the difference. */
    __int128 x = dst_of(s, e) == v && s->unknown_in[v] ? s->out_sum[v] - s->in_sum[v]
                                                       : s->in_sum[v] - s->out_sum[v];
    uint32_t from = src_of(s, e), to = dst_of(s, e);
    set_known(s, e, x);
    s->unknown_out[from]--;
    s->unknown_in[to]--;
    if (s->unknown_in[from] + s->unknown_out[from] == 1)
      s->stack[sp++] = from;
    if (to != from && s->unknown_in[to] + s->unknown_out[to] == 1)
      s->stack[sp++] = to;
  }
}

/* The solved counts, negative ones clamped: 0, 1 when a real edge came
 * out negative, -1 when some edge is still unknown. */
static int results(solver *s, uint64_t *edge_count, uint64_t *node_count) {
  int rc = 0;
  for (uint32_t e = 0; e < s->m; e++) {
    if (!s->known[e]) /* only when the unknown edges do not form a forest */
      return -1;
    if (s->val[e] < 0) {
      /* A fake edge may come out negative where a function returns more
       * than once (setjmp): it is not control flow, and GCC's profiler
       * allows the same.  A real edge below zero means bad counts. */
      if (e == s->n_edges || !(s->edges[e].flags & XPROF_EDGE_FAKE))
        rc = 1;
      s->val[e] = 0;
    }
  }
  for (uint32_t e = 0; e < s->n_edges; e++)
    edge_count[e] = clamp64(s->val[e]);
  if (node_count) {
    for (uint32_t v = 0; v < s->n_nodes; v++)
      node_count[v] = 0;
    /* A node's count is what flows into it (ENTRY: via the virtual edge). */
    for (uint32_t e = 0; e < s->m; e++)
      if (!ignored(s, e))
        node_count[dst_of(s, e)] = xprof_sat_add(node_count[dst_of(s, e)], clamp64(s->val[e]));
  }
  return rc;
}

int xprof_solve_flow_sites(uint32_t n_nodes, const xprof_edge *edges,
                           uint32_t n_edges, const uint32_t *counter_of_edge,
                           const uint64_t *counters, uint32_t n_counters,
                           const uint64_t *site_total, uint32_t n_sites,
                           uint64_t *edge_count, uint64_t *node_count) {
  solver s;
  if (solver_init(&s, n_nodes, edges, n_edges) < 0)
    return -1;
  int rc = -1;
  if (incidence(&s) == 0 &&
      seed(&s, counter_of_edge, counters, n_counters, site_total, n_sites) == 0) {
    peel(&s);
    rc = results(&s, edge_count, node_count);
  }
  solver_free(&s);
  return rc;
}
