/*
 * xprof-gcc.h - declarations shared by the GCC plugin's sources.
 */
#ifndef XPROF_GCC_H
#define XPROF_GCC_H

#include "xprof.h"

enum xp_mode { XP_MODE_NONE, XP_MODE_COLLECT, XP_MODE_USE };

/* How counters are updated (update=...): per-thread copies with plain
 * adds (exact, the default), atomic adds in the shared array (exact), or
 * plain adds in the shared array (single-threaded training runs). */
enum xp_update { XP_UPDATE_THREAD, XP_UPDATE_ATOMIC, XP_UPDATE_SINGLE };


/* Plugin arguments (-fplugin-arg-xprof-KEY[=VALUE]). */
struct xp_options {
  enum xp_mode mode;
  const char *profile_name;    /* collect:NAME / use:NAME (first of them) */
  const char **use_dirs;       /* every use:NAME, merged */
  unsigned n_use_dirs;
  const char **pathmap;        /* COLLECT_PREFIX:USE_PREFIX */
  unsigned n_pathmap;
  const char **object_prefix_map; /* OLD=NEW (-xprofile_prefix_map) */
  unsigned n_object_prefix_map;
  enum xp_update update;
  bool tls_counters;           /* update=thread: thread-local twins in
                                * code for executables (no-tls-counters) */
  bool no_asm_counters;        /* counters as GIMPLE, not x86-64 asm */
  bool verbose;
  bool all_edges;              /* debug: count every edge as well */
  bool cfg_dump;               /* debug: write OBJECT.xpcfg */
  enum xprof_coverage_mode coverage; /* tcov, no-coverage-table */
  const char *coverage_dir;    /* tcov-dir=DIR: the table goes there */
  bool warn_missing;           /* use: warn when the object has no data */
  unsigned values_per_site;    /* value-profile values per record */
  xprof_skip_list skip;        /* skip-functions, skip-files */
  bool partial_inlining;       /* the compile asked for it (-O2 and up) */
  bool partial_training;       /* use: never-run functions keep their guess */
  unsigned hot_inline;         /* use: inlining limit in trained functions */
  unsigned cold_inline;        /* use: growth inlined at any call site there */
  unsigned hot_inline_growth;  /* use: unit growth (%) where hot_inline applies */
  unsigned salvage;            /* use: percent of a changed function's counts
                                * that must match to salvage them; above 100:
                                * never (no-salvage) */
};
extern struct xp_options xp_opts;

/* A procedure's CFG as libxprof sees it, and the GCC edges behind it. */
struct xp_cfg {
  uint32_t n_nodes, n_edges;
  edge *gcc_edges;
  xprof_edge *edges;
  uint32_t *counter_of_edge;
  int64_t n_counters; /* -1: cannot be profiled exactly */
  uint64_t signature;
  uint32_t *hash; /* per node: its contents (xprof_block_hash_add) */
};

/* Prepare cfun's CFG as GCC's own profiler does (fake edges for calls
 * that may not return and for abnormal edges) and describe it.  Both
 * modes call this at the same point, so they see the same graph. */
bool xp_cfg_build(struct xp_cfg *c, uint32_t n_vp_sites);
void xp_cfg_free(struct xp_cfg *c);
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
enum xp_site_kind {
  XP_SITE_CALL,     /* an indirect call's callee (VP_PROC) */
  XP_SITE_VALUE,    /* an integer: a divisor */
  XP_SITE_LENGTH,   /* a string operation's size (a length histogram) */
  XP_SITE_QUOTIENT  /* a / b of an unsigned a % b */
};
struct xp_site {
  gimple *stmt;
  enum xp_site_kind kind;
  tree value;       /* what is measured, an expression of stmt's operands */
  unsigned vp_type; /* XPROF_RT_VP_*, of the record */
  /* GCC's histograms of the statement: the site's own, and the POW2
   * (of a VALUE site) or AVERAGE one (of a LENGTH site) derived from it,
   * or NULL.  Use attaches them to the statement; the rest are freed. */
  histogram_value hist, pow2, average;
};
/* cfun's sites, in the order of GCC's own value profiler; returns how
 * many.  Both modes call it at the same point, before anything changes. */
unsigned xp_value_sites(vec<xp_site> *sites);
void xp_free_value_sites(vec<xp_site> *sites);
/* g with cfun's sites as a shape (libxprof's xprof_shape; its site
 * arrays XNEWVEC'd, freed by xp_shape_free_sites). */
void xp_shape_of(const struct xp_cfg *g, const vec<xp_site> *sites, xprof_shape *s);
void xp_shape_free_sites(xprof_shape *s);
/* Collect: the value site s records, as a gimple value inserted before
 * gsi: a pointer for a call site, an unsigned 64-bit size for a length,
 * else a 64-bit integer as the runtime keeps it. */
tree xp_site_value(const xp_site *s, gimple_stmt_iterator *gsi);
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
/* Resolved pathname of the object file this compilation produces, as
 * the profile knows it (after the prefix maps). */
const char *xp_object_path(void);
/* The same before the prefix maps: the file this compilation writes; NULL
 * when it runs on another machine (distcc). */
const char *xp_object_file(void);

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
 * xp_opts.hot_inline within a unit growth of xp_opts.hot_inline_growth
 * and, where a call that never ran keeps a local aggregate in memory, the
 * growth GCC inlines at any call site raised to xp_opts.cold_inline
 * (hot_inline.cc); NULL_TREE to keep its own.  caches[0] holds the nodes
 * with the hot limit, caches[1] with the cold one, caches[2] with both. */
tree xp_hot_optimization(tree fndecl, struct xp_node_cache caches[3]);
/* The count from which a block is hot (the profile summary's
 * XPROF_HOT_CUTOFF), set by use.cc for hot_inline.cc. */
extern uint64_t xp_hot_count;

/* GCC diagnostics want their own format language; these take printf. */
void xp_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void xp_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
