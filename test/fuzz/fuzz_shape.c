/*
 * fuzz_shape.c - libFuzzer target for the shape decoder and the salvage
 * of counts.  A decoded shape must encode to bytes that decode to the
 * same shape; its counts (from counters taken out of its hashes) must
 * salvage onto the same graph and onto the graph with its blocks' hashes
 * shifted, each time as a consistent flow, or fail cleanly.
 */
#include <stdlib.h>
#include <string.h>

#include "xprof_plan.h"
#include "xprof_views.h"

/* The same shape, as salvage sees it: hashes folded, and none on ENTRY
 * and EXIT (version 2 keeps them so; version 1 kept all 32 bits of
 * every node's). */
static int same_shape(const xprof_shape *a, const xprof_shape *b) {
  if (a->n_nodes != b->n_nodes)
    return 0;
  for (uint32_t v = 2; v < a->n_nodes; v++)
    if (xprof_block_hash_fold(a->hash[v]) != xprof_block_hash_fold(b->hash[v]))
      return 0;
  if (a->n_edges != b->n_edges || a->n_sites != b->n_sites ||
      memcmp(a->site_node, b->site_node, a->n_sites * sizeof(uint32_t)) != 0 ||
      memcmp(a->site_type, b->site_type, a->n_sites * sizeof(uint32_t)) != 0 ||
      a->n_side != b->n_side ||
      memcmp(a->side_node, b->side_node, a->n_side * sizeof(uint32_t)) != 0 ||
      memcmp(a->side_counter, b->side_counter, a->n_side * sizeof(uint32_t)) != 0 ||
      memcmp(a->counter_of_edge, b->counter_of_edge, a->n_edges * sizeof(uint32_t)) != 0)
    return 0;
  for (uint32_t e = 0; e < a->n_edges; e++)
    if (a->edges[e].src != b->edges[e].src || a->edges[e].dst != b->edges[e].dst ||
        a->edges[e].flags != b->edges[e].flags || a->edges[e].site != b->edges[e].site)
      return 0;
  return 1;
}

/* Salvage s's counts onto s's graph with hashes h; a success must be a
 * flow. */
static void salvage_onto(const xprof_shape *s, const uint64_t *oe, const uint64_t *on,
                         const uint32_t *h) {
  uint64_t *ec = calloc(s->n_edges + 1, 8), *nc = calloc(s->n_nodes, 8);
  uint64_t *in = calloc(s->n_nodes, 8), *out = calloc(s->n_nodes, 8);
  xprof_salvage_result r;
  xprof_shape now = *s;
  now.hash = (uint32_t *)h;
  if (xprof_salvage(s, oe, on, &now, ec, nc, NULL, NULL, &r) == 0) {
    for (uint32_t e = 0; e < s->n_edges; e++) {
      if (s->edges[e].flags & XPROF_EDGE_IGNORE)
        continue;
      out[s->edges[e].src] += ec[e];
      in[s->edges[e].dst] += ec[e];
    }
    for (uint32_t v = 2; v < s->n_nodes; v++)
      if (in[v] != nc[v] || out[v] != nc[v])
        __builtin_trap();
    if (out[XPROF_ENTRY] != nc[XPROF_ENTRY] || in[XPROF_EXIT] != nc[XPROF_EXIT] ||
        r.matched_mass > r.old_mass)
      __builtin_trap();
  }
  free(ec);
  free(nc);
  free(in);
  free(out);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  xprof_shape s, t;
  xprof_error err;
  if (xprof_shape_decode(data, size, "fuzz", &s, &err) < 0) {
    if (!err.msg[0])
      __builtin_trap();
    return 0;
  }
  unsigned char *buf;
  size_t len;
  if (xprof_shape_encode(&s, &buf, &len) < 0 ||
      xprof_shape_decode(buf, len, "again", &t, &err) < 0 || !same_shape(&s, &t))
    __builtin_trap();
  free(buf);
  xprof_shape_free(&t);
  if (s.n_nodes > 2000 || s.n_edges > 4000) { /* keep each run short */
    xprof_shape_free(&s);
    return 0;
  }
  uint32_t n = 0;
  for (uint32_t e = 0; e < s.n_edges; e++)
    if (XPROF_HAS_COUNTER(s.counter_of_edge[e]) && s.counter_of_edge[e] >= n)
      n = s.counter_of_edge[e] + 1;
  if (n <= 1u << 16) {
    uint64_t *counters = calloc(n + 1, 8), *sites = calloc(1u << 16, 8);
    uint64_t *oe = calloc(s.n_edges + 1, 8), *on = calloc(s.n_nodes, 8);
    uint32_t *shifted = calloc(s.n_nodes, 4);
    for (uint32_t k = 0; k < n; k++)
      counters[k] = s.hash[k % s.n_nodes] % 1000;
    for (uint32_t v = 0; v < s.n_nodes; v++)
      shifted[v] = v < 2 ? 0 : s.hash[v] + (v % 3 == 0);
    if (xprof_solve_flow_sites(s.n_nodes, s.edges, s.n_edges, s.counter_of_edge, counters, n,
                               sites, 1u << 16, oe, on) >= 0) {
      salvage_onto(&s, oe, on, s.hash);
      salvage_onto(&s, oe, on, shifted);
    }
    free(counters);
    free(sites);
    free(oe);
    free(on);
    free(shifted);
  }
  xprof_shape_free(&s);
  return 0;
}
