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

int xprof_solve_flow_sites(uint32_t n_nodes, const xprof_edge *edges,
                           uint32_t n_edges, const uint32_t *counter_of_edge,
                           const uint64_t *counters, uint32_t n_counters,
                           const uint64_t *site_total, uint32_t n_sites,
                           uint64_t *edge_count, uint64_t *node_count) {
  /* Edge n_edges is the virtual EXIT -> ENTRY edge.  Counts are kept as
   * signed 128-bit values while solving so that an inconsistent profile
   * shows up as a negative count instead of wrapping. */
  uint32_t m = n_edges + 1;
  __int128 *val = xprof_calloc(m, sizeof *val);
  unsigned char *known = xprof_calloc(m, 1);
  uint32_t *unknown_in = xprof_calloc(n_nodes, sizeof *unknown_in);
  uint32_t *unknown_out = xprof_calloc(n_nodes, sizeof *unknown_out);
  __int128 *in_sum = xprof_calloc(n_nodes, sizeof *in_sum);
  __int128 *out_sum = xprof_calloc(n_nodes, sizeof *out_sum);
  uint32_t *first = xprof_malloc(((size_t)n_nodes + 1) * sizeof *first);
  uint32_t *adj = xprof_malloc((size_t)m * 2 * sizeof *adj);
  uint32_t *stack = xprof_malloc(((size_t)n_nodes + 1) * sizeof *stack);
  int rc = -1;
  if (!val || !known || !unknown_in || !unknown_out || !in_sum || !out_sum ||
      !first || !adj || !stack || n_nodes < 2)
    goto out;

#define SRC(e) ((e) == n_edges ? XPROF_EXIT : edges[e].src)
#define DST(e) ((e) == n_edges ? XPROF_ENTRY : edges[e].dst)
  /* Incidence lists (each edge at both ends). */
  for (uint32_t i = 0; i <= n_nodes; i++)
    first[i] = 0;
  for (uint32_t e = 0; e < m; e++) {
    if (e < n_edges && (edges[e].flags & XPROF_EDGE_IGNORE))
      continue;
    if (SRC(e) >= n_nodes || DST(e) >= n_nodes)
      goto out;
    first[SRC(e)]++;
    first[DST(e)]++;
  }
  for (uint32_t i = 0, acc = 0; i <= n_nodes; i++) {
    uint32_t c = i < n_nodes ? first[i] : 0;
    first[i] = acc;
    acc += c;
  }
  {
    uint32_t *fill = xprof_calloc(n_nodes, sizeof *fill);
    if (!fill)
      goto out;
    for (uint32_t e = 0; e < m; e++) {
      if (e < n_edges && (edges[e].flags & XPROF_EDGE_IGNORE))
        continue;
      adj[first[SRC(e)] + fill[SRC(e)]++] = e;
      adj[first[DST(e)] + fill[DST(e)]++] = e;
    }
    xprof_free(fill);
  }

  for (uint32_t e = 0; e < m; e++) {
    int ignored = e < n_edges && (edges[e].flags & XPROF_EDGE_IGNORE);
    uint32_t c = e < n_edges ? counter_of_edge[e] : XPROF_ON_TREE;
    if (ignored) {
      known[e] = 1; /* not part of the graph: count 0 */
      continue;
    }
    if (c == XPROF_MEASURED) {
      if (edges[e].site >= n_sites)
        goto out;
      known[e] = 1;
      val[e] = site_total[edges[e].site];
      in_sum[DST(e)] += val[e];
      out_sum[SRC(e)] += val[e];
    } else if (XPROF_HAS_COUNTER(c)) {
      if (c >= n_counters)
        goto out;
      known[e] = 1;
      val[e] = counters[c];
      in_sum[DST(e)] += val[e];
      out_sum[SRC(e)] += val[e];
    } else {
      unknown_in[DST(e)]++;
      unknown_out[SRC(e)]++;
    }
  }

  /* Peel: a node with exactly one unknown incident edge determines it. */
  uint32_t sp = 0;
  for (uint32_t v = 0; v < n_nodes; v++)
    if (unknown_in[v] + unknown_out[v] == 1)
      stack[sp++] = v;
  while (sp) {
    uint32_t v = stack[--sp];
    if (unknown_in[v] + unknown_out[v] != 1)
      continue;
    uint32_t e = UINT32_MAX;
    for (uint32_t k = first[v]; k < first[v + 1]; k++)
      if (!known[adj[k]]) {
        e = adj[k];
        break;
      }
    if (e == UINT32_MAX)
      continue;
    /* in(v) = out(v): the unknown edge makes up the difference. */
    __int128 x = DST(e) == v && unknown_in[v] ? out_sum[v] - in_sum[v]
                                              : in_sum[v] - out_sum[v];
    known[e] = 1;
    val[e] = x;
    uint32_t s = SRC(e), d = DST(e);
    out_sum[s] += x;
    in_sum[d] += x;
    unknown_out[s]--;
    unknown_in[d]--;
    if (unknown_in[s] + unknown_out[s] == 1)
      stack[sp++] = s;
    if (d != s && unknown_in[d] + unknown_out[d] == 1)
      stack[sp++] = d;
  }

  rc = 0;
  for (uint32_t e = 0; e < m; e++) {
    if (!known[e]) { /* only when the unknown edges do not form a forest */
      rc = -1;
      goto out;
    }
    if (val[e] < 0) {
      /* A fake edge may come out negative where a function returns more
       * than once (setjmp): it is not control flow, and GCC's profiler
       * allows the same.  A real edge below zero means bad counts. */
      if (e == n_edges || !(edges[e].flags & XPROF_EDGE_FAKE))
        rc = 1;
      val[e] = 0;
    }
  }
  for (uint32_t e = 0; e < n_edges; e++)
    edge_count[e] = clamp64(val[e]);
  if (node_count) {
    for (uint32_t v = 0; v < n_nodes; v++)
      node_count[v] = 0;
    for (uint32_t e = 0; e < m; e++) {
      if (e < n_edges && (edges[e].flags & XPROF_EDGE_IGNORE))
        continue;
      /* A node's count is what flows into it (ENTRY: via the virtual edge). */
      node_count[DST(e)] = xprof_sat_add(node_count[DST(e)], clamp64(val[e]));
    }
  }
#undef SRC
#undef DST
out:
  xprof_free(val);
  xprof_free(known);
  xprof_free(unknown_in);
  xprof_free(unknown_out);
  xprof_free(in_sum);
  xprof_free(out_sum);
  xprof_free(first);
  xprof_free(adj);
  xprof_free(stack);
  return rc;
}
