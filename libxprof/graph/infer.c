/*
 * infer.c - counts that are a flow, from estimates that are not: what a
 * line-level profile (another compiler's counts placed by source line, or
 * time samples) says of a function's blocks, made consistent before a
 * compiler sees it.
 *
 * Estimates disagree with each other: two blocks of one line get the
 * line's count, a sample lands on one instruction of a block and not on
 * another, a block's lines were merged away.  Handing the compiler counts
 * where a block runs more often than its predecessors let it gives wrong
 * branch probabilities (and GCC's checks fail).  So, as LLVM's profi does
 * for sample profiles (Levin and others, "Profile inference revisited",
 * CGO 2022), the counts are the flow through the CFG that departs least
 * from the estimates: a minimum-cost circulation in which each block is
 * an arc whose flow costs nothing up to its estimate and something beyond
 * it, and falling short of the estimate costs as much; blocks without an
 * estimate are free; each CFG edge costs a little (no flow is made up
 * without a reason), and EXIT flows back into ENTRY.
 *
 * The circulation is found by successive shortest paths: the reward of
 * each block's estimate is taken first (its arc saturated), which leaves
 * flow in excess after each block and missing before it; then each
 * excess is sent to the nearest shortage along the cheapest path
 * (Dijkstra on reduced costs, which stay non-negative), as much at a time
 * as the path takes.  Sending a block's flow back costs its reward: an
 * estimate that no path can honour is given up.
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof_graph.h"

/* The costs, per unit of flow, as LLVM's profi weighs them: an estimate
 * is more often short of the truth than beyond it (a sample missed, a
 * line merged away), so raising one costs less than lowering it, and
 * raising a zero a little more than raising a count; the entry's
 * estimate (a function's head) is the other way round.  Edges cost
 * little (no flow is made up without a reason); abnormal ones more. */
enum {
  COST_INC = 10, COST_DEC = 20, COST_ZERO_INC = 11, COST_ENTRY_INC = 40, COST_ENTRY_DEC = 10,
  COST_EDGE = 1, COST_FAKE_EDGE = 4
};
/* A measured count (XPROF_INFER_MEASURED: a block that salvage matched
 * to the training's) costs this many times an estimate's to move either
 * way: where an estimate of a block around it disagrees, the estimate
 * gives way.  A weak one (XPROF_INFER_WEAK: a count that a flow made up
 * where nothing was measured) costs half an estimate's: it decides what
 * nothing else does, and gives way to any estimate. */
enum { COST_MEASURED_FACTOR = 16, COST_WEAK_DIVISOR = 2 };

/* Block b's costs per unit of flow below (*dec) and beyond (*inc) its
 * weight w, as known[b] says it is known. */
static void block_costs(uint32_t b, unsigned char known, uint64_t w, int64_t *dec, int64_t *inc) {
  int entry = b == XPROF_ENTRY;
  *dec = entry ? COST_ENTRY_DEC : COST_DEC;
  *inc = entry ? COST_ENTRY_INC : w ? COST_INC : COST_ZERO_INC;
  if (known == XPROF_INFER_MEASURED) {
    *dec *= COST_MEASURED_FACTOR;
    *inc *= COST_MEASURED_FACTOR;
  } else if (known == XPROF_INFER_WEAK) {
    *dec /= COST_WEAK_DIVISOR;
    *inc /= COST_WEAK_DIVISOR;
  }
}
#define INF_CAP (UINT64_MAX / 4)

typedef struct arc {
  uint32_t to, next; /* next arc out of the same node */
  uint64_t cap, flow;
  int64_t cost;
} arc;

typedef struct net {
  arc *arcs;
  uint32_t n_arcs, cap_arcs;
  uint32_t *first; /* by node: its first arc, UINT32_MAX none */
  uint32_t n;
} net;

/* What more an arc can take.  A reverse arc has capacity 0 and the
 * negated flow of its twin: in unsigned arithmetic, cap - flow is then
 * the twin's flow, which sending back undoes. */
static uint64_t residual(const arc *a) { return a->cap - a->flow; }

/* An arc u -> v and its reverse (index ^ 1); its index, or UINT32_MAX. */
static uint32_t add_arc(net *g, uint32_t u, uint32_t v, uint64_t cap, int64_t cost) {
  if (g->n_arcs + 2 > g->cap_arcs) {
    uint32_t want = g->cap_arcs ? 2 * g->cap_arcs : 64;
    arc *a = xprof_realloc(g->arcs, (size_t)want * sizeof *a);
    if (!a)
      return UINT32_MAX;
    g->arcs = a;
    g->cap_arcs = want;
  }
  uint32_t i = g->n_arcs;
  g->arcs[i] = (arc){v, g->first[u], cap, 0, cost};
  g->arcs[i + 1] = (arc){u, g->first[v], 0, 0, -cost};
  g->first[u] = i;
  g->first[v] = i + 1;
  g->n_arcs += 2;
  return i;
}

/* ---- a binary heap of (distance, node) ------------------------------- */

typedef struct heap_item {
  int64_t d;
  uint32_t node;
} heap_item;

typedef struct heap {
  heap_item *v;
  uint32_t n;
} heap;

static void heap_push(heap *h, int64_t d, uint32_t node) {
  uint32_t i = h->n++;
  while (i && h->v[(i - 1) / 2].d > d) {
    h->v[i] = h->v[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->v[i] = (heap_item){d, node};
}

static heap_item heap_pop(heap *h) {
  heap_item top = h->v[0], last = h->v[--h->n];
  uint32_t i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= h->n)
      break;
    if (c + 1 < h->n && h->v[c + 1].d < h->v[c].d)
      c++;
    if (h->v[c].d >= last.d)
      break;
    h->v[i] = h->v[c];
    i = c;
  }
  if (h->n)
    h->v[i] = last;
  return top;
}

/* ---- successive shortest paths ------------------------------------------ */

typedef struct ssp {
  net *g;
  int64_t *excess; /* by node: flow in minus flow out */
  int64_t *pot, *dist;
  uint32_t *via;   /* by node: the arc that reached it */
  unsigned char *done;
  heap h;
} ssp;

/* The nearest node short of flow from s, by reduced costs, or UINT32_MAX;
 * potentials updated so that reduced costs stay non-negative. */
static uint32_t nearest_shortage(ssp *w, uint32_t s) {
  net *g = w->g;
  for (uint32_t v = 0; v < g->n; v++) {
    w->dist[v] = INT64_MAX;
    w->done[v] = 0;
  }
  w->dist[s] = 0;
  w->via[s] = UINT32_MAX;
  w->h.n = 0;
  heap_push(&w->h, 0, s);
  uint32_t t = UINT32_MAX;
  while (w->h.n) {
    heap_item it = heap_pop(&w->h);
    uint32_t u = it.node;
    if (w->done[u] || it.d != w->dist[u])
      continue;
    w->done[u] = 1;
    if (w->excess[u] < 0) {
      t = u;
      break;
    }
    for (uint32_t i = g->first[u]; i != UINT32_MAX; i = g->arcs[i].next) {
      const arc *a = &g->arcs[i];
      if (!residual(a) || w->done[a->to])
        continue;
      int64_t d = w->dist[u] + a->cost + w->pot[u] - w->pot[a->to];
      if (d < w->dist[a->to]) {
        w->dist[a->to] = d;
        w->via[a->to] = i;
        heap_push(&w->h, d, a->to);
      }
    }
  }
  if (t == UINT32_MAX)
    return t;
  /* Every node's potential moves by its distance, at most t's (nodes not
   * reached by t's: t's), which keeps every residual arc's reduced cost
   * non-negative. */
  int64_t dt = w->dist[t];
  for (uint32_t v = 0; v < g->n; v++)
    w->pot[v] += w->dist[v] < dt ? w->dist[v] : dt;
  return t;
}

/* Send what the path s ~> t takes; 0, or -1 when there is none. */
static int augment(ssp *w, uint32_t s) {
  uint32_t t = nearest_shortage(w, s);
  if (t == UINT32_MAX)
    return -1;
  uint64_t amount = (uint64_t)w->excess[s];
  if ((uint64_t)-w->excess[t] < amount)
    amount = (uint64_t)-w->excess[t];
  for (uint32_t v = t; v != s;) {
    const arc *a = &w->g->arcs[w->via[v]];
    if (residual(a) < amount)
      amount = residual(a);
    v = w->g->arcs[w->via[v] ^ 1].to;
  }
  for (uint32_t v = t; v != s;) {
    uint32_t i = w->via[v];
    w->g->arcs[i].flow += amount;
    w->g->arcs[i ^ 1].flow -= amount; /* the reverse's residual grows */
    v = w->g->arcs[i ^ 1].to;
  }
  w->excess[s] -= (int64_t)amount;
  w->excess[t] += (int64_t)amount;
  return 0;
}

/* The network of the CFG: node b as b_in = 2b and b_out = 2b + 1.
 * *edge_arc gets each CFG edge's arc (UINT32_MAX: ignored edge). */
static int build(net *g, uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                 const uint64_t *weight, const unsigned char *known, uint32_t *edge_arc,
                 uint32_t *block_arc) {
  for (uint32_t b = 0; b < n_nodes; b++) {
    uint32_t in = 2 * b, out = in + 1;
    if (known && known[b]) {
      /* Up to the estimate: a reward (negative cost), then a cost. */
      int64_t dec, inc;
      block_costs(b, known[b], weight[b], &dec, &inc);
      block_arc[2 * b] = add_arc(g, in, out, weight[b], -dec);
      block_arc[2 * b + 1] = add_arc(g, in, out, INF_CAP, inc);
    } else {
      block_arc[2 * b] = add_arc(g, in, out, INF_CAP, 0);
      block_arc[2 * b + 1] = UINT32_MAX;
    }
    if (block_arc[2 * b] == UINT32_MAX || (known && known[b] && block_arc[2 * b + 1] == UINT32_MAX))
      return -1;
  }
  for (uint32_t e = 0; e < n_edges; e++) {
    edge_arc[e] = UINT32_MAX;
    if (edges[e].flags & XPROF_EDGE_IGNORE || edges[e].src >= n_nodes || edges[e].dst >= n_nodes)
      continue;
    int64_t cost = edges[e].flags & XPROF_EDGE_FAKE ? COST_FAKE_EDGE : COST_EDGE;
    edge_arc[e] = add_arc(g, 2 * edges[e].src + 1, 2 * edges[e].dst, INF_CAP, cost);
    if (edge_arc[e] == UINT32_MAX)
      return -1;
  }
  return add_arc(g, 2 * XPROF_EXIT + 1, 2 * XPROF_ENTRY, INF_CAP, 0) == UINT32_MAX ? -1 : 0;
}

/* ---- connecting the flow ------------------------------------------------- */

/* A circulation may keep flow in a cycle that nothing enters: a loop
 * whose estimates pay for its own flow while the entry's goes by another
 * way (a call's fake edge to EXIT, say) -- a loop that runs without
 * being entered.  As profi joins isolated components, each such node is
 * joined to the rest by one more run along a path from ENTRY to it and
 * from it to EXIT (xprof_flow_connect).  Not part of xprof_infer_flow:
 * the joined flow is no longer the cheapest. */

/* The edges by their source (into: by their destination), as
 * xprof_out_edges says. */
static void index_edges(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges, int into,
                        uint32_t *at, uint32_t *by) {
  memset(at, 0, ((size_t)n_nodes + 2) * sizeof *at);
  for (uint32_t e = 0; e < n_edges; e++)
    at[(into ? edges[e].dst : edges[e].src) + 2]++;
  for (uint32_t v = 0; v < n_nodes; v++)
    at[v + 2] += at[v + 1];
  for (uint32_t e = 0; e < n_edges; e++)
    by[at[(into ? edges[e].dst : edges[e].src) + 1]++] = e;
}

void xprof_out_edges(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges, uint32_t *out,
                     uint32_t *by) {
  index_edges(n_nodes, edges, n_edges, 0, out, by);
}

void xprof_in_edges(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges, uint32_t *in,
                    uint32_t *by) {
  index_edges(n_nodes, edges, n_edges, 1, in, by);
}

/* BFS from `from` over real edges (fake ones too with fake) forward, or
 * backward; prev[v]: the edge that reached v, UINT32_MAX: not reached. */
static void search(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                   const uint32_t *out, const uint32_t *by, uint32_t from, int fake,
                   uint32_t *prev, uint32_t *queue) {
  for (uint32_t v = 0; v < n_nodes; v++)
    prev[v] = UINT32_MAX;
  uint32_t head = 0, tail = 0;
  queue[tail++] = from;
  prev[from] = n_edges; /* the start */
  while (head < tail) {
    uint32_t v = queue[head++];
    for (uint32_t k = out[v]; k < out[v + 1]; k++) {
      const xprof_edge *e = &edges[by[k]];
      if ((e->flags & XPROF_EDGE_IGNORE) || (!fake && (e->flags & XPROF_EDGE_FAKE)) ||
          prev[e->dst] != UINT32_MAX)
        continue;
      prev[e->dst] = by[k];
      queue[tail++] = e->dst;
    }
  }
}

/* One more run along the path search() found to `to`. */
static void add_run(const xprof_edge *edges, uint32_t n_edges, const uint32_t *prev, uint32_t to,
                    uint64_t *edge_count, uint64_t *node_count) {
  for (uint32_t v = to; prev[v] != n_edges; v = edges[prev[v]].src) {
    edge_count[prev[v]]++;
    node_count[v]++;
  }
}

/* Nodes with flow that the flow from ENTRY does not reach. */
static uint32_t isolated(uint32_t n_nodes, const xprof_edge *edges, const uint32_t *out, const uint32_t *by, const uint64_t *edge_count,
                         const uint64_t *node_count, unsigned char *seen, uint32_t *queue) {
  memset(seen, 0, n_nodes);
  uint32_t head = 0, tail = 0;
  queue[tail++] = XPROF_ENTRY;
  seen[XPROF_ENTRY] = 1;
  while (head < tail) {
    uint32_t v = queue[head++];
    for (uint32_t k = out[v]; k < out[v + 1]; k++)
      if (edge_count[by[k]] && !seen[edges[by[k]].dst]) {
        seen[edges[by[k]].dst] = 1;
        queue[tail++] = edges[by[k]].dst;
      }
  }
  for (uint32_t v = 2; v < n_nodes; v++)
    if (node_count[v] && !seen[v])
      return v;
  return UINT32_MAX;
}

void xprof_flow_connect(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                        uint64_t *edge_count, uint64_t *node_count) {
  uint32_t *out = xprof_calloc((size_t)n_nodes + 2, sizeof *out);
  uint32_t *by = xprof_calloc((size_t)n_edges + 1, sizeof *by);
  uint32_t *prev = xprof_calloc(n_nodes, sizeof *prev);
  uint32_t *queue = xprof_calloc(n_nodes, sizeof *queue);
  unsigned char *seen = xprof_calloc(n_nodes, 1);
  if (!out || !by || !prev || !queue || !seen)
    goto done;
  xprof_out_edges(n_nodes, edges, n_edges, out, by);
  for (uint32_t round = 0; round < n_nodes; round++) {
    uint32_t v = isolated(n_nodes, edges, out, by, edge_count, node_count, seen, queue);
    if (v == UINT32_MAX)
      break;
    search(n_nodes, edges, n_edges, out, by, XPROF_ENTRY, 0, prev, queue);
    if (prev[v] == UINT32_MAX)
      break; /* no way in: left as it is */
    uint32_t *to_v = xprof_malloc((size_t)n_nodes * sizeof *to_v);
    if (!to_v)
      break;
    memcpy(to_v, prev, (size_t)n_nodes * sizeof *to_v);
    search(n_nodes, edges, n_edges, out, by, v, 1, prev, queue);
    if (prev[XPROF_EXIT] != UINT32_MAX) {
      add_run(edges, n_edges, to_v, v, edge_count, node_count);
      add_run(edges, n_edges, prev, XPROF_EXIT, edge_count, node_count);
      node_count[XPROF_ENTRY]++;
    }
    xprof_free(to_v);
    if (prev[XPROF_EXIT] == UINT32_MAX)
      break;
  }
done:
  xprof_free(out);
  xprof_free(by);
  xprof_free(prev);
  xprof_free(queue);
  xprof_free(seen);
}

int xprof_infer_flow(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                     const uint64_t *weight, const unsigned char *known, uint64_t *edge_count,
                     uint64_t *node_count) {
  if (n_nodes < 2 || n_nodes > XPROF_INFER_MAX_NODES || n_edges > 8 * XPROF_INFER_MAX_NODES)
    return -1;
  net g = {NULL, 0, 0, NULL, 2 * n_nodes};
  ssp w;
  memset(&w, 0, sizeof w);
  w.g = &g;
  uint32_t *edge_arc = xprof_malloc(((size_t)n_edges + 1) * sizeof *edge_arc);
  uint32_t *block_arc = xprof_malloc((size_t)n_nodes * 2 * sizeof *block_arc);
  g.first = xprof_malloc((size_t)g.n * sizeof *g.first);
  w.excess = xprof_calloc(g.n, sizeof *w.excess);
  w.pot = xprof_calloc(g.n, sizeof *w.pot);
  w.dist = xprof_malloc((size_t)g.n * sizeof *w.dist);
  w.via = xprof_malloc((size_t)g.n * sizeof *w.via);
  w.done = xprof_malloc(g.n);
  int rc = -1;
  if (!edge_arc || !block_arc || !g.first || !w.excess || !w.pot || !w.dist || !w.via || !w.done)
    goto out;
  for (uint32_t v = 0; v < g.n; v++)
    g.first[v] = UINT32_MAX;
  if (build(&g, n_nodes, edges, n_edges, weight, known, edge_arc, block_arc) < 0)
    goto out;
  /* Heap room: a node is pushed at most once per arc into it. */
  w.h.v = xprof_malloc(((size_t)g.n_arcs + 1) * sizeof *w.h.v);
  if (!w.h.v)
    goto out;
  /* Take every reward: saturate the negative arcs. */
  for (uint32_t i = 0; i < g.n_arcs; i += 2) {
    arc *a = &g.arcs[i];
    if (a->cost >= 0 || !a->cap)
      continue;
    if (a->cap > (uint64_t)INT64_MAX / 4)
      goto out; /* an estimate too large to keep exact */
    a->flow = a->cap;
    g.arcs[i + 1].flow -= a->cap;
    w.excess[a->to] += (int64_t)a->cap;
    w.excess[g.arcs[i + 1].to] -= (int64_t)a->cap;
  }
  /* Each excess to the shortages.  Every path ends an excess or a
   * shortage, or fills an arc; the bound only stops a damaged graph. */
  uint64_t steps = 0, limit = 16 * ((uint64_t)g.n_arcs + g.n) + 1000;
  for (uint32_t v = 0; v < g.n; v++)
    while (w.excess[v] > 0) {
      if (++steps > limit || augment(&w, v) < 0)
        goto out;
    }
  for (uint32_t e = 0; e < n_edges; e++)
    edge_count[e] = edge_arc[e] == UINT32_MAX ? 0 : g.arcs[edge_arc[e]].flow;
  if (node_count) {
    for (uint32_t b = 0; b < n_nodes; b++)
      node_count[b] = g.arcs[block_arc[2 * b]].flow +
                      (block_arc[2 * b + 1] == UINT32_MAX ? 0 : g.arcs[block_arc[2 * b + 1]].flow);
  }
  rc = 0;
out:
  xprof_free(g.arcs);
  xprof_free(g.first);
  xprof_free(edge_arc);
  xprof_free(block_arc);
  xprof_free(w.excess);
  xprof_free(w.pot);
  xprof_free(w.dist);
  xprof_free(w.via);
  xprof_free(w.done);
  xprof_free(w.h.v);
  return rc;
}

uint64_t xprof_infer_cost(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                          const uint64_t *weight, const unsigned char *known,
                          const uint64_t *edge_count, const uint64_t *node_count) {
  uint64_t cost = 0;
  for (uint32_t b = 0; b < n_nodes; b++) {
    if (!known || !known[b])
      continue;
    int64_t dec, inc;
    block_costs(b, known[b], weight[b], &dec, &inc);
    if (node_count[b] > weight[b])
      cost += (node_count[b] - weight[b]) * (uint64_t)inc;
    else
      cost += (weight[b] - node_count[b]) * (uint64_t)dec;
  }
  for (uint32_t e = 0; e < n_edges; e++)
    if (!(edges[e].flags & XPROF_EDGE_IGNORE))
      cost += edge_count[e] * (uint64_t)(edges[e].flags & XPROF_EDGE_FAKE ? COST_FAKE_EDGE
                                                                         : COST_EDGE);
  return cost;
}
