/*
 * graph.c - a function's graph as a plugin describes it from its IR, and
 * what follows from the graph alone: where its counters go and its
 * signature.  Both modes of both plugins describe a function this way at
 * the same point of compilation, so that a use build finds the counters
 * where the collect build put them.
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof_graph.h"

int xprof_graph_reserve(xprof_graph *g, uint32_t n_nodes, uint32_t cap_edges, uint32_t n_sites,
                        uint32_t n_side) {
  memset(g, 0, sizeof *g);
  g->n_nodes = n_nodes;
  g->cap_edges = cap_edges;
  g->n_sites = n_sites;
  g->n_side = n_side;
  g->edges = xprof_calloc((size_t)cap_edges + 1, sizeof *g->edges);
  g->counter_of_edge = xprof_calloc((size_t)cap_edges + 1, sizeof *g->counter_of_edge);
  g->hash = xprof_calloc((size_t)n_nodes + 1, sizeof *g->hash);
  g->site_node = xprof_calloc((size_t)n_sites + 1, sizeof *g->site_node);
  g->site_type = xprof_calloc((size_t)n_sites + 1, sizeof *g->site_type);
  g->site_kind = xprof_calloc((size_t)n_sites + 1, sizeof *g->site_kind);
  g->side_node = xprof_calloc((size_t)n_side + 1, sizeof *g->side_node);
  g->side_slot = xprof_calloc((size_t)n_side + 1, sizeof *g->side_slot);
  g->side_counter = xprof_calloc((size_t)n_side + 1, sizeof *g->side_counter);
  if (g->edges && g->counter_of_edge && g->hash && g->site_node && g->site_type &&
      g->site_kind && g->side_node && g->side_slot && g->side_counter)
    return 0;
  xprof_graph_free(g);
  return -1;
}

int xprof_graph_edge(xprof_graph *g, uint32_t src, uint32_t dst, uint32_t flags,
                     uint64_t weight, uint32_t site) {
  if (g->n_edges >= g->cap_edges)
    return -1;
  g->edges[g->n_edges++] = (xprof_edge){src, dst, flags, weight, site};
  return 0;
}

int xprof_graph_connect_dead_ends(xprof_graph *g) {
  uint32_t *from = xprof_malloc(((size_t)g->n_nodes + 1) * sizeof *from);
  int64_t k = from ? xprof_dead_ends(g->n_nodes, g->edges, g->n_edges, from) : -1;
  int rc = k < 0 ? -1 : 0;
  for (int64_t i = 0; i < k && rc == 0; i++)
    rc = xprof_graph_edge(g, from[i], XPROF_EXIT, XPROF_EDGE_FAKE, 0, 0);
  xprof_free(from);
  return rc;
}

int xprof_graph_place(xprof_graph *g) {
  g->n_counters = xprof_place_counters(g->n_nodes, g->edges, g->n_edges, g->counter_of_edge);
  g->signature = xprof_proc_signature(
      xprof_cfg_signature(g->n_nodes, g->edges, g->n_edges, g->counter_of_edge), g->n_sites);
  /* Only functions with side counters change signature: profiles of the
   * others stay valid. */
  if (g->n_side_counters)
    g->signature ^= 0xc2b2ae3d27d4eb4full * (uint64_t)g->n_side_counters;
  for (uint32_t i = 0; g->n_counters >= 0 && i < g->n_side; i++)
    g->side_counter[i] = (uint32_t)g->n_counters + g->side_slot[i];
  return g->n_counters < 0 ? -1 : 0;
}

xprof_shape xprof_graph_shape(const xprof_graph *g) {
  xprof_shape s = {g->n_nodes,  g->n_edges,   g->edges,     g->counter_of_edge,
                   g->hash,     g->n_sites,   g->site_node, g->site_type,
                   g->n_side,   g->side_node, g->side_counter};
  return s;
}

void xprof_graph_free(xprof_graph *g) {
  xprof_free(g->edges);
  xprof_free(g->counter_of_edge);
  xprof_free(g->hash);
  xprof_free(g->site_node);
  xprof_free(g->site_type);
  xprof_free(g->site_kind);
  xprof_free(g->side_node);
  xprof_free(g->side_slot);
  xprof_free(g->side_counter);
  memset(g, 0, sizeof *g);
}
