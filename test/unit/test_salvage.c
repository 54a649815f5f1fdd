/* test_salvage.c - shapes encoded and decoded, and counts carried from a
 * trained procedure to an edited one: a block inserted, deleted or split,
 * branches swapped, a call added, a loop added, and counts that the new
 * graph contradicts.  Each old procedure is trained by counters placed
 * and solved as the plugins do; each result must be a consistent flow. */
#include <stdlib.h>

#include "unit.h"
#include "xprof_plan.h"
#include "xprof_views.h"

enum { MAXN = 16, MAXE = 24 };

typedef struct graph {
  uint32_t n_nodes, n_edges;
  xprof_edge edges[MAXE];
  uint32_t hash[MAXN];
} graph;

/* Value-profile sites: each one's node and record type. */
typedef struct sites {
  uint32_t n, node[4], type[4];
} sites;

/* The graph with its sites (or none) as a shape. */
static xprof_shape shape_of(const graph *g, uint32_t *counter_of_edge, const sites *vs) {
  return (xprof_shape){g->n_nodes,
                       g->n_edges,
                       (xprof_edge *)g->edges,
                       counter_of_edge,
                       (uint32_t *)g->hash,
                       vs ? vs->n : 0,
                       vs ? (uint32_t *)vs->node : NULL,
                       vs ? (uint32_t *)vs->type : NULL,
                       0,
                       NULL,
                       NULL};
}

#define E(s, d) {s, d, 0, 0, 0}
#define FAKE(s, d) {s, d, XPROF_EDGE_FAKE, 0, 0}

/* The old procedure's counts as the use build solves them from its
 * counters: truth gives each edge's count. */
static void train(const graph *g, const uint64_t *truth, xprof_shape *shape,
                  uint64_t *edge_count, uint64_t *node_count) {
  static uint32_t counter_of_edge[MAXE];
  int64_t n = xprof_place_counters(g->n_nodes, g->edges, g->n_edges, counter_of_edge);
  CHECK(n >= 0);
  uint64_t counters[MAXE] = {0};
  for (uint32_t e = 0; e < g->n_edges; e++)
    if (XPROF_HAS_COUNTER(counter_of_edge[e]))
      counters[counter_of_edge[e]] = truth[e];
  CHECK(xprof_solve_flow(g->n_nodes, g->edges, g->n_edges, counter_of_edge, counters,
                         (uint32_t)n, edge_count, node_count) == 0);
  /* Through the encoding, as the profile keeps it. */
  xprof_shape s = shape_of(g, counter_of_edge, NULL);
  unsigned char *buf;
  size_t len;
  xprof_error err;
  CHECK(xprof_shape_encode(&s, &buf, &len) == 0);
  CHECK(xprof_shape_decode(buf, len, "old", shape, &err) == 0);
  free(buf);
}

/* Salvage new's counts from old's; checks that they are a flow. */
static xprof_salvage_result salvage(const graph *old, const uint64_t *truth, const graph *g,
                                    uint64_t *edge_count, uint64_t *node_count) {
  xprof_shape shape;
  uint64_t oe[MAXE], on[MAXN];
  train(old, truth, &shape, oe, on);
  xprof_salvage_result r;
  xprof_shape now = shape_of(g, NULL, NULL);
  CHECK(xprof_salvage(&shape, oe, on, &now, edge_count, node_count, NULL, NULL, &r) == 0);
  xprof_shape_free(&shape);
  uint64_t in[MAXN] = {0}, out[MAXN] = {0};
  for (uint32_t e = 0; e < g->n_edges; e++) {
    out[g->edges[e].src] += edge_count[e];
    in[g->edges[e].dst] += edge_count[e];
  }
  CHECK_U64(out[XPROF_ENTRY], node_count[XPROF_ENTRY]);
  CHECK_U64(in[XPROF_EXIT], node_count[XPROF_EXIT]);
  for (uint32_t v = 2; v < g->n_nodes; v++) {
    CHECK_U64(in[v], node_count[v]);
    CHECK_U64(out[v], node_count[v]);
  }
  return r;
}

/* ENTRY -> 2 (A) -> {3 (B) 70, 4 (C) 30} -> 5 (D) -> EXIT */
static const graph diamond = {
    6, 6, {E(0, 2), E(2, 3), E(2, 4), E(3, 5), E(4, 5), E(5, 1)}, {0, 0, 0xa, 0xb, 0xc, 0xd}};
static const uint64_t diamond_truth[] = {100, 70, 30, 70, 30, 100};

static void shape_round_trip(void) {
  xprof_shape s;
  uint64_t ec[MAXE], nc[MAXN];
  train(&diamond, diamond_truth, &s, ec, nc);
  CHECK_U64(s.n_nodes, 6);
  CHECK_U64(s.n_edges, 6);
  CHECK_U64(s.edges[2].dst, 4);
  CHECK_U64(s.hash[5], 0xd);
  CHECK_U64(s.n_sites, 0);
  CHECK_U64(ec[1], 70);
  CHECK_U64(nc[4], 30);
  /* Damaged: cut short, a node out of range, another version. */
  unsigned char *buf;
  size_t len;
  xprof_error err;
  CHECK(xprof_shape_encode(&s, &buf, &len) == 0);
  xprof_shape bad;
  CHECK_U64(len, 3 + 6 + 4 * 2 + 2); /* a byte an edge, two a block */
  CHECK(xprof_shape_decode(buf, len - 3, "f", &bad, &err) < 0);
  CHECK_HAS(err.msg, "f: shape has 7 bytes for the hashes of 6 nodes, not 8");
  CHECK(xprof_shape_decode(buf, len - 2, "f", &bad, &err) < 0);
  CHECK_HAS(err.msg, "f: shape ends inside its number of sites");
  CHECK(xprof_shape_decode(buf, len - 1, "f", &bad, &err) < 0);
  CHECK_HAS(err.msg, "f: shape ends inside its number of side counters");
  CHECK(xprof_shape_decode(buf, 5, "f", &bad, &err) < 0);
  CHECK_HAS(err.msg, "f: shape's number of nodes is 6, at most 4 allowed");
  static const unsigned char far[] = {2, 4, 1, 3, 9}; /* a source given: 9 */
  CHECK(xprof_shape_decode(far, sizeof far, "f", &bad, &err) < 0);
  CHECK_HAS(err.msg, "f: shape's edge source is 9, at most 3 allowed");
  static const unsigned char past[] = {2, 4, 1, 0xc0, 8}; /* a target 4 past */
  CHECK(xprof_shape_decode(past, sizeof past, "f", &bad, &err) < 0);
  CHECK_HAS(err.msg, "f: shape's edge 0->4 lies outside its 4 nodes");
  buf[0] = 3;
  CHECK(xprof_shape_decode(buf, len, "f", &bad, &err) < 0);
  CHECK_HAS(err.msg, "shape version 3, this xprof reads 1 and 2");
  free(buf);
  xprof_shape_free(&s);
}


/* Version 1 (every field a LEB128 number, 32-bit hashes), as xprof 4.5
 * to 4.7 data holds it: read as it was, and salvaged by the folded
 * hashes as version 2 is. */
static void put_v1(unsigned char *b, size_t *n, uint64_t v) {
  do {
    b[(*n)++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
}

static void shape_version_1(void) {
  xprof_shape s, back;
  uint64_t ec[MAXE], nc[MAXN];
  train(&diamond, diamond_truth, &s, ec, nc);
  unsigned char b[256];
  size_t n = 0;
  put_v1(b, &n, 1);
  put_v1(b, &n, s.n_nodes);
  put_v1(b, &n, s.n_edges);
  for (uint32_t e = 0; e < s.n_edges; e++) {
    uint32_t c = s.counter_of_edge[e];
    put_v1(b, &n, s.edges[e].src);
    put_v1(b, &n, s.edges[e].dst);
    put_v1(b, &n, s.edges[e].flags & (XPROF_EDGE_FAKE | XPROF_EDGE_IGNORE));
    put_v1(b, &n, c == XPROF_ON_TREE ? 0 : c == XPROF_NOT_IN_GRAPH ? 1 : 3 + (uint64_t)c);
  }
  for (uint32_t v = 0; v < s.n_nodes; v++) {
    uint32_t h = v < 2 ? 0 : 0x12340000u | s.hash[v]; /* all 32 bits */
    for (int i = 0; i < 4; i++)
      b[n++] = (unsigned char)(h >> (8 * i));
  }
  put_v1(b, &n, 0);
  put_v1(b, &n, 0);
  xprof_error err;
  CHECK(xprof_shape_decode(b, n, "f", &back, &err) == 0);
  CHECK_U64(back.n_edges, s.n_edges);
  for (uint32_t e = 0; e < s.n_edges && e < back.n_edges; e++) {
    CHECK_U64(back.edges[e].dst, s.edges[e].dst);
    CHECK_U64(back.counter_of_edge[e], s.counter_of_edge[e]);
  }
  CHECK_U64(back.hash[5], 0x1234000du);
  CHECK_U64(xprof_block_hash_fold(back.hash[5]), xprof_block_hash_fold(0x1234000du));
  /* Salvaged onto the graph itself as a new build hashes it (32 bits),
   * every block matches its old self. */
  uint32_t wide[MAXN];
  for (uint32_t v = 0; v < s.n_nodes; v++)
    wide[v] = v < 2 ? 0 : 0x12340000u | s.hash[v];
  xprof_shape now = s;
  now.hash = wide;
  xprof_salvage_result r;
  uint64_t oe[MAXE], on[MAXN];
  uint32_t old_of_new[MAXN];
  CHECK(xprof_salvage(&back, ec, nc, &now, oe, on, old_of_new, NULL, &r) == 0);
  CHECK_U64(r.matched_blocks, 4);
  CHECK_U64(on[4], 30);
  xprof_shape_free(&back);
  xprof_shape_free(&s);
}

static void unchanged(void) {
  uint64_t ec[MAXE], nc[MAXN];
  xprof_salvage_result r = salvage(&diamond, diamond_truth, &diamond, ec, nc);
  CHECK_U64(r.matched_blocks, 4);
  CHECK_U64(r.matched_mass, r.old_mass);
  CHECK_U64(r.dropped, 0);
  for (uint32_t e = 0; e < diamond.n_edges; e++)
    CHECK_U64(ec[e], diamond_truth[e]);
}

/* A block X inserted on the edge A -> B. */
static void inserted_block(void) {
  graph g = {7, 7, {E(0, 2), E(2, 3), E(3, 4), E(2, 5), E(4, 6), E(5, 6), E(6, 1)},
             {0, 0, 0xa, 0x99, 0xb, 0xc, 0xd}};
  uint64_t ec[MAXE], nc[MAXN];
  xprof_salvage_result r = salvage(&diamond, diamond_truth, &g, ec, nc);
  CHECK_U64(r.matched_blocks, 4);
  CHECK_U64(nc[3], 70); /* X */
  CHECK_U64(nc[4], 70);
  CHECK_U64(nc[5], 30);
  CHECK_U64(nc[6], 100);
}

/* The other way: X deleted. */
static void deleted_block(void) {
  graph old = {7, 7, {E(0, 2), E(2, 3), E(3, 4), E(2, 5), E(4, 6), E(5, 6), E(6, 1)},
               {0, 0, 0xa, 0x99, 0xb, 0xc, 0xd}};
  uint64_t truth[] = {100, 70, 70, 30, 70, 30, 100};
  uint64_t ec[MAXE], nc[MAXN];
  xprof_salvage_result r = salvage(&old, truth, &diamond, ec, nc);
  CHECK_U64(r.matched_blocks, 4);
  CHECK_U64(r.old_mass, 100 + 70 + 70 + 30 + 100);
  CHECK_U64(r.matched_mass, 100 + 70 + 30 + 100);
  CHECK_U64(ec[1], 70); /* A -> B */
  CHECK_U64(ec[2], 30);
}

/* B split into B1 and B2, neither with B's hash. */
static void split_block(void) {
  graph g = {7, 7, {E(0, 2), E(2, 3), E(3, 4), E(2, 5), E(4, 6), E(5, 6), E(6, 1)},
             {0, 0, 0xa, 0xb1, 0xb2, 0xc, 0xd}};
  uint64_t ec[MAXE], nc[MAXN];
  xprof_salvage_result r = salvage(&diamond, diamond_truth, &g, ec, nc);
  CHECK_U64(r.matched_blocks, 4); /* B1 by its place, after A */
  CHECK_U64(nc[3], 70);
  CHECK_U64(nc[4], 70);
  CHECK_U64(nc[5], 30);
}

/* if (c) B else C became if (!c) C else B: the condition's block changed,
 * the arms swapped places. */
static void swapped_branches(void) {
  graph g = {6, 6, {E(0, 2), E(2, 3), E(2, 4), E(3, 5), E(4, 5), E(5, 1)},
             {0, 0, 0xa2, 0xc, 0xb, 0xd}};
  uint64_t ec[MAXE], nc[MAXN];
  xprof_salvage_result r = salvage(&diamond, diamond_truth, &g, ec, nc);
  CHECK_U64(r.matched_blocks, 4); /* the condition by its place */
  CHECK_U64(ec[1], 30); /* to C */
  CHECK_U64(ec[2], 70); /* to B */
  CHECK_U64(nc[2], 100);
}

/* A call added to B that may not return: B's hash changed and B has a
 * fake edge to EXIT, which takes nothing while real edges can carry the
 * flow. */
static void new_call(void) {
  graph g = {6, 7, {E(0, 2), E(2, 3), E(2, 4), E(3, 5), FAKE(3, 1), E(4, 5), E(5, 1)},
             {0, 0, 0xa, 0xbb, 0xc, 0xd}};
  uint64_t ec[MAXE], nc[MAXN];
  xprof_salvage_result r = salvage(&diamond, diamond_truth, &g, ec, nc);
  CHECK_U64(r.matched_blocks, 4); /* B by its place */
  CHECK_U64(nc[3], 70);
  CHECK_U64(ec[3], 70);
  CHECK_U64(ec[4], 0);
}

/* A straight line A -> B -> C put into a loop: A -> H, H -> B, B -> H,
 * H -> C.  B keeps its count; the new header takes the entries and the
 * turns. */
static void loop_added(void) {
  graph old = {5, 4, {E(0, 2), E(2, 3), E(3, 4), E(4, 1)}, {0, 0, 0xa, 0xb, 0xc}};
  uint64_t truth[] = {100, 100, 100, 100};
  graph g = {6, 6, {E(0, 2), E(2, 3), E(3, 4), E(4, 3), E(3, 5), E(5, 1)},
             {0, 0, 0xa, 0x77, 0xb, 0xc}};
  uint64_t ec[MAXE], nc[MAXN];
  xprof_salvage_result r = salvage(&old, truth, &g, ec, nc);
  CHECK_U64(r.matched_blocks, 3);
  CHECK_U64(nc[4], 100); /* B */
  CHECK_U64(nc[3], 200); /* H */
  CHECK_U64(nc[5], 100);
}

/* Counts the new graph cannot hold: D -> {A 60, B 40} -> C, and B is
 * gone with D -> A now unconditional.  The constraints at D and C are
 * dropped where they stop the flow: every block runs 100 times. */
static void contradiction(void) {
  graph old = {6, 6, {E(0, 5), E(5, 2), E(5, 3), E(2, 4), E(3, 4), E(4, 1)},
               {0, 0, 0xa, 0xb, 0xc, 0xd}};
  uint64_t truth[] = {100, 60, 40, 60, 40, 100};
  graph g = {5, 4, {E(0, 4), E(4, 2), E(2, 3), E(3, 1)}, {0, 0, 0xa, 0xc, 0xd}};
  uint64_t ec[MAXE], nc[MAXN];
  xprof_salvage_result r = salvage(&old, truth, &g, ec, nc);
  CHECK_U64(r.matched_blocks, 3);
  CHECK(r.dropped > 0);
  CHECK_U64(nc[2], 100);
  CHECK_U64(nc[3], 100);
  CHECK_U64(nc[4], 100);
}

/* Equal hashes: two copies of one block on either arm, told apart by
 * their neighbours, then by position. */
static void equal_hashes(void) {
  graph old = {8, 8, {E(0, 2), E(2, 3), E(2, 4), E(3, 5), E(4, 6), E(5, 7), E(6, 7), E(7, 1)},
               {0, 0, 0xa, 0xb, 0xc, 0xe, 0xe, 0xd}};
  uint64_t truth[] = {100, 90, 10, 90, 10, 90, 10, 100};
  uint64_t ec[MAXE], nc[MAXN];
  xprof_salvage_result r = salvage(&old, truth, &old, ec, nc);
  CHECK_U64(r.matched_blocks, 6);
  CHECK_U64(nc[5], 90);
  CHECK_U64(nc[6], 10);
  /* The arms' blocks renumbered: the neighbours still tell them apart. */
  graph g = {8, 8, {E(0, 2), E(2, 3), E(2, 4), E(3, 6), E(4, 5), E(6, 7), E(5, 7), E(7, 1)},
             {0, 0, 0xa, 0xb, 0xc, 0xe, 0xe, 0xd}};
  r = salvage(&old, truth, &g, ec, nc);
  CHECK_U64(r.matched_blocks, 6);
  CHECK_U64(nc[6], 90);
  CHECK_U64(nc[5], 10);
}

/* Both arms changed: their places are alike, so neither is matched by
 * place (a guess could swap them); A's and D's counts stay. */
static void ambiguous_place(void) {
  graph g = {6, 6, {E(0, 2), E(2, 3), E(2, 4), E(3, 5), E(4, 5), E(5, 1)},
             {0, 0, 0xa, 0x1b, 0x1c, 0xd}};
  uint64_t ec[MAXE], nc[MAXN];
  xprof_salvage_result r = salvage(&diamond, diamond_truth, &g, ec, nc);
  CHECK_U64(r.matched_blocks, 2);
  CHECK_U64(r.matched_mass, 200);
  CHECK_U64(nc[2], 100);
  CHECK_U64(nc[5], 100);
  CHECK_U64(nc[3] + nc[4], 100);
}

/* Value-profile records follow their sites: an indirect call (site 0) in
 * B and a division (site 1) in D, and a new call site inserted before
 * them in A, which gets no record; and a side counter (a select) in B. */
static void sites_follow(void) {
  const graph old = diamond;
  const sites old_sites = {2, {3, 5}, {XPROF_VP_PROC, XPROF_VP_INT}};
  graph g = {7, 7, {E(0, 2), E(2, 3), E(3, 4), E(2, 5), E(4, 6), E(5, 6), E(6, 1)},
             {0, 0, 0xa, 0x99, 0xb, 0xc, 0xd}};
  const sites new_sites = {3, {2, 4, 6}, {XPROF_VP_PROC, XPROF_VP_PROC, XPROF_VP_INT}};
  /* The old procedure in a profile, with its shape and records. */
  xprof_profile *p = xprof_profile_new();
  xprof_objfile *o = xprof_add_objfile(p, "/t/o.o");
  o->n_values_per_vp = 1;
  xprof_proc *f = xprof_add_proc(p, o, "f");
  uint32_t counter_of_edge[MAXE];
  int64_t nc = xprof_place_counters(old.n_nodes, old.edges, old.n_edges, counter_of_edge);
  CHECK(xprof_proc_alloc_counters(p, f, (uint32_t)nc + 1) == 0);
  for (uint32_t e = 0; e < old.n_edges; e++)
    if (XPROF_HAS_COUNTER(counter_of_edge[e]))
      f->counters[counter_of_edge[e]] = diamond_truth[e];
  f->counters[nc] = 42; /* a side counter in B, after the edges' */
  CHECK(xprof_proc_alloc_vp(p, o, f, 2) == 0);
  f->vp[0].type = XPROF_VP_PROC, f->vp[0].expr_id = 0, f->vp[0].values[0].count = 70;
  f->vp[1].type = XPROF_VP_INT, f->vp[1].expr_id = 1, f->vp[1].values[0].count = 100;
  f->vp[1].values[0].bits = 8;
  f->n_vp_sites = 2;
  xprof_shape s = shape_of(&old, counter_of_edge, &old_sites);
  xprof_shape now = shape_of(&g, NULL, &new_sites);
  uint32_t old_side_node[] = {3}, old_side_counter[] = {(uint32_t)nc};
  uint32_t new_side_node[] = {3, 4}, new_side_counter[] = {0, 0};
  s.n_side = 1, s.side_node = old_side_node, s.side_counter = old_side_counter;
  now.n_side = 2, now.side_node = new_side_node, now.side_counter = new_side_counter;
  unsigned char *buf;
  size_t len;
  CHECK(xprof_shape_encode(&s, &buf, &len) == 0);
  CHECK(xprof_proc_set_shape(p, f, buf, (uint32_t)len) == 0);
  free(buf);
  uint64_t ec[MAXE], nc2[MAXN];
  xprof_vp_record *vp;
  uint32_t n_vp;
  uint64_t side[2];
  xprof_salvage_result r;
  xprof_error err;
  CHECK(xprof_salvage_proc(o, f, &now, ec, nc2, &vp, &n_vp, side, NULL, &r, &err) == 0);
  CHECK_U64(side[0], XPROF_NO_SIDE); /* in the new block X */
  CHECK_U64(side[1], 42);            /* in B */
  CHECK_U64(r.sites, 3);
  CHECK_U64(r.sites_matched, 2);
  CHECK_U64(n_vp, 2);
  CHECK_U64(vp[0].expr_id, 1);
  CHECK_U64(vp[0].values[0].count, 70);
  CHECK_U64(vp[1].expr_id, 2);
  CHECK_U64(vp[1].values[0].bits, 8);
  CHECK_U64(nc2[4], 70);
  free(vp);
  xprof_profile_free(p);
}

/* A procedure that never ran salvages as all zero. */
static void never_ran(void) {
  uint64_t zero[MAXE] = {0};
  graph g = {7, 7, {E(0, 2), E(2, 3), E(3, 4), E(2, 5), E(4, 6), E(5, 6), E(6, 1)},
             {0, 0, 0xa, 0x99, 0xb, 0xc, 0xd}};
  uint64_t ec[MAXE], nc[MAXN];
  xprof_salvage_result r = salvage(&diamond, zero, &g, ec, nc);
  CHECK(xprof_salvage_fraction(&r) == 1.0);
  for (uint32_t v = 0; v < g.n_nodes; v++)
    CHECK_U64(nc[v], 0);
}

UNIT_TABLE(salvage_tests) = {
    {"salvage/shape_round_trip", shape_round_trip},
    {"salvage/shape_version_1", shape_version_1},
    {"salvage/unchanged", unchanged},
    {"salvage/inserted_block", inserted_block},
    {"salvage/deleted_block", deleted_block},
    {"salvage/split_block", split_block},
    {"salvage/swapped_branches", swapped_branches},
    {"salvage/new_call", new_call},
    {"salvage/loop_added", loop_added},
    {"salvage/contradiction", contradiction},
    {"salvage/equal_hashes", equal_hashes},
    {"salvage/ambiguous_place", ambiguous_place},
    {"salvage/sites_follow", sites_follow},
    {"salvage/never_ran", never_ran},
    UNIT_END};
