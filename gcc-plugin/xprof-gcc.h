/*
 * xprof-gcc.h - declarations shared by the GCC plugin's sources.
 */
#ifndef XPROF_GCC_H
#define XPROF_GCC_H

#include "xprof_plan.h"

/* The plugin's options (libxprof's, parsed by plugin.cc), and where its
 * messages go (GCC's diagnostics). */
extern xprof_options xp_opts;
extern xprof_diag xp_diag;
/* Whether the compilation asked for partial inlining (-O2 and up), which
 * the plugin turns off until use mode has set the counts. */
extern bool xp_partial_inlining;

/* GCC's own rule for a statement after which its profiler ends a block
 * (tree-cfg.cc, stmt_can_terminate_bb_p): the pass's graph ends blocks at
 * fewer of them (calls that surely return), gcov's at all. */
bool xp_gcc_can_terminate(gimple *t);
/* A compilation on another machine (distcc): the "# xprof use data" line
 * the driver shipped in top-level asm and its length, or NULL (cfg.cc;
 * xp_object_path gives the shipped object path). */
const char *xp_shipped_data(size_t *n);

/* Find the functions of this compilation that surely return to their
 * caller (no exit, longjmp or exception out of them), whose calls need no
 * fake edge; before any function changes, in both modes alike. */
void xp_find_returning_functions(void);
void xp_forget_returning_functions(void);

/* A value-profile site of cfun (values.cc): one record of the profile,
 * whose expression id is the site's index. */
struct xp_site {
  gimple *stmt;
  enum xprof_site_kind kind;
  tree value;       /* what is measured, an expression of stmt's operands */
  unsigned vp_type; /* xprof_vp_type, of the record */
  /* GCC's histograms of the statement: the site's own, and the POW2
   * (of a VALUE site) or AVERAGE one (of a LENGTH site) derived from it,
   * or NULL.  Use attaches them to the statement; the rest are freed. */
  histogram_value hist, pow2, average;
};
/* cfun's sites, in the order of GCC's own value profiler; returns how
 * many.  Both modes call it at the same point, before anything changes. */
unsigned xp_value_sites(vec<xp_site> *sites);
void xp_free_value_sites(vec<xp_site> *sites);
/* Collect: the value site s records, as a gimple value inserted before
 * gsi: a pointer for a call site, an unsigned 64-bit size for a length,
 * else a 64-bit integer as the runtime keeps it. */
tree xp_site_value(const xp_site *s, gimple_stmt_iterator *gsi);

/* A function's graph as libxprof sees it (its placed counters and
 * signature, its sites), and the GCC edge behind each of its edges. */
struct xp_cfg {
  xprof_graph g;
  edge *gcc_edges;
};
/* Prepare cfun's CFG as GCC's own profiler does (fake edges for calls
 * that may not return and for abnormal edges) and describe it, with its
 * value-profile sites and its counters placed.  Both modes call this at
 * the same point, so they see the same graph.  False when it cannot be
 * counted exactly (c->g.n_counters -1); c to free either way. */
bool xp_cfg_build(struct xp_cfg *c, const vec<xp_site> *sites);
/* A count of GCC's as a number: 0 when it has none (cfg.cc). */
uint64_t xp_count(profile_count c);
void xp_cfg_free(struct xp_cfg *c);

/* Use: give GCC the histograms of f's records for cfun's sites, once
 * cfun's counts are set (value transformations read both).  Returns how
 * many sites got them. */
unsigned xp_apply_value_sites(const xprof_objfile *o, const xprof_proc *f,
                              vec<xp_site> *sites);

/* Both modes: give every thunk of the unit a GIMPLE body, as GCC's own
 * -fprofile-generate does, so that it is counted and its count read back
 * like any function's (GCC's own use reads a thunk's count on its own). */
void xp_expand_thunks(void);
/* Should this function be left alone? (no body, thunk, attribute,
 * skip patterns) */
bool xp_skip_function(cgraph_node *node);
/* Name of a function in profiles: its assembler name. */
const char *xp_function_name(tree decl);
/* The function a call statement calls directly (not an internal
 * function), or NULL_TREE (lines.cc). */
tree xp_direct_callee(gimple *stmt);
/* Resolved pathname of the object file this compilation produces, as
 * the profile knows it (after the prefix maps). */
const char *xp_object_path(void);
/* The same before the prefix maps: the file this compilation writes; NULL
 * when it runs on another machine (distcc). */
const char *xp_object_file(void);

/* What instrumenting an object file made (collect.cc), for its
 * descriptor (descriptor.cc): libxprof's plan, and the trees of each
 * planned function and of the object file's arrays. */
struct xp_fn_trees {
  tree decl;
  tree var;       /* its counters: its own array (comdat) or the object's */
  tree word;      /* per-thread copies: the array's thread-local word, or */
  tree twin;      /* the array's thread-local twin, and */
  tree twin_cell; /* the word the constructor points at the twin */
};
struct xp_collected {
  xprof_plan plan;
  xp_fn_trees *fns; /* as plan.fns */
  tree ctr_var, vp_var, first_run_var; /* the object file's arrays */
  tree twin_var, twin_cell;            /* its counters' twin and cell */
  tree thread_var;                     /* or their thread-local word */
};
void xp_emit_descriptor(const xp_collected *c);
/* cfun's entry in the coverage table (lines.cc). */
void xp_record_lines(xprof_linetab *t, const xprof_plan_fn *f, const xp_cfg *c,
                     const vec<xp_site> *sites);
/* cfun's places for a match by source line (xprof_use_match): each
 * statement's line in its block, under the functions inlined around it,
 * the declaration's in the first block, as xp_record_lines records them.
 * xp_places_fill is an xprof_places_fn on an xp_places, which
 * xp_places_free empties. */
struct xp_places {
  const vec<xp_site> *sites; /* cfun's value-profile sites, or NULL */
  vec<xprof_line_loc> locs, site_locs;
  vec<xprof_inline_frame> frames;
};
void xp_places_fill(void *ctx, xprof_places *p);
void xp_places_free(xp_places *p);
/* Use builds, right after the CFG is built: cfun's own lines as the
 * front end gave them, for the places' had_line (lines.cc). */
void xp_note_lines(void);

void xp_collect_execute(void);
/* Collect mode, after inlining: the time profile's test at the entry of
 * cfun, if the collect pass gave it a first-run word; returns TODO flags. */
unsigned xp_first_run_execute(void);
/* Collect mode: counters are updated by x86-64 asm statements. */
bool xp_counters_in_asm(void);
/* Whether an asm template is that of a counter's update. */
bool xp_is_counter_asm(const char *tmpl);
/* Collect mode, right after expansion: counter asms address their
 * thread-local twins directly (tls_fold.cc). */
class opt_pass *xp_make_tls_fold_pass(void);
void xp_use_execute(void);
/* Use mode, after GCC's block reordering: the blocks of functions with
 * measured counts in the ext-TSP model's order (block_layout.cc). */
class opt_pass *xp_make_block_layout_pass(void);
/* -xprofile_order: the functions that ran get sections of their own. */
void xp_order_sections(const char *plugin_name);

/* Optimization nodes made from others by the use pass, kept for one use
 * pass (zeroed at its start): functions share the node made from the same
 * node (most have the default one).  GC does not run inside the pass, and
 * afterwards the functions given the nodes keep them alive. */
#define XP_NODE_CACHE 4
struct xp_node_cache {
  tree from[XP_NODE_CACHE], made[XP_NODE_CACHE];
};
/* The node made by `edit` from fndecl's (or the default one), or
 * NULL_TREE for a function with an optimize attribute, which keeps its
 * own. */
tree xp_derived_node(struct xp_node_cache *cache, tree fndecl,
                     void (*edit)(cl_optimization *, unsigned), unsigned arg);

/* Partial training: the optimization node fndecl would have in a build
 * without the profile (use mode's flags that the driver added undone), or
 * NULL_TREE when the driver added none.  The cache also keeps where the
 * drivers' mark is. */
struct xp_plain_cache {
  struct xp_node_cache nodes;
  unsigned mark;    /* valid when mark_found */
  bool mark_found;
};
tree xp_plain_optimization(tree fndecl, struct xp_plain_cache *cache);

/* The optimization node of a function that ran in training (its counts
 * set): its own with, in a function with a hot block (xp_hot_count), GCC's
 * inlining limit for callees not declared inline raised to
 * xp_opts.gcc.hot_inline within a unit growth of xp_opts.gcc.hot_inline_growth
 * and, where a call that never ran keeps a local aggregate in memory, the
 * growth GCC inlines at any call site raised to xp_opts.gcc.cold_inline
 * (hot_inline.cc); NULL_TREE to keep its own.  caches[0] holds the nodes
 * with the hot limit, caches[1] with the cold one, caches[2] with both. */
tree xp_hot_optimization(tree fndecl, struct xp_node_cache caches[3]);
/* The count from which a block is hot (the profile summary's
 * XPROF_HOT_CUTOFF), set by use.cc for hot_inline.cc. */
extern uint64_t xp_hot_count;


#endif
