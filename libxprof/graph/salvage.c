/*
 * salvage.c - counts for a procedure whose code changed since training,
 * from the counts and shape (shape.c) of the procedure that was trained.
 *
 * Three steps, each a function below:
 *
 *  1. Match blocks.  ENTRY and EXIT match themselves.  A block matches the
 *     old block with the same contents hash when the hash is unique on
 *     both sides; then, among blocks whose hash is not unique, by the hash
 *     together with those of its predecessors and successors; then what
 *     is left of a group of equal hashes pairs off in block order (the
 *     order of the code).  Last, a block whose contents changed (a
 *     statement added to it) matches by its place: the one unmatched
 *     block on each side between the same matched blocks.  A block
 *     matches at most one.
 *
 *  2. Carry counts over: a matched block keeps its old block's count; an
 *     edge between matched blocks whose old blocks had an edge keeps that
 *     edge's count; the function's entry count is kept whatever else
 *     changed.
 *
 *  3. Infer the rest by flow conservation.  Each block is split into an
 *     in-node and an out-node joined by an arc that carries the block's
 *     count, so that block counts and edge counts are constraints of one
 *     kind.  The known arcs leave each node with a surplus or a deficit,
 *     which the unknown arcs must carry away: a maximum flow from the
 *     surpluses to the deficits over the unknown arcs (shortest augmenting
 *     paths, Edmonds and Karp), fake edges (abnormal exits) only where
 *     real ones cannot do it.  Shortest paths put the flow that the
 *     changed code must carry on as few new blocks as possible: new code
 *     that training could not have run is taken as cold unless flow
 *     conservation says otherwise.  When the known counts contradict each
 *     other on the new graph (the code around a block changed so that
 *     its old count cannot be right any more), the known counts on the
 *     cut that stops the flow are dropped and the flow is found again.  The result is always a consistent flow.
 *
 *  4. For a use build (xprof_use_salvage), the value-profile records
 *     follow their sites: a new site takes the record of the old site of
 *     the same type in the matched block, the k-th of its type there on
 *     both sides; side counters (LLVM's counted selects) likewise.
 *
 * This is a feasible flow, not a minimum-cost one (BOLT's and LLVM's
 * profile inference minimise a cost of changing counts); it keeps every
 * count that fits the new graph and makes no count up where the graph
 * does not require one.
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof_graph.h"

/* Rounds of dropping contradicting constraints before only the entry
 * count is kept. */
#define MAX_ROUNDS 16
#define UNMATCHED UINT32_MAX

/* ---- step 1: matching blocks ---------------------------------------------- */

typedef struct keyed {
  uint64_t key;
  uint32_t side; /* 0 old, 1 new */
  uint32_t node;
} keyed;

static int keyed_cmp(const void *pa, const void *pb) {
  const keyed *a = pa, *b = pb;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  if (a->side != b->side)
    return a->side < b->side ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

typedef struct matching {
  uint32_t n_old, n_new;
  uint32_t *new_of_old, *old_of_new;
  keyed *scratch; /* room for n_old + n_new */
} matching;

/* Pair the unmatched blocks of equal key: when the key is unique on both
 * sides, or (zip) in block order. */
static void match_by(matching *m, const uint64_t *old_key, const uint64_t *new_key, int zip) {
  uint32_t n = 0;
  for (uint32_t v = 2; v < m->n_old; v++)
    if (m->new_of_old[v] == UNMATCHED)
      m->scratch[n++] = (keyed){old_key[v], 0, v};
  for (uint32_t v = 2; v < m->n_new; v++)
    if (m->old_of_new[v] == UNMATCHED)
      m->scratch[n++] = (keyed){new_key[v], 1, v};
  xprof_sort(m->scratch, n, sizeof *m->scratch, keyed_cmp);
  for (uint32_t i = 0, end; i < n; i = end) {
    uint32_t olds = 0;
    for (end = i; end < n && m->scratch[end].key == m->scratch[i].key; end++)
      olds += m->scratch[end].side == 0;
    uint32_t news = end - i - olds;
    if (!zip && (olds != 1 || news != 1))
      continue;
    for (uint32_t k = 0; k < olds && k < news; k++) {
      uint32_t o = m->scratch[i + k].node, w = m->scratch[i + olds + k].node;
      m->new_of_old[o] = w;
      m->old_of_new[w] = o;
    }
  }
}

static uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

/* Each block's hash with those of its neighbours (in any order). */
static void neighbour_keys(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                           const uint32_t *hash, uint64_t *key) {
  for (uint32_t v = 0; v < n_nodes; v++)
    key[v] = hash[v];
  for (uint32_t e = 0; e < n_edges; e++) {
    if (edges[e].flags & XPROF_EDGE_IGNORE)
      continue;
    key[edges[e].src] += mix64((uint64_t)hash[edges[e].dst] << 1) << 32;
    key[edges[e].dst] += mix64((uint64_t)hash[edges[e].src] << 1 | 1) << 32;
  }
}

/* Anchors: each unmatched block's matched neighbours (predecessors with
 * preds, successors with succs), by their numbers in the new graph; a
 * block with none gets a key of its own, which matches nothing.  to_new
 * maps this graph's nodes to the new graph's (NULL: it is the new one). */
static void anchor_keys(const matching *m, uint32_t n_nodes, const xprof_edge *edges,
                        uint32_t n_edges, const uint32_t *to_new, int preds, int succs,
                        uint64_t side, uint64_t *key) {
  const uint32_t *own = to_new ? m->new_of_old : m->old_of_new;
  for (uint32_t v = 0; v < n_nodes; v++)
    key[v] = 0;
  for (uint32_t e = 0; e < n_edges; e++) {
    uint32_t u = edges[e].src, w = edges[e].dst;
    if (edges[e].flags & XPROF_EDGE_IGNORE)
      continue;
    if (preds && own[w] == UNMATCHED && own[u] != UNMATCHED)
      key[w] += mix64((uint64_t)(to_new ? to_new[u] : u) << 1 | 1);
    if (succs && own[u] == UNMATCHED && own[w] != UNMATCHED)
      key[u] += mix64((uint64_t)(to_new ? to_new[w] : w) << 1);
  }
  for (uint32_t v = 0; v < n_nodes; v++)
    if (!key[v])
      key[v] = side | v;
}

static uint32_t n_matched(const matching *m) {
  uint32_t n = 0;
  for (uint32_t v = 2; v < m->n_new; v++)
    n += m->old_of_new[v] != UNMATCHED;
  return n;
}

/* Blocks whose contents changed, by their place: the unmatched block
 * whose matched neighbours are the same on both sides (then its matched
 * predecessors alone, then its successors), until nothing more matches. */
static void match_by_place(matching *m, const xprof_shape *old, uint32_t n_nodes,
                           const xprof_edge *edges, uint32_t n_edges, uint64_t *ko,
                           uint64_t *kn) {
  static const int sides[3][2] = {{1, 1}, {1, 0}, {0, 1}};
  for (uint32_t before = UINT32_MAX; before != n_matched(m);) {
    before = n_matched(m);
    for (int k = 0; k < 3; k++) {
      anchor_keys(m, old->n_nodes, old->edges, old->n_edges, m->new_of_old, sides[k][0],
                  sides[k][1], 1ull << 63, ko);
      anchor_keys(m, n_nodes, edges, n_edges, NULL, sides[k][0], sides[k][1], 1ull << 62, kn);
      match_by(m, ko, kn, 0);
    }
  }
}

/* The hashes folded as shapes keep them (a shape of version 1 kept all
 * 32 bits; a new build's graph has them too), malloc'd. */
static uint32_t *folded(const uint32_t *hash, uint32_t n) {
  uint32_t *h = xprof_calloc((size_t)n + 1, sizeof *h);
  for (uint32_t v = 0; h && v < n; v++)
    h[v] = xprof_block_hash_fold(hash[v]);
  return h;
}

static int match_blocks(matching *m, const xprof_shape *old, uint32_t n_nodes,
                        const xprof_edge *edges, uint32_t n_edges, const uint32_t *now_hash) {
  uint64_t *ko = xprof_calloc(old->n_nodes, sizeof *ko);
  uint64_t *kn = xprof_calloc(n_nodes, sizeof *kn);
  uint32_t *old_hash = folded(old->hash, old->n_nodes), *hash = folded(now_hash, n_nodes);
  if (!ko || !kn || !old_hash || !hash) {
    xprof_free(ko);
    xprof_free(kn);
    xprof_free(old_hash);
    xprof_free(hash);
    return -1;
  }
  for (uint32_t v = 0; v < m->n_old; v++)
    m->new_of_old[v] = v < 2 ? v : UNMATCHED;
  for (uint32_t v = 0; v < m->n_new; v++)
    m->old_of_new[v] = v < 2 ? v : UNMATCHED;
  for (uint32_t v = 0; v < old->n_nodes; v++)
    ko[v] = old_hash[v];
  for (uint32_t v = 0; v < n_nodes; v++)
    kn[v] = hash[v];
  match_by(m, ko, kn, 0);
  neighbour_keys(old->n_nodes, old->edges, old->n_edges, old_hash, ko);
  neighbour_keys(n_nodes, edges, n_edges, hash, kn);
  match_by(m, ko, kn, 0);
  for (uint32_t v = 0; v < old->n_nodes; v++)
    ko[v] = old_hash[v];
  for (uint32_t v = 0; v < n_nodes; v++)
    kn[v] = hash[v];
  match_by(m, ko, kn, 1);
  match_by_place(m, old, n_nodes, edges, n_edges, ko, kn);
  xprof_free(ko);
  xprof_free(kn);
  xprof_free(old_hash);
  xprof_free(hash);
  return 0;
}

/* ---- step 2: the network and what is known on it ---------------------- */

/* Arcs: one per block (in-node 2v to out-node 2v + 1), one per edge (from
 * its source's out-node to its target's in-node), and EXIT -> ENTRY. */
typedef struct network {
  uint32_t n_nodes, n_edges, n_arcs; /* of the new graph; arcs */
  uint32_t *tail, *head;
  unsigned char *usable; /* 0: an ignored edge; 2: a fake edge */
  unsigned char *known;
  int64_t *value; /* known: the count; else the flow found */
  int64_t *rest;  /* per network node: what its known arcs leave over */
  /* Residual adjacency, rebuilt per round: per node, arcs out and in. */
  uint32_t *first, *adj;
  uint32_t *parent; /* BFS: arc * 2 + backwards, or UINT32_MAX */
  uint32_t *queue;
} network;

#define ARC_BLOCK(v) (v)
#define ARC_EDGE(net, e) ((net)->n_nodes + (e))
#define ARC_VIRTUAL(net) ((net)->n_nodes + (net)->n_edges)

static int64_t clamp_count(uint64_t c) {
  return c > (uint64_t)INT64_MAX / 4 ? INT64_MAX / 4 : (int64_t)c;
}

static void network_free(network *net) {
  xprof_free(net->tail);
  xprof_free(net->head);
  xprof_free(net->usable);
  xprof_free(net->known);
  xprof_free(net->value);
  xprof_free(net->rest);
  xprof_free(net->first);
  xprof_free(net->adj);
  xprof_free(net->parent);
  xprof_free(net->queue);
}

static int network_init(network *net, uint32_t n_nodes, const xprof_edge *edges,
                        uint32_t n_edges) {
  memset(net, 0, sizeof *net);
  net->n_nodes = n_nodes;
  net->n_edges = n_edges;
  uint32_t a = net->n_arcs = n_nodes + n_edges + 1, v2 = 2 * n_nodes;
  net->tail = xprof_calloc(a, sizeof *net->tail);
  net->head = xprof_calloc(a, sizeof *net->head);
  net->usable = xprof_calloc(a, 1);
  net->known = xprof_calloc(a, 1);
  net->value = xprof_calloc(a, sizeof *net->value);
  net->rest = xprof_calloc(v2, sizeof *net->rest);
  net->first = xprof_calloc(v2 + 1, sizeof *net->first);
  net->adj = xprof_calloc(2 * (size_t)a, sizeof *net->adj);
  net->parent = xprof_calloc(v2, sizeof *net->parent);
  net->queue = xprof_calloc(v2, sizeof *net->queue);
  if (!net->tail || !net->head || !net->usable || !net->known || !net->value || !net->rest ||
      !net->first || !net->adj || !net->parent || !net->queue)
    return -1;
  for (uint32_t v = 0; v < n_nodes; v++) {
    net->tail[ARC_BLOCK(v)] = 2 * v;
    net->head[ARC_BLOCK(v)] = 2 * v + 1;
    net->usable[ARC_BLOCK(v)] = 1;
  }
  for (uint32_t e = 0; e < n_edges; e++) {
    net->tail[ARC_EDGE(net, e)] = 2 * edges[e].src + 1;
    net->head[ARC_EDGE(net, e)] = 2 * edges[e].dst;
    net->usable[ARC_EDGE(net, e)] = edges[e].flags & XPROF_EDGE_IGNORE ? 0
                                    : edges[e].flags & XPROF_EDGE_FAKE ? 2
                                                                       : 1;
  }
  net->tail[ARC_VIRTUAL(net)] = 2 * XPROF_EXIT + 1;
  net->head[ARC_VIRTUAL(net)] = 2 * XPROF_ENTRY;
  net->usable[ARC_VIRTUAL(net)] = 1;
  return 0;
}

typedef struct old_edge {
  uint32_t src, dst;
  uint64_t count;
} old_edge;

static int old_edge_cmp(const void *pa, const void *pb) {
  const old_edge *a = pa, *b = pb;
  if (a->src != b->src)
    return a->src < b->src ? -1 : 1;
  return a->dst < b->dst ? -1 : a->dst > b->dst;
}

/* The old edges, sorted, with parallel ones summed; NULL when out of
 * memory.  *n gets their number. */
static old_edge *old_edges(const xprof_shape *old, const uint64_t *count, uint32_t *n) {
  old_edge *v = xprof_calloc((size_t)old->n_edges + 1, sizeof *v);
  if (!v)
    return NULL;
  uint32_t k = 0;
  for (uint32_t e = 0; e < old->n_edges; e++)
    if (!(old->edges[e].flags & XPROF_EDGE_IGNORE))
      v[k++] = (old_edge){old->edges[e].src, old->edges[e].dst, count[e]};
  xprof_sort(v, k, sizeof *v, old_edge_cmp);
  uint32_t out = 0;
  for (uint32_t i = 0; i < k; i++) {
    if (out && v[out - 1].src == v[i].src && v[out - 1].dst == v[i].dst)
      v[out - 1].count = xprof_sat_add(v[out - 1].count, v[i].count);
    else
      v[out++] = v[i];
  }
  *n = out;
  return v;
}

static const old_edge *find_old_edge(const old_edge *v, uint32_t n, uint32_t src,
                                     uint32_t dst) {
  old_edge key = {src, dst, 0};
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    int c = old_edge_cmp(&v[mid], &key);
    if (c == 0)
      return &v[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* Mark what the old counts say: matched blocks, edges between matched
 * blocks that were edges before (parallel new edges: the first takes the
 * old sum, the others 0), and the entry count. */
static int carry_counts(network *net, const matching *m, const xprof_shape *old,
                        const uint64_t *old_edge_count, const uint64_t *old_node_count,
                        const xprof_edge *edges) {
  uint32_t n_old;
  old_edge *oe = old_edges(old, old_edge_count, &n_old);
  if (!oe)
    return -1;
  for (uint32_t v = 0; v < net->n_nodes; v++)
    if (m->old_of_new[v] != UNMATCHED) {
      net->known[ARC_BLOCK(v)] = 1;
      net->value[ARC_BLOCK(v)] = clamp_count(old_node_count[m->old_of_new[v]]);
    }
  for (uint32_t e = 0; e < net->n_edges; e++) {
    uint32_t a = ARC_EDGE(net, e), os = m->old_of_new[edges[e].src],
             od = m->old_of_new[edges[e].dst];
    if (!net->usable[a] || os == UNMATCHED || od == UNMATCHED)
      continue;
    const old_edge *o = find_old_edge(oe, n_old, os, od);
    if (!o)
      continue;
    net->known[a] = 1;
    int parallel = e > 0 && edges[e - 1].src == edges[e].src &&
                   edges[e - 1].dst == edges[e].dst && net->known[a - 1];
    net->value[a] = parallel ? 0 : clamp_count(o->count);
  }
  net->known[ARC_VIRTUAL(net)] = 1;
  net->value[ARC_VIRTUAL(net)] = clamp_count(old_node_count[XPROF_ENTRY]);
  xprof_free(oe);
  return 0;
}

/* ---- step 3: a flow for the unknown arcs ------------------------------------ */

/* Each node's surplus from its known arcs, the unknown arcs' flow zero,
 * and the residual adjacency of the unknown arcs usable up to `level`
 * (1: real edges, 2: fake edges too). */
static void prepare_round(network *net, int level) {
  uint32_t v2 = 2 * net->n_nodes;
  memset(net->rest, 0, v2 * sizeof *net->rest);
  memset(net->first, 0, (v2 + 1) * sizeof *net->first);
  for (uint32_t a = 0; a < net->n_arcs; a++) {
    if (net->known[a]) {
      net->rest[net->head[a]] += net->value[a];
      net->rest[net->tail[a]] -= net->value[a];
    } else {
      net->value[a] = 0;
      if (net->usable[a] && net->usable[a] <= level) {
        net->first[net->tail[a] + 1]++;
        net->first[net->head[a] + 1]++;
      }
    }
  }
  for (uint32_t x = 0; x < v2; x++)
    net->first[x + 1] += net->first[x];
  uint32_t *fill = net->parent; /* as scratch: the next free place per node */
  memcpy(fill, net->first, v2 * sizeof *fill);
  for (uint32_t a = 0; a < net->n_arcs; a++)
    if (!net->known[a] && net->usable[a] && net->usable[a] <= level) {
      net->adj[fill[net->tail[a]]++] = 2 * a;
      net->adj[fill[net->head[a]]++] = 2 * a + 1;
    }
}

/* One shortest path from a node with a surplus to one with a deficit, in
 * the residual network, and the flow pushed along it.  Returns 1 when it
 * found one, 0 when there is none. */
static int augment(network *net) {
  uint32_t v2 = 2 * net->n_nodes, qh = 0, qt = 0, sink = UINT32_MAX;
  for (uint32_t x = 0; x < v2; x++) {
    net->parent[x] = UINT32_MAX - 1; /* not seen */
    if (net->rest[x] > 0) {
      net->parent[x] = UINT32_MAX; /* a source */
      net->queue[qt++] = x;
    }
  }
  while (qh < qt && sink == UINT32_MAX) {
    uint32_t x = net->queue[qh++];
    for (uint32_t i = net->first[x]; i < net->first[x + 1]; i++) {
      uint32_t a = net->adj[i] / 2, back = net->adj[i] & 1;
      uint32_t y = back ? net->tail[a] : net->head[a];
      if (net->parent[y] != UINT32_MAX - 1 || (back && net->value[a] == 0))
        continue;
      net->parent[y] = net->adj[i];
      net->queue[qt++] = y;
      if (net->rest[y] < 0) {
        sink = y;
        break;
      }
    }
  }
  if (sink == UINT32_MAX)
    return 0;
  int64_t push = -net->rest[sink];
  uint32_t x = sink;
  while (net->parent[x] != UINT32_MAX) {
    uint32_t a = net->parent[x] / 2, back = net->parent[x] & 1;
    if (back && net->value[a] < push)
      push = net->value[a];
    x = back ? net->head[a] : net->tail[a];
  }
  if (net->rest[x] < push)
    push = net->rest[x];
  net->rest[x] -= push;
  net->rest[sink] += push;
  for (uint32_t y = sink; net->parent[y] != UINT32_MAX;) {
    uint32_t a = net->parent[y] / 2, back = net->parent[y] & 1;
    net->value[a] += back ? -push : push;
    y = back ? net->head[a] : net->tail[a];
  }
  return 1;
}

/* Route every surplus to a deficit: real edges first, fake ones for what
 * remains.  Returns 1 when everything balances. */
static int find_flow(network *net) {
  prepare_round(net, 1);
  while (augment(net))
    ;
  /* Fake edges too, keeping the flow found: the residual adjacency is
   * rebuilt without zeroing the unknown arcs. */
  uint32_t v2 = 2 * net->n_nodes;
  int64_t *keep = xprof_malloc(net->n_arcs * sizeof *keep);
  int64_t *rest = xprof_malloc(v2 * sizeof *rest);
  if (keep && rest) {
    memcpy(keep, net->value, net->n_arcs * sizeof *keep);
    memcpy(rest, net->rest, v2 * sizeof *rest);
    prepare_round(net, 2);
    memcpy(net->value, keep, net->n_arcs * sizeof *keep);
    memcpy(net->rest, rest, v2 * sizeof *rest);
    while (augment(net))
      ;
  }
  xprof_free(keep);
  xprof_free(rest);
  for (uint32_t x = 0; x < v2; x++)
    if (net->rest[x])
      return 0;
  return 1;
}

/* Forget the known counts that keep the flow from balancing: those of
 * the arcs across the edge of what the surpluses left over can reach
 * (after augment found no path, parent[] marks that), which a cut of the
 * network says cannot all be right; all of them but the entry count
 * after MAX_ROUNDS.  Returns how many were dropped. */
static uint32_t drop_contradictions(network *net, int all) {
  uint32_t dropped = 0;
  for (uint32_t a = 0; a < ARC_VIRTUAL(net); a++) {
    if (!net->known[a])
      continue;
    int from = net->parent[net->tail[a]] != UINT32_MAX - 1;
    int to = net->parent[net->head[a]] != UINT32_MAX - 1;
    if (all || from != to) {
      net->known[a] = 0;
      dropped++;
    }
  }
  return dropped;
}

/* ---- the whole ------------------------------------------------------------ */

int xprof_salvage(const xprof_shape *old, const uint64_t *old_edge_count,
                  const uint64_t *old_node_count, const xprof_shape *now,
                  uint64_t *edge_count, uint64_t *node_count, uint32_t *old_of_new,
                  unsigned char *carried, xprof_salvage_result *r) {
  uint32_t n_nodes = now->n_nodes, n_edges = now->n_edges;
  const xprof_edge *edges = now->edges;
  const uint32_t *hash = now->hash;
  memset(r, 0, sizeof *r);
  if (n_nodes < 2 || old->n_nodes < 2)
    return -1;
  matching m = {old->n_nodes, n_nodes, NULL, NULL, NULL};
  m.new_of_old = xprof_calloc(old->n_nodes, sizeof *m.new_of_old);
  m.old_of_new = xprof_calloc(n_nodes, sizeof *m.old_of_new);
  m.scratch = xprof_calloc((size_t)old->n_nodes + n_nodes, sizeof *m.scratch);
  network net;
  memset(&net, 0, sizeof net);
  int rc = -1;
  if (!m.new_of_old || !m.old_of_new || !m.scratch ||
      network_init(&net, n_nodes, edges, n_edges) < 0 ||
      match_blocks(&m, old, n_nodes, edges, n_edges, hash) < 0 ||
      carry_counts(&net, &m, old, old_edge_count, old_node_count, edges) < 0)
    goto out;
  r->old_blocks = old->n_nodes - 2;
  r->new_blocks = n_nodes - 2;
  for (uint32_t v = 2; v < old->n_nodes; v++) {
    r->old_mass = xprof_sat_add(r->old_mass, old_node_count[v]);
    if (m.new_of_old[v] != UNMATCHED) {
      r->matched_blocks++;
      r->matched_mass = xprof_sat_add(r->matched_mass, old_node_count[v]);
    }
  }
  int round = 0;
  while (!find_flow(&net)) {
    uint32_t d = drop_contradictions(&net, ++round >= MAX_ROUNDS);
    r->dropped += d;
    if (!d)
      goto out; /* only the entry count is left, and EXIT cannot be reached */
  }
  for (uint32_t e = 0; e < n_edges; e++)
    edge_count[e] = net.usable[ARC_EDGE(&net, e)] ? (uint64_t)net.value[ARC_EDGE(&net, e)] : 0;
  for (uint32_t v = 0; v < n_nodes; v++) {
    node_count[v] = (uint64_t)net.value[ARC_BLOCK(v)];
    if (carried)
      carried[v] = net.known[ARC_BLOCK(v)];
  }
  if (old_of_new)
    memcpy(old_of_new, m.old_of_new, n_nodes * sizeof *old_of_new);
  rc = 0;
out:
  network_free(&net);
  xprof_free(m.new_of_old);
  xprof_free(m.old_of_new);
  xprof_free(m.scratch);
  return rc;
}

double xprof_salvage_fraction(const xprof_salvage_result *r) {
  return r->old_mass ? (double)r->matched_mass / (double)r->old_mass : 1.0;
}

/* ---- a profile's procedure, salvaged ----------------------------------- */

/* The counter ids a shape's placement uses: one past the largest. */
static uint32_t shape_counters(const xprof_shape *s) {
  uint32_t n = 0;
  for (uint32_t e = 0; e < s->n_edges; e++)
    if (XPROF_HAS_COUNTER(s->counter_of_edge[e]) && s->counter_of_edge[e] >= n)
      n = s->counter_of_edge[e] + 1;
  return n;
}

/* The old procedure's solved counts, into arrays the caller frees. */
static int solve_old(const xprof_objfile *o, const xprof_proc *f, const xprof_shape *old,
                     uint64_t **edge_count, uint64_t **node_count, xprof_error *err) {
  uint32_t n = shape_counters(old);
  uint64_t *values = xprof_calloc((size_t)n + 1, sizeof *values);
  uint64_t *totals = xprof_calloc((size_t)f->n_vp_sites + 1, sizeof *totals);
  *edge_count = xprof_calloc((size_t)old->n_edges + 1, sizeof **edge_count);
  *node_count = xprof_calloc(old->n_nodes, sizeof **node_count);
  int rc = -1;
  if (!values || !totals || !*edge_count || !*node_count) {
    xprof_fail_nomem(err, f->name);
    goto out;
  }
  for (uint32_t k = 0; k < n; k++)
    values[k] = xprof_proc_counter(f, k);
  xprof_vp_site_totals(o, f, totals, f->n_vp_sites);
  if (xprof_solve_flow_sites(old->n_nodes, old->edges, old->n_edges, old->counter_of_edge,
                             values, n, totals, f->n_vp_sites, *edge_count, *node_count) < 0)
    xprof_fail(err, XPROF_ERR_INVALID, "%s: its recorded shape does not fit its counters",
               f->name);
  else
    rc = 0;
out:
  xprof_free(values);
  xprof_free(totals);
  return rc;
}

/* A list of things in blocks (value-profile sites, side counters): each
 * one's node, and its kind (NULL: all of one kind). */
typedef struct placed {
  uint32_t n;
  const uint32_t *node, *kind;
} placed;

/* The old thing that new thing j follows: of the same kind, in the old
 * block matched to j's, the k-th of that kind there as j is among the new
 * ones; UINT32_MAX: none. */
static uint32_t follow(placed old, placed now, const uint32_t *old_of_new, uint32_t j) {
  uint32_t node = old_of_new[now.node[j]], kind = now.kind ? now.kind[j] : 0, k = 0;
  if (node == UNMATCHED)
    return UNMATCHED;
  for (uint32_t i = 0; i < j; i++)
    k += now.node[i] == now.node[j] && (now.kind ? now.kind[i] : 0) == kind;
  for (uint32_t i = 0; i < old.n; i++)
    if (old.node[i] == node && (old.kind ? old.kind[i] : 0) == kind && k-- == 0)
      return i;
  return UNMATCHED;
}

static const xprof_vp_record *record_of(const xprof_proc *f, uint32_t expr_id) {
  for (uint32_t i = 0; i < f->n_vp_records; i++)
    if (f->vp[i].expr_id == expr_id)
      return &f->vp[i];
  return NULL;
}

/* f's records for the new sites that have an old one, renumbered. */
static int follow_sites(const xprof_proc *f, const xprof_shape *old, const xprof_shape *now,
                        const uint32_t *old_of_new, xprof_vp_record **vp, uint32_t *n_vp,
                        xprof_salvage_result *r, xprof_error *err) {
  *vp = xprof_calloc((size_t)now->n_sites + 1, sizeof **vp);
  *n_vp = 0;
  if (!*vp)
    return xprof_fail_nomem(err, f->name);
  r->sites = now->n_sites;
  placed olds = {old->n_sites, old->site_node, old->site_type};
  placed news = {now->n_sites, now->site_node, now->site_type};
  for (uint32_t j = 0; j < now->n_sites; j++) {
    uint32_t i = follow(olds, news, old_of_new, j);
    const xprof_vp_record *rec = i == UNMATCHED ? NULL : record_of(f, i);
    r->sites_matched += i != UNMATCHED;
    if (rec && rec->type == (xprof_vp_type)now->site_type[j])
      (*vp)[(*n_vp)++] = (xprof_vp_record){rec->type, j, rec->values};
  }
  return 0;
}

/* The old side counters' values that the new ones follow. */
static void follow_side(const xprof_proc *f, const xprof_shape *old, const xprof_shape *now,
                        const uint32_t *old_of_new, uint64_t *side) {
  placed olds = {old->n_side, old->side_node, NULL};
  placed news = {now->n_side, now->side_node, NULL};
  for (uint32_t j = 0; j < now->n_side; j++) {
    uint32_t i = follow(olds, news, old_of_new, j);
    side[j] = i == UNMATCHED ? XPROF_NO_SIDE : xprof_proc_counter(f, old->side_counter[i]);
  }
}

int xprof_salvage_proc(const xprof_objfile *o, const xprof_proc *f, const xprof_shape *now,
                      uint64_t *edge_count, uint64_t *node_count, xprof_vp_record **vp,
                      uint32_t *n_vp, uint64_t *side, unsigned char *carried,
                      xprof_salvage_result *r, xprof_error *err) {
  memset(r, 0, sizeof *r);
  *vp = NULL;
  *n_vp = 0;
  if (!f->shape && !xprof_proc_ran(f, o->n_values_per_vp)) {
    /* It never ran: zero counts fit any graph, and profiles keep no
     * shapes of such procedures. */
    memset(edge_count, 0, (size_t)now->n_edges * sizeof *edge_count);
    memset(node_count, 0, (size_t)now->n_nodes * sizeof *node_count);
    if (side)
      memset(side, 0, (size_t)now->n_side * sizeof *side);
    if (carried)
      memset(carried, 1, now->n_nodes);
    return 0;
  }
  if (!f->shape)
    return xprof_fail(err, XPROF_ERR_NOTFOUND,
                      "the profile records no shape of %s to salvage it by: trained by an "
                      "xprof before 4.5 data, or text without its #+ SHAPE lines",
                      f->name);
  xprof_shape old;
  if (xprof_shape_decode(f->shape, f->shape_size, f->name, &old, err) < 0)
    return -1;
  uint64_t *oe = NULL, *on = NULL;
  uint32_t *old_of_new = xprof_calloc((size_t)now->n_nodes + 1, sizeof *old_of_new);
  int rc = old_of_new ? solve_old(o, f, &old, &oe, &on, err) : xprof_fail_nomem(err, f->name);
  if (rc == 0 && xprof_salvage(&old, oe, on, now, edge_count, node_count, old_of_new, carried,
                                r) < 0)
    rc = xprof_fail(err, XPROF_ERR_INVALID, "%s: no flow fits the changed graph", f->name);
  if (rc == 0)
    rc = follow_sites(f, &old, now, old_of_new, vp, n_vp, r, err);
  if (rc == 0 && side)
    follow_side(f, &old, now, old_of_new, side);
  xprof_free(old_of_new);
  xprof_free(oe);
  xprof_free(on);
  xprof_shape_free(&old);
  return rc;
}
