/*
 * exttsp.c - the order of a function's blocks that the extended TSP model
 * scores best, from measured counts.
 *
 * The model (Newell and Pupyrev, "Improved Basic Block Reordering", IEEE
 * Transactions on Computers, 2020; the block layout of BOLT and of LLVM's
 * -enable-ext-tsp-block-placement) scores an order by what its edges cost
 * the processor's front end: an edge whose target comes right after its
 * source falls through and scores its count; a jump scores a tenth of
 * its count, less the farther it goes, and nothing beyond 1024 bytes
 * forward or 640 back.  Finding the best order is NP-hard.  The paper's
 * greedy, which this is, starts from chains of one block, and merges two
 * chains at a time, the pair whose merge gains most, trying each way of
 * putting one chain beside or into the other (the other cut in two, for
 * chains of at most XT_SPLIT_MAX blocks, next to the blocks that the
 * other has edges with), until no merge gains.  The
 * chains are then laid out the entry's first and the others by density
 * (count per byte), so that what never ran keeps its order at the end.
 *
 * GCC lays blocks out by traces of its hottest edges (the software trace
 * cache), with no regard to how far a jump goes; xprof-gcc's use builds
 * reorder its result by this model (gcc-plugin/block_layout.cc).  LLVM
 * has the model itself, which xprof-clang turns on instead.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "xprof_graph.h"

#define XT_JUMP_WEIGHT 0.1
#define XT_FORWARD_BYTES 1024.0
#define XT_BACKWARD_BYTES 640.0
/* Chains longer than this are only put beside another, never cut: the
 * cuts cost time linear in the chain's length for each merge tried. */
#define XT_SPLIT_MAX 128u

/* How two chains A and B (A the one cut at `split`) become one. */
enum { XT_A_B, XT_A1_B_A2, XT_B_A2_A1, XT_A2_A1_B };

typedef struct xt_merge {
  double gain;
  uint32_t split;
  uint8_t kind;    /* XT_A_B ... */
  uint8_t swapped; /* A is the neighbour, B the chain that owns the entry */
  uint8_t valid;   /* gain is computed for the chains as they are */
} xt_merge;

typedef struct xt_chain {
  uint32_t *blocks, n;
  uint64_t size;
  double count, score; /* its blocks' counts; the score of the edges inside it */
  uint32_t *adj, n_adj, cap_adj; /* chains that an edge that ran joins it to */
  xt_merge *merge;               /* per adj[]: the best merge, where adj[k] > this one */
  int alive;
} xt_chain;

typedef struct xt {
  uint32_t n;
  const uint64_t *size;
  const xprof_layout_edge *edges;
  uint32_t *out, *by; /* edges that ran, out of each block: by[out[v]..out[v+1]) */
  uint32_t *chain_of, *index;
  uint64_t *addr;
  xt_chain *chains;
  double eps;
} xt;

/* A candidate order: up to three runs of blocks, one after the other. */
typedef struct xt_seq {
  const uint32_t *part[3];
  uint32_t len[3];
} xt_seq;

static double edge_score(uint64_t count, uint64_t src_end, uint64_t dst, int falls) {
  double d;
  if (falls)
    return (double)count;
  if (dst >= src_end) {
    d = (double)(dst - src_end);
    return d >= XT_FORWARD_BYTES ? 0 : XT_JUMP_WEIGHT * (double)count * (1 - d / XT_FORWARD_BYTES);
  }
  d = (double)(src_end - dst);
  return d >= XT_BACKWARD_BYTES ? 0 : XT_JUMP_WEIGHT * (double)count * (1 - d / XT_BACKWARD_BYTES);
}

/* The score of the edges among chains a and b laid out as `s`. */
static double seq_score(xt *x, const xt_seq *s, uint32_t a, uint32_t b) {
  uint64_t off = 0;
  uint32_t i = 0;
  for (int p = 0; p < 3; p++)
    for (uint32_t k = 0; k < s->len[p]; k++) {
      uint32_t v = s->part[p][k];
      x->addr[v] = off;
      x->index[v] = i++;
      off += x->size[v];
    }
  double sum = 0;
  for (int p = 0; p < 3; p++)
    for (uint32_t k = 0; k < s->len[p]; k++) {
      uint32_t v = s->part[p][k];
      for (uint32_t j = x->out[v]; j < x->out[v + 1]; j++) {
        const xprof_layout_edge *e = &x->edges[x->by[j]];
        uint32_t c = x->chain_of[e->dst];
        if (c != a && c != b)
          continue;
        int falls = x->index[e->dst] == x->index[v] + 1;
        sum += edge_score(e->count, x->addr[v] + x->size[v], x->addr[e->dst], falls);
      }
    }
  return sum;
}

/* Chain A cut at `split` with chain B, as `kind` puts them. */
static xt_seq seq_of(const xt_chain *a, const xt_chain *b, uint32_t kind, uint32_t split) {
  xt_seq s;
  memset(&s, 0, sizeof s);
  const uint32_t *a1 = a->blocks, *a2 = a->blocks + split;
  uint32_t n1 = split, n2 = a->n - split;
  switch (kind) {
  case XT_A_B:
    s.part[0] = a->blocks, s.len[0] = a->n, s.part[1] = b->blocks, s.len[1] = b->n;
    break;
  case XT_A1_B_A2:
    s.part[0] = a1, s.len[0] = n1, s.part[1] = b->blocks, s.len[1] = b->n;
    s.part[2] = a2, s.len[2] = n2;
    break;
  case XT_B_A2_A1:
    s.part[0] = b->blocks, s.len[0] = b->n, s.part[1] = a2, s.len[1] = n2;
    s.part[2] = a1, s.len[2] = n1;
    break;
  default: /* XT_A2_A1_B */
    s.part[0] = a2, s.len[0] = n2, s.part[1] = a1, s.len[1] = n1;
    s.part[2] = b->blocks, s.len[2] = b->n;
    break;
  }
  return s;
}

/* The cuts of chain `ia` worth trying with chain `ib`: next to a block
 * with an edge to or from ib, which the cut can make fall through.
 * Elsewhere a cut only moves jumps, while it costs a fall-through
 * inside ia; trying only these keeps a merge's cost near linear in the
 * chains' length.  cut[k]: try ia[0..k) and ia[k..). */
static void useful_cuts(xt *x, uint32_t ia, uint32_t ib, unsigned char *cut) {
  const xt_chain *a = &x->chains[ia], *b = &x->chains[ib];
  memset(cut, 0, a->n + 1);
  for (uint32_t k = 0; k < a->n; k++) {
    uint32_t v = a->blocks[k];
    x->index[v] = k;
    for (uint32_t j = x->out[v]; j < x->out[v + 1]; j++)
      if (x->chain_of[x->edges[x->by[j]].dst] == ib)
        cut[k + 1] = 1; /* v, then ib */
  }
  for (uint32_t k = 0; k < b->n; k++) {
    uint32_t u = b->blocks[k];
    for (uint32_t j = x->out[u]; j < x->out[u + 1]; j++) {
      uint32_t t = x->edges[x->by[j]].dst;
      if (x->chain_of[t] == ia)
        cut[x->index[t]] = 1; /* ib, then t */
    }
  }
}

/* The best way to merge chain `ia` (cut) with `ib` into *best, if it
 * gains more than best->gain; the entry block (0) must stay first. */
static void try_cuts(xt *x, uint32_t ia, uint32_t ib, int swapped, xt_merge *best) {
  const xt_chain *a = &x->chains[ia], *b = &x->chains[ib];
  int has_entry = x->chain_of[0] == ia || x->chain_of[0] == ib;
  double base = a->score + b->score;
  unsigned char cut[XT_SPLIT_MAX + 1];
  if (a->n <= XT_SPLIT_MAX)
    useful_cuts(x, ia, ib, cut);
  for (uint32_t kind = XT_A_B; kind <= XT_A2_A1_B; kind++) {
    uint32_t first = kind == XT_A_B ? 0 : 1, last = kind == XT_A_B ? 0 : a->n - 1;
    if (kind != XT_A_B && a->n > XT_SPLIT_MAX)
      break;
    for (uint32_t split = first; split <= last; split++) {
      if (kind != XT_A_B && !cut[split])
        continue;
      xt_seq s = seq_of(a, b, kind, split);
      const uint32_t *head = s.len[0] ? s.part[0] : s.part[1];
      if (has_entry && head[0] != 0)
        continue;
      double gain = seq_score(x, &s, ia, ib) - base;
      if (gain > best->gain + x->eps) {
        best->gain = gain, best->kind = (uint8_t)kind, best->split = split;
        best->swapped = (uint8_t)swapped;
      }
    }
  }
}

static xt_merge best_merge(xt *x, uint32_t c, uint32_t d) {
  xt_merge m;
  memset(&m, 0, sizeof m);
  try_cuts(x, c, d, 0, &m);
  try_cuts(x, d, c, 1, &m);
  m.valid = 1;
  return m;
}

/* Record that chains c and d are joined by an edge; 0, or -1 out of memory. */
static int adj_add(xt_chain *c, uint32_t d) {
  for (uint32_t k = 0; k < c->n_adj; k++)
    if (c->adj[k] == d) {
      c->merge[k].valid = 0;
      return 0;
    }
  if (c->n_adj == c->cap_adj) {
    uint32_t cap = c->cap_adj ? 2 * c->cap_adj : 4;
    uint32_t *adj = xprof_realloc(c->adj, cap * sizeof *adj);
    if (!adj)
      return -1;
    c->adj = adj;
    xt_merge *merge = xprof_realloc(c->merge, cap * sizeof *merge);
    if (!merge)
      return -1;
    c->merge = merge;
    c->cap_adj = cap;
  }
  c->adj[c->n_adj] = d;
  memset(&c->merge[c->n_adj], 0, sizeof c->merge[0]);
  c->n_adj++;
  return 0;
}

static void adj_remove(xt_chain *c, uint32_t d) {
  for (uint32_t k = 0; k < c->n_adj; k++)
    if (c->adj[k] == d) {
      c->adj[k] = c->adj[--c->n_adj];
      c->merge[k] = c->merge[c->n_adj];
      return;
    }
}

/* Make chain c the merge m of c and d (m.swapped: d is the one cut);
 * d is gone.  0, or -1 out of memory. */
static int merge_chains(xt *x, uint32_t c, uint32_t d, const xt_merge *m) {
  xt_chain *a = &x->chains[m->swapped ? d : c], *b = &x->chains[m->swapped ? c : d];
  xt_seq s = seq_of(a, b, m->kind, m->split);
  uint32_t n = a->n + b->n;
  uint32_t *blocks = xprof_malloc((size_t)n * sizeof *blocks);
  if (!blocks)
    return -1;
  uint32_t i = 0;
  for (int p = 0; p < 3; p++)
    for (uint32_t k = 0; k < s.len[p]; k++)
      blocks[i++] = s.part[p][k];
  xt_chain *cc = &x->chains[c], *dd = &x->chains[d];
  cc->score += dd->score + m->gain;
  cc->size += dd->size;
  cc->count += dd->count;
  xprof_free(cc->blocks);
  xprof_free(dd->blocks);
  cc->blocks = blocks, cc->n = n;
  dd->blocks = NULL, dd->n = 0, dd->alive = 0;
  for (uint32_t k = 0; k < n; k++)
    x->chain_of[blocks[k]] = c;
  /* c's neighbours are now c's and d's; every merge with c is to be
   * computed again. */
  adj_remove(cc, d);
  for (uint32_t k = 0; k < dd->n_adj; k++) {
    uint32_t z = dd->adj[k];
    if (z == c)
      continue;
    adj_remove(&x->chains[z], d);
    if (adj_add(cc, z) < 0 || adj_add(&x->chains[z], c) < 0)
      return -1;
  }
  xprof_free(dd->adj);
  xprof_free(dd->merge);
  dd->adj = NULL, dd->merge = NULL, dd->n_adj = dd->cap_adj = 0;
  for (uint32_t k = 0; k < cc->n_adj; k++) {
    cc->merge[k].valid = 0;
    xt_chain *z = &x->chains[cc->adj[k]];
    for (uint32_t j = 0; j < z->n_adj; j++)
      if (z->adj[j] == c)
        z->merge[j].valid = 0;
  }
  return 0;
}

/* Merge the pairs that the best order surely has: a block whose only
 * edge that ran goes to a block that only it leads to falls through to
 * it (LLVM's and BOLT's layouts begin the same way).  In a flow that
 * edge is as heavy as any edge of the two blocks; counts that are not
 * quite a flow (estimates from lines or samples) may make a loop's other
 * edge heavier, which the greedy then decides.  heaviest[v]: the largest
 * count of an edge into or out of v.  0 or -1. */
static int merge_forced(xt *x, const uint32_t *in_ran, const uint64_t *heaviest) {
  for (uint32_t u = 0; u < x->n; u++) {
    if (x->out[u + 1] - x->out[u] != 1)
      continue;
    const xprof_layout_edge *e = &x->edges[x->by[x->out[u]]];
    uint32_t v = e->dst, cu = x->chain_of[u], cv = x->chain_of[v];
    if (v == 0 || v == u || in_ran[v] != 1 || cu == cv ||
        e->count < heaviest[u] || e->count < heaviest[v])
      continue;
    xt_chain *a = &x->chains[cu], *b = &x->chains[cv];
    if (a->blocks[a->n - 1] != u || b->blocks[0] != v)
      continue;
    xt_merge m;
    memset(&m, 0, sizeof m);
    xt_seq s = seq_of(a, b, XT_A_B, 0);
    m.gain = seq_score(x, &s, cu, cv) - a->score - b->score;
    if (merge_chains(x, cu, cv, &m) < 0)
      return -1;
  }
  return 0;
}

/* Merge the best pair until no merge gains.  0 or -1. */
static int merge_greedily(xt *x) {
  for (;;) {
    uint32_t best_c = UINT32_MAX, best_k = 0;
    double best_gain = 0;
    for (uint32_t c = 0; c < x->n; c++) {
      xt_chain *ch = &x->chains[c];
      for (uint32_t k = 0; ch->alive && k < ch->n_adj; k++) {
        if (ch->adj[k] < c)
          continue; /* the pair's merge is kept by the lower chain */
        if (!ch->merge[k].valid)
          ch->merge[k] = best_merge(x, c, ch->adj[k]);
        if (ch->merge[k].gain > best_gain + x->eps)
          best_gain = ch->merge[k].gain, best_c = c, best_k = k;
      }
    }
    if (best_c == UINT32_MAX)
      return 0;
    xt_merge m = x->chains[best_c].merge[best_k];
    if (merge_chains(x, best_c, x->chains[best_c].adj[best_k], &m) < 0)
      return -1;
  }
}

typedef struct xt_rank {
  double density;
  uint32_t first, chain; /* the chain's least block, its id */
} xt_rank;

static int by_density(const void *pa, const void *pb) {
  const xt_rank *a = pa, *b = pb;
  if (a->density != b->density)
    return a->density > b->density ? -1 : 1;
  return a->first < b->first ? -1 : a->first > b->first;
}

/* The chains laid out: the entry's, then by density.  0 or -1. */
static int lay_out(xt *x, uint32_t *order) {
  xt_rank *r = xprof_malloc((size_t)x->n * sizeof *r);
  if (!r)
    return -1;
  uint32_t n = 0, at = 0;
  for (uint32_t c = 0; c < x->n; c++) {
    xt_chain *ch = &x->chains[c];
    if (!ch->alive || c == x->chain_of[0])
      continue;
    uint32_t first = UINT32_MAX;
    for (uint32_t k = 0; k < ch->n; k++)
      first = ch->blocks[k] < first ? ch->blocks[k] : first;
    r[n].density = ch->count / (double)(ch->size ? ch->size : 1);
    r[n].first = first, r[n].chain = c;
    n++;
  }
  qsort(r, n, sizeof *r, by_density);
  const xt_chain *entry = &x->chains[x->chain_of[0]];
  for (uint32_t k = 0; k < entry->n; k++)
    order[at++] = entry->blocks[k];
  for (uint32_t i = 0; i < n; i++) {
    const xt_chain *ch = &x->chains[r[i].chain];
    for (uint32_t k = 0; k < ch->n; k++)
      order[at++] = ch->blocks[k];
  }
  xprof_free(r);
  return 0;
}

static void xt_free(xt *x) {
  for (uint32_t c = 0; x->chains && c < x->n; c++) {
    xprof_free(x->chains[c].blocks);
    xprof_free(x->chains[c].adj);
    xprof_free(x->chains[c].merge);
  }
  xprof_free(x->chains);
  xprof_free(x->out);
  xprof_free(x->by);
  xprof_free(x->chain_of);
  xprof_free(x->index);
  xprof_free(x->addr);
}

/* Whether the greedy weighs edge e: one that ran and can fall through.
 * A table or computed jump's edges score a tenth of their count at most,
 * wherever their targets go, and can be hundreds per block (the dispatch
 * of an interpreter, which GCC copies into each opcode's block): weighed,
 * they made the merges' cost grow with their number for almost nothing.
 * Their targets' counts still order the chains by density. */
static int in_model(const xprof_layout_edge *e, uint32_t n) {
  return e->count && !(e->flags & XPROF_LAYOUT_JUMP) && e->src < n && e->dst < n;
}

/* Chains of one block each, the edges that ran out of each block, and
 * the chains those edges join.  in_ran[v]: how many edges that ran go
 * into v; heaviest[v] as merge_forced takes it.  0 or -1. */
static int xt_init(xt *x, const uint64_t *counts, const xprof_layout_edge *edges,
                   uint32_t n_edges, uint32_t *in_ran, uint64_t *heaviest) {
  uint32_t n = x->n;
  x->out = xprof_calloc((size_t)n + 1, sizeof *x->out);
  x->by = xprof_malloc((size_t)(n_edges ? n_edges : 1) * sizeof *x->by);
  x->chain_of = xprof_malloc((size_t)n * sizeof *x->chain_of);
  x->index = xprof_malloc((size_t)n * sizeof *x->index);
  x->addr = xprof_malloc((size_t)n * sizeof *x->addr);
  x->chains = xprof_calloc(n, sizeof *x->chains);
  if (!x->out || !x->by || !x->chain_of || !x->index || !x->addr || !x->chains)
    return -1;
  double total = 0;
  for (uint32_t i = 0; i < n_edges; i++)
    if (in_model(&edges[i], n)) {
      uint32_t u = edges[i].src, v = edges[i].dst;
      uint64_t w = edges[i].count;
      x->out[u + 1]++;
      if (u != v) {
        in_ran[v]++;
        heaviest[u] = w > heaviest[u] ? w : heaviest[u];
        heaviest[v] = w > heaviest[v] ? w : heaviest[v];
      }
      total += (double)edges[i].count;
    }
  /* Gains below this are rounding, not a better order. */
  x->eps = 1e-9 * (total + 1);
  for (uint32_t v = 0; v < n; v++)
    x->out[v + 1] += x->out[v];
  uint32_t *fill = x->index; /* scratch until seq_score needs it */
  memcpy(fill, x->out, (size_t)n * sizeof *fill);
  for (uint32_t i = 0; i < n_edges; i++)
    if (in_model(&edges[i], n))
      x->by[fill[edges[i].src]++] = i;
  for (uint32_t v = 0; v < n; v++) {
    xt_chain *c = &x->chains[v];
    c->blocks = xprof_malloc(sizeof *c->blocks);
    if (!c->blocks)
      return -1;
    c->blocks[0] = v, c->n = 1, c->alive = 1;
    c->size = x->size[v], c->count = counts ? (double)counts[v] : 0;
    x->chain_of[v] = v;
  }
  for (uint32_t v = 0; v < n; v++)
    for (uint32_t j = x->out[v]; j < x->out[v + 1]; j++) {
      uint32_t w = edges[x->by[j]].dst;
      if (w != v && (adj_add(&x->chains[v], w) < 0 || adj_add(&x->chains[w], v) < 0))
        return -1;
    }
  return 0;
}

int xprof_ext_tsp_order(uint32_t n, const uint64_t *sizes, const uint64_t *counts,
                        const xprof_layout_edge *edges, uint32_t n_edges, uint32_t *order) {
  for (uint32_t v = 0; v < n; v++)
    order[v] = v;
  if (n < 3)
    return 0;
  xt x;
  memset(&x, 0, sizeof x);
  x.n = n, x.size = sizes, x.edges = edges;
  uint32_t *in_ran = xprof_calloc(n, sizeof *in_ran);
  uint64_t *heaviest = xprof_calloc(n, sizeof *heaviest);
  int rc = -1;
  if (in_ran && heaviest && xt_init(&x, counts, edges, n_edges, in_ran, heaviest) == 0 &&
      merge_forced(&x, in_ran, heaviest) == 0 && merge_greedily(&x) == 0 &&
      lay_out(&x, order) == 0)
    rc = 0;
  if (rc < 0)
    for (uint32_t v = 0; v < n; v++)
      order[v] = v;
  xprof_free(in_ran);
  xprof_free(heaviest);
  xt_free(&x);
  return rc;
}

double xprof_ext_tsp_score(uint32_t n, const uint64_t *sizes, const xprof_layout_edge *edges,
                           uint32_t n_edges, const uint32_t *order) {
  uint64_t *addr = xprof_malloc((size_t)(n ? n : 1) * sizeof *addr);
  uint32_t *index = xprof_malloc((size_t)(n ? n : 1) * sizeof *index);
  double sum = -1;
  if (addr && index) {
    uint64_t off = 0;
    for (uint32_t i = 0; i < n; i++) {
      addr[order[i]] = off, index[order[i]] = i;
      off += sizes[order[i]];
    }
    sum = 0;
    for (uint32_t i = 0; i < n_edges; i++) {
      const xprof_layout_edge *e = &edges[i];
      if (e->src >= n || e->dst >= n)
        continue;
      int falls = !(e->flags & XPROF_LAYOUT_JUMP) && index[e->dst] == index[e->src] + 1;
      sum += edge_score(e->count, addr[e->src] + sizes[e->src], addr[e->dst], falls);
    }
  }
  xprof_free(addr);
  xprof_free(index);
  return sum;
}
