/* test_flow.c - counter placement and the flow solver on random CFGs. */
#include <stdlib.h>

#include "unit.h"
#include "xprof_plan.h"
#include "xprof_views.h"

static uint64_t rng_state = 0x243f6a8885a308d3ull;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* A random CFG: a chain ENTRY -> 2 -> ... -> n-1 -> EXIT so that every
 * node is reachable and reaches EXIT, plus random extra edges (loops,
 * branches, self loops, edges into EXIT). */
static uint32_t random_cfg(uint32_t n_nodes, xprof_edge *e, uint32_t max) {
  uint32_t n = 0;
  e[n++] = (xprof_edge){XPROF_ENTRY, 2, 0, 0, 0};
  for (uint32_t v = 2; v + 1 < n_nodes; v++)
    e[n++] = (xprof_edge){v, v + 1, 0, 0, 0};
  e[n++] = (xprof_edge){n_nodes - 1, XPROF_EXIT, 0, 0, 0};
  while (n < max) {
    uint32_t s = 2 + (uint32_t)(rng() % (n_nodes - 2));
    uint32_t d = rng() % 5 == 0 ? XPROF_EXIT : 2 + (uint32_t)(rng() % (n_nodes - 2));
    e[n++] = (xprof_edge){s, d, 0, rng() % 1000, 0};
  }
  return n;
}

/* Walk from ENTRY to EXIT `walks` times choosing random successors, but
 * always able to finish (the chain edge is taken with some probability). */
static void simulate(uint32_t n_nodes, const xprof_edge *e, uint32_t n_edges,
                     uint32_t walks, uint64_t *count) {
  for (uint32_t k = 0; k < n_edges; k++)
    count[k] = 0;
  for (uint32_t w = 0; w < walks; w++) {
    uint32_t v = XPROF_ENTRY, steps = 0;
    while (v != XPROF_EXIT) {
      uint32_t succ[64], ns = 0, chain = UINT32_MAX;
      for (uint32_t k = 0; k < n_edges && ns < 64; k++)
        if (e[k].src == v) {
          if (e[k].dst == v + 1 || (e[k].dst == XPROF_EXIT && v == n_nodes - 1) ||
              (v == XPROF_ENTRY))
            chain = k;
          succ[ns++] = k;
        }
      uint32_t pick = (steps++ > 50 || rng() % 3 == 0) && chain != UINT32_MAX
                          ? chain
                          : succ[rng() % ns];
      count[pick]++;
      v = e[pick].dst;
    }
  }
}

static void random_graphs(void) {
  xprof_edge e[200];
  uint32_t counter[200];
  uint64_t truth[200], solved[200], values[200], nodes[64];
  int bad = 0;
  for (int round = 0; round < 300; round++) {
    uint32_t n_nodes = 3 + (uint32_t)(rng() % 40);
    uint32_t n_edges = random_cfg(n_nodes, e, n_nodes + (uint32_t)(rng() % (2 * n_nodes)));
    for (uint32_t k = 0; k < n_edges; k++)
      if (rng() % 4 == 0)
        e[k].flags |= XPROF_EDGE_CRITICAL;
    int64_t nc = xprof_place_counters(n_nodes, e, n_edges, counter);
    CHECK(nc >= 0);
    /* Off a spanning tree of V nodes and E + 1 edges (with the virtual
     * edge, which is on the tree): E + 1 - (V - 1) edges. */
    CHECK_U64((uint64_t)nc, n_edges + 2 - n_nodes);
    simulate(n_nodes, e, n_edges, 1 + (uint32_t)(rng() % 50), truth);
    for (uint32_t k = 0; k < n_edges; k++)
      if (counter[k] != XPROF_ON_TREE)
        values[counter[k]] = truth[k];
    int rc = xprof_solve_flow(n_nodes, e, n_edges, counter, values,
                              (uint32_t)nc, solved, nodes);
    CHECK(rc == 0);
    for (uint32_t k = 0; k < n_edges; k++)
      if (solved[k] != truth[k])
        bad++;
    /* node counts are in-flows */
    for (uint32_t v = 2; v < n_nodes; v++) {
      uint64_t in = 0;
      for (uint32_t k = 0; k < n_edges; k++)
        if (e[k].dst == v)
          in += truth[k];
      if (nodes[v] != in)
        bad++;
    }
  }
  CHECK(bad == 0);
}

/* Heavy edges stay on the tree: of a loop's two edges between the header
 * and the body, the lighter one carries the counter. */
static void heavy_edges_uncounted(void) {
  /* ENTRY -> 2, 2 -> 3 (heavy), 3 -> 2 (back edge), 3 -> EXIT */
  xprof_edge e[] = {{XPROF_ENTRY, 2, 0, 1, 0},
                    {2, 3, 0, 1000, 0},
                    {3, 2, 0, 999, 0},
                    {3, XPROF_EXIT, 0, 1, 0}};
  uint32_t c[4];
  CHECK(xprof_place_counters(4, e, 4, c) == 2);
  CHECK(c[1] == XPROF_ON_TREE);
  CHECK(c[3] == XPROF_ON_TREE); /* edges into EXIT are preferred */
  CHECK(c[0] == 0 && c[2] == 1);
  e[2].weight = 2000; /* now the back edge is the heavier one */
  CHECK(xprof_place_counters(4, e, 4, c) == 2);
  CHECK(c[2] == XPROF_ON_TREE && c[1] == 1);
}

static void fake_and_ignored(void) {
  /* 2 -> 3 is abnormal: replaced by fake 2 -> EXIT and ENTRY -> 3. */
  xprof_edge e[] = {{XPROF_ENTRY, 2, 0, 5, 0},
                    {2, 3, XPROF_EDGE_IGNORE, 5, 0},
                    {2, XPROF_EXIT, XPROF_EDGE_FAKE, 0, 0},
                    {XPROF_ENTRY, 3, XPROF_EDGE_FAKE, 0, 0},
                    {3, XPROF_EXIT, 0, 5, 0}};
  uint32_t c[5];
  CHECK(xprof_place_counters(4, e, 5, c) == 2);
  CHECK(c[1] == XPROF_NOT_IN_GRAPH);
  CHECK(c[2] == XPROF_ON_TREE && c[3] == XPROF_ON_TREE);
  CHECK(c[0] == 0 && c[4] == 1);
  /* 7 calls; 3 times 3 was reached abnormally. */
  uint64_t v[2] = {7, 3}, solved[5], nodes[4];
  CHECK(xprof_solve_flow(4, e, 5, c, v, 2, solved, nodes) == 0);
  CHECK_U64(solved[2], 7);
  CHECK_U64(solved[3], 3);
  CHECK_U64(solved[1], 0);
  CHECK_U64(nodes[XPROF_ENTRY], 10);
  /* the signature changes with the placement */
  uint32_t c2[5];
  memcpy(c2, c, sizeof c);
  c2[0] = XPROF_ON_TREE;
  c2[2] = 0;
  CHECK(xprof_cfg_signature(4, e, 5, c) != xprof_cfg_signature(4, e, 5, c2));

  /* A block with both a fake entry and a fake exit edge cannot be exact. */
  xprof_edge f[] = {{XPROF_ENTRY, 2, XPROF_EDGE_FAKE, 0, 0},
                    {2, XPROF_EXIT, XPROF_EDGE_FAKE, 0, 0}};
  CHECK(xprof_place_counters(3, f, 2, c) == -1);
}

static void inconsistent(void) {
  /* diamond: ENTRY->2, 2->3, 2->4, 3->5, 4->5, 5->EXIT, counted on the
   * first two edges (a valid placement: the rest plus the virtual edge
   * form a spanning tree). */
  xprof_edge e[] = {{0, 2, 0, 9, 0}, {2, 3, 0, 5, 0}, {2, 4, 0, 1, 0},
                    {3, 5, 0, 5, 0}, {4, 5, 0, 1, 0}, {5, 1, 0, 9, 0}};
  uint32_t c[6] = {0, 1, XPROF_ON_TREE, XPROF_ON_TREE, XPROF_ON_TREE,
                   XPROF_ON_TREE};
  uint64_t solved[6];
  uint64_t good[2] = {6, 5}, bad[2] = {1, 5};
  CHECK(xprof_solve_flow(6, e, 6, c, good, 2, solved, NULL) == 0);
  CHECK_U64(solved[2], 1);
  CHECK_U64(solved[5], 6);
  /* 5 of 1 calls took the left branch: the right one would be -4. */
  CHECK(xprof_solve_flow(6, e, 6, c, bad, 2, solved, NULL) == 1);
  CHECK_U64(solved[2], 0);
  /* A counter id beyond the values is refused. */
  CHECK(xprof_solve_flow(6, e, 6, c, good, 1, solved, NULL) == -1);
  /* So is a placement whose uncounted edges contain a cycle. */
  uint32_t cyc[6] = {XPROF_ON_TREE, XPROF_ON_TREE, XPROF_ON_TREE,
                     XPROF_ON_TREE, XPROF_ON_TREE, 0};
  uint64_t one[1] = {6};
  CHECK(xprof_solve_flow(6, e, 6, cyc, one, 1, solved, NULL) == -1);
}

static void comdat_keys(void) {
  /* The same CFG, the return edge uncountable in one copy (a call taken
   * as possibly exiting there) and not in the other: one signature. */
  xprof_edge a[] = {{0, 2, 0, 9, 0}, {2, 1, XPROF_EDGE_NOCOUNT, 9, 0}};
  xprof_edge b[] = {{0, 2, 0, 9, 0}, {2, 1, 0, 9, 0}};
  uint32_t c[2] = {0, XPROF_ON_TREE};
  uint64_t sig = xprof_cfg_signature(3, a, 2, c);
  CHECK(sig == xprof_cfg_signature(3, b, 2, c));
  uint32_t w4[2] = {10, 10}, w8[2] = {18, 18};
  /* Without debug counters the arrays agree, with them they do not. */
  CHECK(xprof_comdat_key(sig, a, 2, 0, w4, 2) == xprof_comdat_key(sig, b, 2, 0, w4, 2));
  CHECK(xprof_comdat_key(sig, a, 2, 1, w4, 2) != xprof_comdat_key(sig, b, 2, 1, w4, 2));
  CHECK(xprof_comdat_key(sig, a, 2, 1, w4, 2) == xprof_comdat_key(sig, a, 2, 1, w4, 2));
  /* Value-profile sites of another size: other arrays. */
  CHECK(xprof_comdat_key(sig, a, 2, 0, w4, 2) != xprof_comdat_key(sig, a, 2, 0, w8, 2));
  CHECK(xprof_comdat_key(sig, a, 2, 0, w4, 1) != xprof_comdat_key(sig, a, 2, 0, w4, 2));
}

/* An indirect call that may exit: block 2 splits before the call into
 * 2 and 3, and the edge 2 -> 3 is measured by the call's site (1).  With
 * the measurement the graph needs two counters; without, three. */
static void measured_edges(void) {
  xprof_edge e[] = {{XPROF_ENTRY, 2, 0, 9, 0},
                    {2, 3, XPROF_EDGE_MEASURED, 9, 1},
                    {3, 4, 0, 8, 0},
                    {3, XPROF_EXIT, XPROF_EDGE_FAKE, 0, 0},
                    {4, 2, 0, 7, 0},
                    {4, XPROF_EXIT, 0, 1, 0}};
  uint32_t c[6];
  CHECK(xprof_place_counters(5, e, 6, c) == 2);
  CHECK(c[1] == XPROF_MEASURED);
  CHECK(!XPROF_HAS_COUNTER(c[1]) && !XPROF_HAS_COUNTER(XPROF_ON_TREE));
  /* Entered 3 times, 10 calls, the 10th exits: the loop went back 7
   * times (4 -> 2), 2 returned (4 -> EXIT). */
  uint64_t truth[6] = {3, 10, 9, 1, 7, 2};
  uint64_t v[2] = {0, 0}, sites[2] = {0, 10}, solved[6], nodes[5];
  for (uint32_t i = 0; i < 6; i++)
    if (XPROF_HAS_COUNTER(c[i]))
      v[c[i]] = truth[i];
  CHECK(xprof_solve_flow_sites(5, e, 6, c, v, 2, sites, 2, solved, nodes) == 0);
  for (uint32_t i = 0; i < 6; i++)
    CHECK_U64(solved[i], truth[i]);
  CHECK_U64(nodes[3], 10);
  /* The site must be there. */
  CHECK(xprof_solve_flow_sites(5, e, 6, c, v, 2, sites, 1, solved, NULL) == -1);
  CHECK(xprof_solve_flow(5, e, 6, c, v, 2, solved, NULL) == -1);
  /* Without the measurement: a second counter, another signature. */
  uint32_t c2[6];
  e[1].flags = 0;
  CHECK(xprof_place_counters(5, e, 6, c2) == 3);
  e[1].flags = XPROF_EDGE_MEASURED;
  CHECK(xprof_cfg_signature(5, e, 6, c) != xprof_cfg_signature(5, e, 6, c2));
  /* Measured by another site: another signature. */
  uint64_t sig = xprof_cfg_signature(5, e, 6, c);
  e[1].site = 0;
  CHECK(xprof_cfg_signature(5, e, 6, c) != sig);
}

/* Counts too large for 64 bits (a damaged profile) saturate, in the
 * blocks too: two edges of 2^63 each join in block 4. */
static void saturated(void) {
  xprof_edge e[] = {{XPROF_ENTRY, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {2, 4, 0, 0, 0},
                    {3, 4, 0, 0, 0},           {4, XPROF_EXIT, 0, 0, 0}};
  uint32_t counter_of_edge[5];
  int64_t nc = xprof_place_counters(5, e, 5, counter_of_edge);
  CHECK(nc == 2);
  /* Whatever the two counters are, give both edges out of 2 2^63. */
  uint64_t values[2] = {1ull << 63, 1ull << 63};
  uint64_t edge_count[5], node_count[5];
  CHECK(xprof_solve_flow(5, e, 5, counter_of_edge, values, 2, edge_count, node_count) >= 0);
  CHECK_U64(node_count[4], UINT64_MAX);
  CHECK_U64(node_count[2], UINT64_MAX);
}

/* A thread's main loop never reaches EXIT: ENTRY -> 2 -> 3 <-> 4, with 5
 * a second loop (5 <-> 6) entered from 3, and 7 a block that returns.
 * One fake edge per loop region; then frames still in the loops when the
 * profile is written count as having left by them, and the entry count
 * is right (without them it could only come out 0). */
static void dead_ends(void) {
  xprof_edge e[16] = {{XPROF_ENTRY, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {3, 4, 0, 0, 0},
                      {4, 3, 0, 0, 0},           {3, 5, 0, 0, 0}, {5, 6, 0, 0, 0},
                      {6, 5, 0, 0, 0},           {2, 7, 0, 0, 0}, {7, XPROF_EXIT, 0, 0, 0}};
  uint32_t n = 9, from[8];
  int64_t k = xprof_dead_ends(8, e, n, from);
  CHECK(k == 2);
  if (k != 2)
    return;
  /* The walk from the first dead end closes each loop where it began. */
  CHECK(from[0] == 3);
  CHECK(from[1] == 5);
  for (int64_t i = 0; i < k; i++)
    e[n++] = (xprof_edge){from[i], XPROF_EXIT, XPROF_EDGE_FAKE, 0, 0};
  CHECK(xprof_dead_ends(8, e, n, from) == 0); /* nothing left */

  /* 8 threads: 5 stayed in 3 <-> 4 (10 turns), 3 went on to 5 <-> 6 (4
   * turns), none returned through 7; the counters are what they count. */
  uint32_t c[16];
  int64_t nc = xprof_place_counters(8, e, n, c);
  CHECK(nc > 0);
  uint64_t truth[16] = {8, 8, 10, 10, 3, 4, 4, 0, 0, 0, 0};
  truth[9] = 5; /* the fake edges: the frames in each loop */
  truth[10] = 3;
  /* 3 is entered 8 + 10 = 18 times and left 10 (to 4) + 3 (to 5) + 5
   * (still there) times; 5 entered 3 + 4, left 4 + 3. */
  uint64_t counters[16] = {0};
  for (uint32_t i = 0; i < n; i++)
    if (XPROF_HAS_COUNTER(c[i]))
      counters[c[i]] = truth[i];
  uint64_t solved[16], nodes[8];
  CHECK(xprof_solve_flow(8, e, n, c, counters, (uint32_t)nc, solved, nodes) == 0);
  CHECK_U64(solved[0], 8);
  CHECK_U64(nodes[2], 8);
  for (uint32_t i = 0; i < n; i++)
    CHECK_U64(solved[i], truth[i]);
}


/* ---- inferring a flow from estimates (infer.c) ---------------------------- */

/* Whether counts are a flow: every block's in equals its out, and what
 * leaves ENTRY reaches EXIT. */
static int is_flow(uint32_t n_nodes, const xprof_edge *e, uint32_t n_edges, const uint64_t *c) {
  int64_t bal[64] = {0};
  for (uint32_t k = 0; k < n_edges; k++) {
    bal[e[k].src] -= (int64_t)c[k];
    bal[e[k].dst] += (int64_t)c[k];
  }
  for (uint32_t v = 2; v < n_nodes; v++)
    if (bal[v])
      return 0;
  return bal[XPROF_ENTRY] + bal[XPROF_EXIT] == 0;
}

/* The node counts of edge counts: what flows into each (ENTRY: out). */
static void node_counts_of(uint32_t n_nodes, const xprof_edge *e, uint32_t n_edges,
                           const uint64_t *c, uint64_t *node) {
  for (uint32_t v = 0; v < n_nodes; v++)
    node[v] = 0;
  for (uint32_t k = 0; k < n_edges; k++) {
    node[e[k].dst] += c[k];
    if (e[k].src == XPROF_ENTRY)
      node[XPROF_ENTRY] += c[k];
  }
}

/* A diamond with one estimate missing, and a loop whose body is
 * estimated above what its header lets in. */
static void infer_small(void) {
  const xprof_edge d[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {2, 4, 0, 0, 0},
                          {3, 5, 0, 0, 0}, {4, 5, 0, 0, 0}, {5, 1, 0, 0, 0}};
  uint64_t w[6] = {10, 10, 10, 7, 0, 10}, ec[6], nc[6];
  unsigned char known[6] = {1, 1, 1, 1, 0, 1};
  CHECK(xprof_infer_flow(6, d, 6, w, known, ec, nc) == 0);
  CHECK(is_flow(6, d, 6, ec));
  CHECK_U64(nc[4], 3);
  CHECK_U64(ec[1], 7);
  CHECK_U64(ec[2], 3);
  /* ENTRY -> 2 (header) -> 3 (body) -> 2, 2 -> EXIT. */
  const xprof_edge l[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {3, 2, 0, 0, 0}, {2, 1, 0, 0, 0}};
  uint64_t lw[4] = {1, 1, 101, 100};
  CHECK(xprof_infer_flow(4, l, 4, lw, NULL, ec, nc) == 0); /* nothing known: no flow */
  CHECK_U64(ec[0] + ec[1] + ec[2] + ec[3], 0);
  unsigned char all[4] = {1, 1, 1, 1};
  CHECK(xprof_infer_flow(4, l, 4, lw, all, ec, nc) == 0);
  CHECK_U64(ec[1], 100);
  CHECK_U64(ec[3], 1);
  lw[3] = 150; /* the body above its header: a flow all the same */
  CHECK(xprof_infer_flow(4, l, 4, lw, all, ec, nc) == 0);
  CHECK(is_flow(4, l, 4, ec));
  CHECK(nc[2] >= 101 && nc[3] >= 100 && nc[3] <= 150);
  CHECK_U64(nc[2], nc[3] + ec[3]);
  /* The header measured (a count salvage carried over): it keeps its
   * count, and the body's estimate gives way. */
  unsigned char header_measured[4] = {1, 1, XPROF_INFER_MEASURED, 1};
  CHECK(xprof_infer_flow(4, l, 4, lw, header_measured, ec, nc) == 0);
  CHECK(is_flow(4, l, 4, ec));
  CHECK_U64(nc[2], 101);
  CHECK_U64(nc[3], 100);
  /* Too large to keep exact. */
  lw[2] = UINT64_MAX / 2;
  CHECK(xprof_infer_flow(4, l, 4, lw, all, ec, nc) == -1);
}

/* A loop that feeds itself while the entry's run leaves by a call's fake
 * edge is joined: one more run from ENTRY through it to EXIT. */
static void connect_isolated(void) {
  const xprof_edge d[] = {{0, 2, 0, 0, 0}, {2, 1, XPROF_EDGE_FAKE, 0, 0}, {2, 3, 0, 0, 0},
                          {3, 4, 0, 0, 0}, {4, 3, 0, 0, 0}, {3, 1, 0, 0, 0}};
  uint64_t ec[6] = {1, 1, 0, 5, 5, 0}, nc[5] = {1, 1, 1, 5, 5};
  xprof_flow_connect(5, d, 6, ec, nc);
  CHECK(is_flow(5, d, 6, ec));
  CHECK_U64(ec[0], 2);
  CHECK_U64(ec[2], 1);
  CHECK_U64(ec[5], 1);
  CHECK_U64(nc[XPROF_ENTRY], 2);
  CHECK_U64(nc[3], 6);
  CHECK_U64(nc[4], 5);
  /* Connected already: nothing changes. */
  xprof_flow_connect(5, d, 6, ec, nc);
  CHECK_U64(nc[XPROF_ENTRY], 2);
  CHECK_U64(nc[3], 6);
}

/* Random graphs: exact estimates give back the node counts; noisy and
 * missing ones a flow that costs no more, by the solver's measure, than
 * the true counts do. */
static void infer_random(void) {
  xprof_edge e[200];
  uint64_t truth[200], ec[200], nc[64], true_node[64], w[64];
  unsigned char known[64];
  for (int round = 0; round < 200; round++) {
    uint32_t n_nodes = 4 + (uint32_t)(rng() % 40);
    uint32_t n_edges = random_cfg(n_nodes, e, n_nodes + (uint32_t)(rng() % (2 * n_nodes)));
    simulate(n_nodes, e, n_edges, 1 + (uint32_t)(rng() % 30), truth);
    node_counts_of(n_nodes, e, n_edges, truth, true_node);
    for (uint32_t v = 0; v < n_nodes; v++) {
      w[v] = true_node[v];
      known[v] = 1;
    }
    CHECK(xprof_infer_flow(n_nodes, e, n_edges, w, known, ec, nc) == 0);
    CHECK(is_flow(n_nodes, e, n_edges, ec));
    for (uint32_t v = 0; v < n_nodes; v++)
      if (v != XPROF_EXIT)
        CHECK_U64(nc[v], true_node[v]);
    /* Noise: a third of the estimates off by up to half, a fifth unknown. */
    for (uint32_t v = 0; v < n_nodes; v++) {
      known[v] = rng() % 5 != 0;
      w[v] = rng() % 3 ? true_node[v] : true_node[v] / 2 + rng() % (true_node[v] + 1);
    }
    CHECK(xprof_infer_flow(n_nodes, e, n_edges, w, known, ec, nc) == 0);
    CHECK(is_flow(n_nodes, e, n_edges, ec));
    CHECK(xprof_infer_cost(n_nodes, e, n_edges, w, known, ec, nc) <=
          xprof_infer_cost(n_nodes, e, n_edges, w, known, truth, true_node));
  }
}

/* Whether `to` can be reached from `from` over edges but ignored ones
 * without passing through `cut` (UINT32_MAX: none). */
static int path_avoiding(const xprof_edge *e, uint32_t n_edges, uint32_t from, uint32_t cut,
                         uint32_t to) {
  unsigned char seen[32] = {0};
  uint32_t stack[32], depth = 0;
  if (cut == from)
    return 0;
  seen[from] = 1;
  stack[depth++] = from;
  while (depth) {
    uint32_t v = stack[--depth];
    for (uint32_t k = 0; k < n_edges; k++)
      if (e[k].src == v && !(e[k].flags & XPROF_EDGE_IGNORE) && e[k].dst != cut &&
          !seen[e[k].dst]) {
        seen[e[k].dst] = 1;
        stack[depth++] = e[k].dst;
      }
  }
  return seen[to];
}

/* Dominators and post-dominators: a diamond after a loop, an unreachable
 * block and an ignored edge by hand, then random graphs against the
 * definition (a dominates b when b is reached, and not once a is taken
 * away). */
static void dominators(void) {
  /* 0 -> 2 -> 3 <-> 4, 3 -> 5 | 6 -> 7 -> 1; 8 unreachable (8 -> 7); an
   * ignored edge 0 -> 6. */
  const xprof_edge d[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {3, 4, 0, 0, 0}, {4, 3, 0, 0, 0},
                          {3, 5, 0, 0, 0}, {3, 6, 0, 0, 0}, {5, 7, 0, 0, 0}, {6, 7, 0, 0, 0},
                          {7, 1, 0, 0, 0}, {8, 7, 0, 0, 0}, {0, 6, XPROF_EDGE_IGNORE, 0, 0}};
  xprof_dom dom;
  CHECK(xprof_dom_build(&dom, 9, d, 11) == 0);
  const uint32_t idom[] = {0, 7, 0, 2, 3, 3, 3, 3, UINT32_MAX};
  for (uint32_t v = 0; v < 9; v++)
    CHECK_U64(dom.idom[v], idom[v]);
  CHECK(xprof_dom_dominates(&dom, 3, 7));
  CHECK(xprof_dom_dominates(&dom, 4, 4));
  CHECK(!xprof_dom_dominates(&dom, 4, 3));
  CHECK(!xprof_dom_dominates(&dom, 5, 7));
  CHECK(!xprof_dom_dominates(&dom, 8, 8));
  CHECK(!xprof_dom_dominates(&dom, 0, 8));
  xprof_dom_free(&dom);
  /* ... and post-dominators: 7 post-dominates everything that leads out
   * (8 too), 3 the loop's 4, 5 and 6 neither 3 nor each other. */
  CHECK(xprof_postdom_build(&dom, 9, d, 11) == 0);
  CHECK(xprof_postdominates(&dom, 7, 8));
  CHECK(xprof_postdominates(&dom, 7, 0));
  CHECK(xprof_postdominates(&dom, 1, 2));
  CHECK(xprof_postdominates(&dom, 3, 4));
  CHECK(xprof_postdominates(&dom, 6, 6));
  CHECK(!xprof_postdominates(&dom, 5, 3));
  CHECK(!xprof_postdominates(&dom, 6, 5));
  CHECK(!xprof_postdominates(&dom, 2, 7));
  xprof_dom_free(&dom);
  for (int round = 0; round < 300; round++) {
    uint32_t n_nodes = 3 + (uint32_t)(rng() % 12), n_edges = 0;
    xprof_edge e[64];
    uint32_t want = 1 + (uint32_t)(rng() % 40);
    while (n_edges < want) {
      uint32_t s = rng() % 4 == 0 ? XPROF_ENTRY : 2 + (uint32_t)(rng() % (n_nodes - 2));
      uint32_t t = 1 + (uint32_t)(rng() % (n_nodes - 1));
      e[n_edges++] = (xprof_edge){s, t, rng() % 9 == 0 ? XPROF_EDGE_IGNORE : 0, 0, 0};
    }
    CHECK(xprof_dom_build(&dom, n_nodes, e, n_edges) == 0);
    for (uint32_t a = 0; a < n_nodes; a++)
      for (uint32_t b = 0; b < n_nodes; b++) {
        int reached = path_avoiding(e, n_edges, XPROF_ENTRY, UINT32_MAX, b);
        int by_definition = reached && (a == b || !path_avoiding(e, n_edges, XPROF_ENTRY, a, b));
        CHECK(xprof_dom_dominates(&dom, a, b) == by_definition);
      }
    xprof_dom_free(&dom);
    /* Post-dominators: a post-dominates b when b leads out, and not once
     * a is taken away. */
    CHECK(xprof_postdom_build(&dom, n_nodes, e, n_edges) == 0);
    for (uint32_t a = 0; a < n_nodes; a++)
      for (uint32_t b = 0; b < n_nodes; b++) {
        int out = path_avoiding(e, n_edges, b, UINT32_MAX, XPROF_EXIT);
        int by_definition = out && (a == b || !path_avoiding(e, n_edges, b, a, XPROF_EXIT));
        CHECK(xprof_postdominates(&dom, a, b) == by_definition);
      }
    xprof_dom_free(&dom);
  }
}

UNIT_TABLE(flow_tests) = {
    {"flow/dominators", dominators},
    {"flow/infer_small", infer_small},
    {"flow/connect_isolated", connect_isolated},
    {"flow/infer_random", infer_random},
    {"flow/saturated", saturated},
    {"flow/measured_edges", measured_edges},
    {"flow/comdat_keys", comdat_keys},
    {"flow/random_graphs", random_graphs},
    {"flow/heavy_edges_uncounted", heavy_edges_uncounted},
    {"flow/fake_and_ignored", fake_and_ignored},
    {"flow/inconsistent", inconsistent},
    {"flow/dead_ends", dead_ends},
    UNIT_END};
