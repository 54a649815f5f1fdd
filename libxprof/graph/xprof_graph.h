/*
 * xprof_graph.h - libxprof's graph layer: procedures' control flow graphs as
 * both compiler plugins describe them -- where the counters go, the
 * procedure's signature, solving every edge's count from the counters,
 * shapes and the salvage of a changed procedure's counts -- and the two
 * files that carry graphs to the tools: the CFG dump and the coverage
 * table.  It stands on the format layer (xprof.h); the compiler-side plan
 * (xprof_plan.h) and the exports (xprof_views.h) stand on it.
 */
#ifndef XPROF_GRAPH_H
#define XPROF_GRAPH_H

#include "xprof.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- control flow graphs: counter placement and flow solving ---------- */

/* A procedure's CFG as both compiler plugins describe it: nodes 0 (ENTRY)
 * and 1 (EXIT) plus the blocks, edges in a deterministic order.  The
 * virtual edge EXIT -> ENTRY is implied. */
#define XPROF_ENTRY 0u
#define XPROF_EXIT 1u

/* Edge flags */
#define XPROF_EDGE_FAKE 1u     /* stands for abnormal flow: never counted */
#define XPROF_EDGE_IGNORE 2u   /* replaced by fake edges: not in the graph */
#define XPROF_EDGE_CRITICAL 4u /* counting it would need a new block */
/* Real flow that must stay on the spanning tree: no counter can go there,
 * or (an edge to EXIT from a block with a call that may not return) its
 * derived count must take in what left through that call too. */
#define XPROF_EDGE_NOCOUNT 8u
/* Real flow whose count a value-profile site measures: the edge into an
 * indirect call, made as often as the call (an indirect call's record
 * keeps the sum of its counts: see xprof_vp_keep_largest).  It needs no
 * counter and stays off the tree; `site` names the site (its expr id). */
#define XPROF_EDGE_MEASURED 16u

typedef struct xprof_edge {
  uint32_t src, dst;
  uint32_t flags;
  uint64_t weight; /* estimated frequency: heavier edges stay uncounted */
  uint32_t site;   /* XPROF_EDGE_MEASURED only */
} xprof_edge;

/* counter_of_edge values other than counter ids */
#define XPROF_ON_TREE UINT32_MAX     /* derived by flow conservation */
#define XPROF_NOT_IN_GRAPH (UINT32_MAX - 1) /* XPROF_EDGE_IGNORE */
#define XPROF_MEASURED (UINT32_MAX - 2)     /* XPROF_EDGE_MEASURED */
/* Does counter_of_edge value c name a counter? */
#define XPROF_HAS_COUNTER(c) ((c) < XPROF_MEASURED)

/* Choose the edges to count: a maximum spanning tree by weight (the
 * virtual edge, fake edges and edges into EXIT first, then by decreasing
 * weight, critical edges favoured) stays uncounted; every other edge gets
 * the next counter id in edge order, but measured edges, which need none.
 * Returns the number of counters, or -1 when a fake edge cannot be put on
 * the tree (the procedure cannot be profiled exactly). */
int64_t xprof_place_counters(uint32_t n_nodes, const xprof_edge *edges,
                             uint32_t n_edges, uint32_t *counter_of_edge);

/* The blocks that need a fake edge to EXIT because they cannot reach it
 * (an infinite loop: a server's or a thread's main loop): one block of
 * each such region, written to from[] (room for n_nodes); returns their
 * number, or -1 when out of memory.  Without those edges the flow of a
 * function that never returns would be conserved only as zero: every
 * count derived through EXIT -> ENTRY, its entry count first, would come
 * out 0 however often it ran.  With them, frames still running when the
 * profile is written count as having left by the fake edge. */
int64_t xprof_dead_ends(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                        uint32_t *from);

/* The procedure signature: a hash of the graph and of the placement, so
 * that a profile is only applied to the very same counters. */
uint64_t xprof_cfg_signature(uint32_t n_nodes, const xprof_edge *edges,
                             uint32_t n_edges, const uint32_t *counter_of_edge);

/* A procedure's signature: its graph's (xprof_cfg_signature) with the
 * number of its value-profile sites, which both builds must agree on. */
uint64_t xprof_proc_signature(uint64_t cfg_signature, uint32_t n_vp_sites);

/* Whether an edge gets a debug counter of its own (all-edges mode). */
#define XPROF_DEBUG_COUNTED(flags) \
  (!((flags) & (XPROF_EDGE_FAKE | XPROF_EDGE_IGNORE | XPROF_EDGE_NOCOUNT)))

/* The key in the names of a comdat function's counter arrays, which the
 * linker makes one for all copies of the function: copies must agree on
 * the arrays' layout to share them, and the signature does not cover it
 * all.  Copies compiled in different translation units can agree on the
 * signature and not on which edges can be counted (NOCOUNT is not in the
 * signature: a call may be taken as returning where the callee's body is
 * seen), which moves the debug counters; or be compiled with different
 * value-profile options (site_words: each site's state, in words). */
uint64_t xprof_comdat_key(uint64_t signature, const xprof_edge *edges,
                          uint32_t n_edges, int debug_counters,
                          const uint32_t *site_words, uint32_t n_sites);

/* Solve every edge and node count from the counters by flow conservation.
 * counter_value(id) comes from `counters` (n_counters values).  Returns 0
 * when the counts are consistent, 1 when the count of a real edge came
 * out negative and was clamped to 0 (a damaged or racy profile), -1 on
 * bad arguments or when out of memory.  Fake edges may come out negative
 * where a function returns twice (setjmp); they are clamped silently.
 * node_count may be NULL. */
int xprof_solve_flow(uint32_t n_nodes, const xprof_edge *edges,
                     uint32_t n_edges, const uint32_t *counter_of_edge,
                     const uint64_t *counters, uint32_t n_counters,
                     uint64_t *edge_count, uint64_t *node_count);
/* Counts that are a flow from estimates that need not be (infer.c): the
 * flow through the graph (EXIT flowing back into ENTRY) that departs
 * least from weight[b] for the nodes with known[b] (known NULL: none
 * known) -- raising an estimate costs less than lowering it, raising a
 * zero a little more, the entry's the other way round -- and makes up no
 * flow the estimates do not call for.  known[b] XPROF_INFER_MEASURED: a
 * count measured on this graph, which costs much more to move than an
 * estimate; XPROF_INFER_WEAK: a guess, which costs less.  Ignored edges
 * get 0.
 * Returns 0, or -1 when out of memory, on a graph of more than
 * XPROF_INFER_MAX_NODES nodes, or estimates beyond 2^61. */
#define XPROF_INFER_MAX_NODES 20000u
#define XPROF_INFER_MEASURED 2
#define XPROF_INFER_WEAK 3
/* Each node's out-edges: by[out[v]] .. by[out[v + 1] - 1] are the edges
 * out of v, in edge order.  out: n_nodes + 2 entries, by: n_edges
 * (callers allocate; xprof_out_edges fills them). */
void xprof_out_edges(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges, uint32_t *out,
                     uint32_t *by);
/* The same for the edges into each node. */
void xprof_in_edges(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges, uint32_t *in,
                    uint32_t *by);
/* Make a flow from xprof_infer_flow connected: a node with flow that the
 * flow from ENTRY does not reach (a cycle that feeds itself) gets one
 * more run along a path from ENTRY through it to EXIT, where there is
 * one.  node_count as xprof_infer_flow fills it.  Out of memory: left as
 * it is. */
void xprof_flow_connect(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                        uint64_t *edge_count, uint64_t *node_count);
int xprof_infer_flow(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                     const uint64_t *weight, const unsigned char *known, uint64_t *edge_count,
                     uint64_t *node_count);
/* What counts cost by the measure xprof_infer_flow minimizes. */
uint64_t xprof_infer_cost(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                          const uint64_t *weight, const unsigned char *known,
                          const uint64_t *edge_count, const uint64_t *node_count);
/* The same for a graph with measured edges: site_total[s] is what site s
 * measured (xprof_vp_site_totals); -1 when a measured edge names a site
 * beyond n_sites. */
int xprof_solve_flow_sites(uint32_t n_nodes, const xprof_edge *edges,
                           uint32_t n_edges, const uint32_t *counter_of_edge,
                           const uint64_t *counters, uint32_t n_counters,
                           const uint64_t *site_total, uint32_t n_sites,
                           uint64_t *edge_count, uint64_t *node_count);

/* ---- block layout (exttsp.c) ------------------------------------------ */

/* An edge between blocks as the layout sees it: how often it ran. */
#define XPROF_LAYOUT_JUMP 1u /* never falls through (a table or computed jump) */
typedef struct xprof_layout_edge {
  uint32_t src, dst;
  uint32_t flags;
  uint64_t count;
} xprof_layout_edge;

/* The order of blocks 0 .. n-1 (block 0 the entry, which stays first)
 * that the ext-TSP model scores best by the greedy of Newell and Pupyrev:
 * sizes[v] in bytes, counts[v] how often v ran (NULL: only the edges
 * count), the edges with their counts (the greedy leaves out those that
 * never fall through; the blocks they lead to go by their counts).  Fills order[n]; blocks that no
 * edge that ran reaches keep their order after the others.  The time
 * grows with about the cube of the blocks that ran: callers bound them.
 * Returns 0, or -1 when out of memory (order is then 0 .. n-1). */
int xprof_ext_tsp_order(uint32_t n, const uint64_t *sizes, const uint64_t *counts,
                        const xprof_layout_edge *edges, uint32_t n_edges, uint32_t *order);
/* The model's score of an order (higher is better); -1 out of memory. */
double xprof_ext_tsp_score(uint32_t n, const uint64_t *sizes, const xprof_layout_edge *edges,
                           uint32_t n_edges, const uint32_t *order);

/* ---- dominators (dom.c) ------------------------------------------------ */

/* The dominator tree of a graph over its edges but ignored ones, from
 * ENTRY: idom[v] is v's immediate dominator (ENTRY's is ENTRY; UINT32_MAX
 * where ENTRY does not reach v), pre and post number the tree. */
typedef struct xprof_dom {
  uint32_t n_nodes;
  uint32_t *idom, *pre, *post;
} xprof_dom;
/* Returns 0, or -1 when out of memory (d then empty). */
int xprof_dom_build(xprof_dom *d, uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges);
/* 1 when every path from ENTRY to b passes through a (a == b included);
 * 0 when not, or when ENTRY does not reach one of them. */
int xprof_dom_dominates(const xprof_dom *d, uint32_t a, uint32_t b);
/* The post-dominator tree: the dominator tree of the reversed graph from
 * EXIT, in which ENTRY and EXIT trade numbers (ask it through
 * xprof_postdominates, free it with xprof_dom_free).  0 or -1. */
int xprof_postdom_build(xprof_dom *d, uint32_t n_nodes, const xprof_edge *edges,
                        uint32_t n_edges);
/* 1 when every path from b to EXIT passes through a (a == b included); 0
 * when not, or when one of them does not reach EXIT. */
int xprof_postdominates(const xprof_dom *d, uint32_t a, uint32_t b);
void xprof_dom_free(xprof_dom *d);

/* ---- shapes and stale-profile salvage (shape.c, salvage.c) ------------ */

/* A procedure's shape as a collect build records it (SHAP records of
 * xprof_binary(5)): its graph, the placement of its counters, and per
 * node a hash of the block's contents (ENTRY and EXIT: 0).  A plugin
 * hashes what a block does and not how the compiler named it: the kinds
 * of its statements and operations and the names of its callees, never
 * SSA names, constants' spelling or line numbers, starting from 0 and
 * adding with these two. */
uint32_t xprof_block_hash_add(uint32_t h, uint64_t v);
uint32_t xprof_block_hash_str(uint32_t h, const char *s);
/* A hash as shapes keep it and salvage compares it: folded to 16 bits
 * (and unchanged by folding again). */
uint32_t xprof_block_hash_fold(uint32_t h);

typedef struct xprof_shape {
  uint32_t n_nodes, n_edges;
  xprof_edge *edges; /* flags FAKE, IGNORE and MEASURED (with site) kept */
  uint32_t *counter_of_edge;
  uint32_t *hash; /* per node; decoded: 16 bits, or 32 from version 1 */
  /* Per value-profile site (expression id): its node and record type
   * (xprof_vp_type), so that records follow their sites. */
  uint32_t n_sites;
  uint32_t *site_node, *site_type;
  /* Side counters: counters of something in a block other than its edges
   * (the LLVM plugin's counted selects), each one's node and counter id,
   * in the order the plugin keeps them. */
  uint32_t n_side;
  uint32_t *side_node, *side_counter;
} xprof_shape;

/* The shape as bytes (a malloc'd buffer); -1 when out of memory. */
int xprof_shape_encode(const xprof_shape *shape, unsigned char **buf, size_t *len);
/* The shape of those bytes, its arrays malloc'd; -1 with err naming
 * `what` (the procedure) when they are not a shape this library reads. */
int xprof_shape_decode(const unsigned char *buf, size_t len, const char *what,
                       xprof_shape *shape, xprof_error *err);
void xprof_shape_free(xprof_shape *shape);

/* ---- a function's graph as a plugin describes it (graph.c) ------------- */

/* One function's control flow graph, the same in both modes: what each
 * plugin fills from its IR (xprof_graph_reserve makes the room) -- the
 * nodes (ENTRY, EXIT, then the blocks), the edges with a block's out-edges
 * together, each node's hash (xprof_block_hash_add), its value-profile
 * sites, and its side counters (the LLVM plugin's counted selects: each
 * one's node and which of the side counters it shares) -- and what
 * xprof_graph_place adds: where the counters go and the signature. */
typedef struct xprof_graph {
  uint32_t n_nodes, n_edges, cap_edges;
  xprof_edge *edges;
  uint32_t *hash;
  uint32_t n_sites;
  uint32_t *site_node, *site_type, *site_kind; /* xprof_vp_type, enum xprof_site_kind */
  uint32_t n_side, n_side_counters;
  uint32_t *side_node, *side_slot;
  /* Set by xprof_graph_place: */
  uint32_t *counter_of_edge;
  int64_t n_counters;     /* the edges' counters; -1: cannot be counted exactly */
  uint64_t signature;     /* xprof_proc_signature's, with the side counters */
  uint32_t *side_counter; /* per side: its counter id, after the edges' */
} xprof_graph;

/* Room for a graph of n_nodes nodes, up to cap_edges edges, n_sites sites
 * and n_side side counters (g zeroed first, counts set, n_edges 0): 0, or
 * -1 when out of memory (g then holds nothing). */
int xprof_graph_reserve(xprof_graph *g, uint32_t n_nodes, uint32_t cap_edges, uint32_t n_sites,
                        uint32_t n_side);
/* Add an edge; -1 when there is no room. */
int xprof_graph_edge(xprof_graph *g, uint32_t src, uint32_t dst, uint32_t flags,
                     uint64_t weight, uint32_t site);
/* Fake edges to EXIT from the blocks that cannot reach it
 * (xprof_dead_ends), added after the others; -1 when out of memory or
 * room. */
int xprof_graph_connect_dead_ends(xprof_graph *g);
/* Place the counters and compute the signature: 0, or -1 when the graph
 * cannot be counted exactly or memory ran out (n_counters -1). */
int xprof_graph_place(xprof_graph *g);
/* The graph as a shape (its arrays, not copies). */
xprof_shape xprof_graph_shape(const xprof_graph *g);
void xprof_graph_free(xprof_graph *g);

typedef struct xprof_salvage_result {
  uint32_t old_blocks, new_blocks, matched_blocks; /* ENTRY and EXIT left out */
  /* Sums of the old blocks' counts, all and those matched. */
  uint64_t old_mass, matched_mass;
  uint32_t dropped; /* carried counts that contradicted the new graph */
  uint32_t sites, sites_matched; /* the new value-profile sites, and those
                                  * whose old records follow them */
} xprof_salvage_result;

/* Counts for a procedure whose graph changed since the training run (now:
 * its shape in this compilation; counter_of_edge unused), from the trained
 * procedure's shape and its solved counts (xprof_solve_flow_sites on the
 * shape): blocks matched by their hashes, the counts of matched blocks and
 * edges carried over, the rest inferred by flow conservation (salvage.c).
 * edge_count and node_count are always a consistent flow with the old
 * entry count; old_of_new (room for now->n_nodes, or NULL) gets each new
 * node's old one, or UINT32_MAX; carried (the same, or NULL) 1 for each
 * new node whose count is its old block's (matched, and not dropped as
 * a contradiction), 0 for one whose count the flow made up.  Returns 0,
 * or -1 when out of memory or when EXIT cannot be reached from ENTRY. */
int xprof_salvage(const xprof_shape *old, const uint64_t *old_edge_count,
                  const uint64_t *old_node_count, const xprof_shape *now,
                  uint64_t *edge_count, uint64_t *node_count, uint32_t *old_of_new,
                  unsigned char *carried, xprof_salvage_result *r);
/* The share of the old count mass that matched (1 when nothing ran). */
double xprof_salvage_fraction(const xprof_salvage_result *r);
/* For a use build (xprof_plan.h): f's counts (f of object file o in the profile) carried
 * over to the changed procedure `now`, through f's recorded shape; and
 * f's value-profile records that follow their sites (the site of the same
 * type in the matched block, the k-th of its type there on both sides),
 * renumbered as the new sites, in *vp (an xprof_malloc'd array the caller
 * frees; the values stay f's), *n_vp of them; side (room for now->n_side,
 * or NULL when it has none) gets the value of the old side counter each
 * new one follows by the same rule, or XPROF_NO_SIDE; carried as for
 * xprof_salvage (all 1 for a procedure that never ran).  Returns 0 (r says
 * how much matched: the caller decides whether that is enough), or -1
 * with err saying why not (no shape, a damaged one, no flow).  A
 * procedure that never ran needs no shape: its counts are all zero. */
int xprof_salvage_proc(const xprof_objfile *o, const xprof_proc *f, const xprof_shape *now,
                       uint64_t *edge_count, uint64_t *node_count, xprof_vp_record **vp,
                       uint32_t *n_vp, uint64_t *side, unsigned char *carried,
                       xprof_salvage_result *r, xprof_error *err);
#define XPROF_NO_SIDE UINT64_MAX

/* ---- CFG dumps and coverage tables ------------------------------------ */

/* What a plugin instrumented, in one text format read by xprof_verify
 * (the debug CFG dump, OBJECT.xpcfg) and by xprof_tcov (the coverage
 * table, OBJECT.xpcov).  With the plugins' all-edges debug option every
 * real edge also gets a counter of its own, numbered after the
 * spanning-tree counters.
 *   XPCFG 1 | XPCFG 2 | XPCFG 3 | XPCFG 4 | XPCFG 5 | XPCFG 6 | XPCFG 7
 *   PROC <name> <signature 0x..> <n_nodes> <n_edges> <n_counters> <n_debug>
 *   <src> <dst> <flags> <counter|-|sSITE> <debug counter|-> (n_edges lines)
 * where sSITE marks an edge that value-profile site SITE measures.
 * Version 2 adds, after the header, whose rules its line counts follow
 * (gcc: gcov's; llvm: llvm-cov gcov's):
 *   R gcc | R llvm
 * then, anywhere, source files (before their first use), and after a
 * PROC's edges the procedure's lines:
 *   S <index> <size> <mtime> <hash 0x..> <absolute path>
 *   F <source> <line>          where the procedure is declared
 *   C                          the procedure is a comdat function: copies
 *                              in other objects share its counts
 *   N <line>                   the line where the procedure's body ends
 *   L <node> <source> <line> [<context>]
 *                              a line of block <node>, in the order the
 *                              block's statements first reach it; with
 *                              <context> (version 4), of the code of a
 *                              function inlined there
 *   A <node> <source> <line> <column> [<context>]
 *                              (version 7) a source column of a line of
 *                              block <node> (its code's, once each): where
 *                              one line is several blocks (a condition and
 *                              its arms), a line profile tells them apart.
 *                              A writer may leave out the columns of a
 *                              line whose every column is on exactly the
 *                              blocks the line is (each would have the
 *                              line's count); a line without A records
 *                              has all its columns at the line's count
 *   M <node> <source> <line> [<context>]
 *                              (version 6) as L, a line that only debug
 *                              statements of the block are on (GCC's
 *                              markers of statements that made no code):
 *                              a line for gcov, none for a line profile
 *   O <index> <parent|-> <call line> <source> <line> <name>
 *                              (version 4) an inline context, before its
 *                              first use: function <name>, declared at
 *                              <source>:<line>, inlined at line <call
 *                              line> of its parent context's function
 *                              (-: of the procedure)
 *   B <node>                   the next lines of <node> are a piece of it
 *                              that gcov counts as a block of its own
 *                              (GCC's coverage splits blocks after calls)
 *   K <node> <callee>          (version 3) a direct call in block <node> to
 *                              the function of that symbol name, once
 *                              per call (xprof_gprof's call arcs)
 *   V <site> <kind> <source> <line> [<context>]
 *                              (version 5, without <kind>; version 6)
 *                              where value-profile site <site> (its
 *                              record's expression id) is, and what it
 *                              measures (enum xprof_site_kind): a line
 *                              profile keeps the site's values there
 *   E <edge> [<source> <line>] edge <edge> (0, 1, ... in the PROC's order)
 *                              is a block of its own for gcov, with that
 *                              line if any (GCC splits edges that jump
 *                              from another line than the block's last)
 * (index: 0, 1, ... in order; hash: xprof_hash64 of the file's bytes when
 * it was compiled; mtime in seconds). */
void xprof_cfgdump_begin(FILE *f);
void xprof_cfgdump_proc(FILE *f, const char *name, uint64_t signature,
                        uint32_t n_nodes, const xprof_edge *edges,
                        uint32_t n_edges, const uint32_t *counter_of_edge,
                        uint32_t n_counters, int with_debug);

#define XPROF_NO_LINE UINT32_MAX
typedef struct xprof_cfg_line {
  uint32_t node, file, line; /* file: an index of the sources */
  uint32_t piece;            /* of the node (B records before it) */
  uint32_t context;          /* inlined code: an index of the contexts;
                                XPROF_NO_LINE: the procedure's own */
  uint32_t kind;             /* a site's (enum xprof_site_kind);
                                XPROF_SITE_KINDS: not said (version 5) */
  uint32_t marker;           /* a line's: an M record */
  uint32_t column;           /* an A record's; else 0 */
} xprof_cfg_line;

/* Where code was inlined from (O records): function `name`, declared at
 * file:decl_line, inlined at line call_line of the function of context
 * `parent` (XPROF_NO_LINE: of the procedure). */
typedef struct xprof_cfg_context {
  const char *name;
  uint32_t file, decl_line;
  uint32_t parent, call_line;
} xprof_cfg_context;

typedef struct xprof_cfg_edge_block {
  uint32_t edge, file, line; /* file XPROF_NO_LINE: a block without line */
} xprof_cfg_edge_block;

typedef struct xprof_cfg_call {
  uint32_t node;
  const char *callee;
} xprof_cfg_call;

typedef struct xprof_cfg_source {
  const char *path;
  uint64_t size, mtime, hash; /* when compiled */
} xprof_cfg_source;

typedef struct xprof_cfgdump_entry {
  const char *name;
  uint64_t signature;
  uint32_t n_nodes, n_edges, n_counters, n_debug;
  xprof_edge *edges;
  uint32_t *counter_of_edge;
  uint32_t *debug_of_edge; /* XPROF_ON_TREE when none */
  uint32_t decl_file, decl_line; /* XPROF_NO_LINE when unknown */
  uint32_t end_line;             /* XPROF_NO_LINE when unknown */
  int comdat;
  int gcc_rules; /* the table's R record says gcc */
  xprof_cfg_line *lines;
  uint32_t n_lines;
  xprof_cfg_line *columns; /* version 7: the columns of block lines */
  uint32_t n_columns;
  uint32_t *n_pieces; /* by node (NULL: one each) */
  xprof_cfg_edge_block *edge_blocks;
  uint32_t n_edge_blocks;
  xprof_cfg_call *calls; /* version 3: direct calls, by block */
  uint32_t n_calls;
  xprof_cfg_line *sites; /* version 5: value-profile sites (node: the site) */
  uint32_t n_sites;
} xprof_cfgdump_entry;

typedef struct xprof_cfgdump {
  int version;
  xprof_cfgdump_entry *procs;
  uint32_t n_procs;
  xprof_cfg_source *sources;
  uint32_t n_sources;
  xprof_cfg_context *contexts;
  uint32_t n_contexts;
} xprof_cfgdump;

/* Read a CFG dump or coverage table; everything is owned by `owner`.
 * xprof_cfgdump_read_mem reads one from memory (len bytes of text, no
 * terminator needed), naming it `name` in messages.  0 or -1. */
int xprof_cfgdump_read(const char *path, xprof_profile *owner, xprof_cfgdump *out,
                       xprof_error *err);
int xprof_cfgdump_read_mem(const char *text, size_t len, const char *name,
                           xprof_profile *owner, xprof_cfgdump *out, xprof_error *err);

/* Writing a coverage table (linetab.c), in memory until it is complete:
 * begin; per procedure its graph (as xprof_cfgdump_proc, without debug
 * counters), whether it is a comdat function, and where it is declared
 * (decl_file NULL or decl_line 0: unknown), then the lines of its blocks;
 * then end.  Sources are named as
 * the compiler names them, made absolute and hashed on first use.
 * xprof_linetab_end replaces `path` (NULL: writes nothing) and frees t;
 * 0 or -1. */
typedef struct xprof_linetab xprof_linetab;
xprof_linetab *xprof_linetab_begin(int gcc_rules);
/* The hash an S record gives the source at `path`: xprof_hash64 of its
 * bytes, or 0 when it cannot be read.  A use build compares it with the
 * training's to tell an unchanged source. */
uint64_t xprof_source_hash(const char *path);
void xprof_linetab_proc(xprof_linetab *t, const char *name, uint64_t signature, uint32_t n_nodes,
                        const xprof_edge *edges, uint32_t n_edges,
                        const uint32_t *counter_of_edge, uint32_t n_counters, int comdat,
                        const char *decl_file, uint32_t decl_line);
/* The line where the last procedure's body ends (gcov's function
 * groups need it; GCC's plugin records it). */
void xprof_linetab_end_line(xprof_linetab *t, uint32_t line);
/* A line of block `node`; repeats of the block's lines are dropped. */
void xprof_linetab_line(xprof_linetab *t, uint32_t node, const char *file, uint32_t line);
/* The same, for a line of code inlined into the procedure: frames[0] is
 * the line's own function, frames[1] the one it was inlined into, ...,
 * frames[depth - 1] the one inlined into the procedure -- the order in
 * which both compilers' debug information walks out of a scope -- so
 * that a line profile can give the line to its function in that context
 * (the compilers' sample profiles nest inlined functions so).  A frame
 * that cannot be named ends the chain there, from the outermost in. */
typedef struct xprof_inline_frame {
  const char *fn;      /* symbol name (C: the name) */
  const char *fn_file; /* where it is declared */
  uint32_t fn_line;
  uint32_t call_line;  /* of the call it replaced, in the function around it */
} xprof_inline_frame;
void xprof_linetab_inlined_line(xprof_linetab *t, uint32_t node, const char *file, uint32_t line,
                                const xprof_inline_frame *frames, uint32_t depth);
/* Column `column` (above 0) of a line of block `node` that code is on,
 * the line as xprof_linetab_inlined_line takes it.  The procedure's A
 * records are written after its other records, once each, and only for
 * its lines whose columns tell more than the line does. */
void xprof_linetab_column(xprof_linetab *t, uint32_t node, const char *file, uint32_t line,
                          uint32_t column, const xprof_inline_frame *frames, uint32_t depth);
/* The same for a line of block `node` that no code of the block is on,
 * only a debug statement (GCC's marker of a statement that made no code,
 * as an empty macro's): gcov counts it, another compiler has nothing
 * there (an M record). */
void xprof_linetab_marker_line(xprof_linetab *t, uint32_t node, const char *file, uint32_t line,
                               const xprof_inline_frame *frames, uint32_t depth);
/* Where value-profile site `site` of the procedure, of kind `kind`
 * (enum xprof_site_kind), is: a line under the functions inlined around
 * it, as xprof_linetab_inlined_line takes them (a V record; every
 * site's). */
void xprof_linetab_site(xprof_linetab *t, uint32_t site, uint32_t kind, const char *file,
                        uint32_t line, const xprof_inline_frame *frames, uint32_t depth);
/* A direct call in block `node` to the function of symbol `callee` (a K
 * record; one per call). */
void xprof_linetab_call(xprof_linetab *t, uint32_t node, const char *callee);
/* The next lines of `node` are a new piece of it (a B record). */
void xprof_linetab_piece(xprof_linetab *t, uint32_t node);
/* Edge `edge` (its index in the graph given) is a block of its own for
 * gcov, with line `line` of `file` (NULL: none). */
void xprof_linetab_edge_block(xprof_linetab *t, uint32_t edge, const char *file, uint32_t line);
/* Whether any line was recorded (code compiled without line information
 * has none). */
int xprof_linetab_has_lines(const xprof_linetab *t);
int xprof_linetab_end(xprof_linetab *t, const char *path, xprof_error *err);
/* End t and write it as object objpath's table (xprof_linetab_path),
 * making `dir` when it is missing; 0, or -1 with err set. */
int xprof_linetab_write(xprof_linetab *t, const char *objpath, const char *dir,
                        xprof_error *err);
/* End t and hand over its text (*text malloc'd by the C library, free
 * it with free(); *len bytes, no terminator); 0, or -1 when out of
 * memory (nothing handed over). */
int xprof_linetab_take(xprof_linetab *t, char **text, size_t *len);
/* A collect build that was not given a place for its coverage table
 * keeps it in the object file it compiles, in a section of this name
 * that the link carries into the program (not loaded at run time), as
 * clang keeps its coverage mapping; the tools look for it there.  The
 * section holds one entry per object (a link puts them end to end): a
 * line "XPTAB <length> <object's path in the profile>", then the table,
 * <length> bytes. */
#define XPROF_TABLE_SECTION ".xprof.tcov"
#define XPROF_TABLE_ENTRY "XPTAB"
/* Where an object's coverage table goes: OBJECT.xpcov, or with a
 * directory, DIR/ + the object's absolute path with '/' as '#' + .xpcov
 * (malloc'd). */
char *xprof_linetab_path(const char *objpath, const char *dir);

/* Solve a procedure's edge (and, node_counts not NULL, block) counts
 * from its counters, by its table entry `c`: the edges into indirect
 * calls from the sums of their value-profile records.  Returns as
 * xprof_solve_flow (-1 also when out of memory). */
int xprof_solve_proc(const xprof_objfile *o, const xprof_proc *f, const xprof_cfgdump_entry *c,
                     uint64_t *edge_counts, uint64_t *node_counts);

#ifdef __cplusplus
}
#endif
#endif
