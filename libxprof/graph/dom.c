/*
 * dom.c - the dominator tree of a procedure's graph.
 *
 * The line-level matcher needs it: blocks that share one source place (the
 * tokens of a macro expansion all have the expansion's line and column; a
 * loop condition the compiler copied ahead of its loop has the
 * condition's) are told apart by which dominates which.  Immediate
 * dominators come from Cooper, Harvey and Kennedy's iteration over reverse
 * postorder ("A Simple, Fast Dominance Algorithm", 2001), which on graphs
 * of a procedure's size is as fast as Lengauer-Tarjan and a tenth of the
 * code; a preorder and postorder numbering of the tree then answers "does
 * a dominate b" in constant time.  Post-dominators are the same tree of
 * the reversed graph: a place's code that the training ran in a
 * function's exit block (a return merged into it) is told from the
 * return that may not run by which post-dominates which.
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof_graph.h"

/* Number the nodes ENTRY reaches in postorder (po[v], UINT32_MAX: not
 * reached) and list them in reverse postorder in rpo[]; returns how many
 * were reached.  stack, next: scratch of n_nodes entries. */
static uint32_t postorder(uint32_t n_nodes, const xprof_edge *edges, const uint32_t *out,
                          const uint32_t *by, uint32_t *po, uint32_t *rpo, uint32_t *stack,
                          uint32_t *next) {
  for (uint32_t v = 0; v < n_nodes; v++)
    po[v] = UINT32_MAX, next[v] = out[v];
  uint32_t n = 0, depth = 0;
  stack[depth++] = XPROF_ENTRY;
  po[XPROF_ENTRY] = UINT32_MAX - 1; /* on the stack */
  while (depth) {
    uint32_t v = stack[depth - 1];
    if (next[v] < out[v + 1]) {
      const xprof_edge *e = &edges[by[next[v]++]];
      if (!(e->flags & XPROF_EDGE_IGNORE) && e->dst < n_nodes && po[e->dst] == UINT32_MAX) {
        po[e->dst] = UINT32_MAX - 1;
        stack[depth++] = e->dst;
      }
      continue;
    }
    depth--;
    po[v] = n++;
  }
  for (uint32_t v = 0; v < n_nodes; v++)
    if (po[v] != UINT32_MAX)
      rpo[n - 1 - po[v]] = v;
  return n;
}

/* The nearest common dominator of a and b, both processed. */
static uint32_t intersect(const uint32_t *idom, const uint32_t *po, uint32_t a, uint32_t b) {
  while (a != b) {
    while (po[a] < po[b])
      a = idom[a];
    while (po[b] < po[a])
      b = idom[b];
  }
  return a;
}

/* Immediate dominators of the reached nodes, in the order rpo[0..n). */
static void iterate(const xprof_edge *edges, const uint32_t *in, const uint32_t *by,
                    const uint32_t *po, const uint32_t *rpo, uint32_t n, uint32_t *idom) {
  idom[XPROF_ENTRY] = XPROF_ENTRY;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t i = 1; i < n; i++) {
      uint32_t v = rpo[i], best = UINT32_MAX;
      for (uint32_t k = in[v]; k < in[v + 1]; k++) {
        const xprof_edge *e = &edges[by[k]];
        if ((e->flags & XPROF_EDGE_IGNORE) || idom[e->src] == UINT32_MAX)
          continue; /* not in the graph, or not processed yet */
        best = best == UINT32_MAX ? e->src : intersect(idom, po, best, e->src);
      }
      if (best != idom[v]) {
        idom[v] = best;
        changed = 1;
      }
    }
  }
}

/* Number the dominator tree in preorder (pre) and postorder (post). */
static void number_tree(xprof_dom *d, const uint32_t *rpo, uint32_t n, uint32_t *child,
                        uint32_t *sibling, uint32_t *stack) {
  for (uint32_t v = 0; v < d->n_nodes; v++)
    child[v] = sibling[v] = UINT32_MAX;
  for (uint32_t i = n; i-- > 1;) { /* children in reverse postorder */
    uint32_t v = rpo[i];
    sibling[v] = child[d->idom[v]];
    child[d->idom[v]] = v;
  }
  uint32_t clock = 0, depth = 0;
  stack[depth++] = XPROF_ENTRY;
  d->pre[XPROF_ENTRY] = clock++;
  while (depth) {
    uint32_t v = stack[depth - 1];
    uint32_t c = child[v];
    if (c != UINT32_MAX) {
      child[v] = sibling[c]; /* the next child, when v comes back */
      d->pre[c] = clock++;
      stack[depth++] = c;
    } else {
      d->post[v] = clock++;
      depth--;
    }
  }
}

int xprof_dom_build(xprof_dom *d, uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges) {
  memset(d, 0, sizeof *d);
  if (n_nodes <= XPROF_ENTRY)
    return 0;
  size_t nn = (size_t)n_nodes + 2;
  uint32_t *out = xprof_calloc(nn, sizeof *out), *in = xprof_calloc(nn, sizeof *in);
  uint32_t *by_out = xprof_calloc((size_t)n_edges + 1, sizeof *by_out);
  uint32_t *by_in = xprof_calloc((size_t)n_edges + 1, sizeof *by_in);
  uint32_t *scratch = xprof_calloc(nn, 4 * sizeof *scratch);
  d->idom = xprof_calloc(nn, sizeof *d->idom);
  d->pre = xprof_calloc(nn, sizeof *d->pre);
  d->post = xprof_calloc(nn, sizeof *d->post);
  int rc = -1;
  if (out && in && by_out && by_in && scratch && d->idom && d->pre && d->post) {
    uint32_t *po = scratch, *rpo = scratch + nn, *s1 = scratch + 2 * nn, *s2 = scratch + 3 * nn;
    d->n_nodes = n_nodes;
    xprof_out_edges(n_nodes, edges, n_edges, out, by_out);
    xprof_in_edges(n_nodes, edges, n_edges, in, by_in);
    uint32_t n = postorder(n_nodes, edges, out, by_out, po, rpo, s1, s2);
    for (uint32_t v = 0; v < n_nodes; v++)
      d->idom[v] = UINT32_MAX;
    iterate(edges, in, by_in, po, rpo, n, d->idom);
    for (uint32_t v = 0; v < n_nodes; v++)
      d->pre[v] = d->post[v] = UINT32_MAX;
    number_tree(d, rpo, n, s1, s2, po); /* po is done with */
    rc = 0;
  }
  xprof_free(out);
  xprof_free(in);
  xprof_free(by_out);
  xprof_free(by_in);
  xprof_free(scratch);
  if (rc < 0)
    xprof_dom_free(d);
  return rc;
}

int xprof_dom_dominates(const xprof_dom *d, uint32_t a, uint32_t b) {
  if (a >= d->n_nodes || b >= d->n_nodes || d->pre[a] == UINT32_MAX || d->pre[b] == UINT32_MAX)
    return 0;
  return d->pre[a] <= d->pre[b] && d->post[b] <= d->post[a];
}

/* ENTRY and EXIT trade places in the reversed graph. */
static uint32_t reversed(uint32_t v) {
  return v == XPROF_ENTRY ? XPROF_EXIT : v == XPROF_EXIT ? XPROF_ENTRY : v;
}

int xprof_postdom_build(xprof_dom *d, uint32_t n_nodes, const xprof_edge *edges,
                        uint32_t n_edges) {
  memset(d, 0, sizeof *d);
  if (n_nodes <= XPROF_EXIT)
    return 0;
  xprof_edge *rev = xprof_calloc((size_t)n_edges + 1, sizeof *rev);
  if (!rev)
    return -1;
  for (uint32_t i = 0; i < n_edges; i++) {
    rev[i] = edges[i];
    rev[i].src = reversed(edges[i].dst);
    rev[i].dst = reversed(edges[i].src);
  }
  int rc = xprof_dom_build(d, n_nodes, rev, n_edges);
  xprof_free(rev);
  return rc;
}

int xprof_postdominates(const xprof_dom *d, uint32_t a, uint32_t b) {
  return xprof_dom_dominates(d, reversed(a), reversed(b));
}

void xprof_dom_free(xprof_dom *d) {
  xprof_free(d->idom);
  xprof_free(d->pre);
  xprof_free(d->post);
  memset(d, 0, sizeof *d);
}
