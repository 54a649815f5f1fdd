/*
 * hot_inline.cc - a higher inlining limit for the hot call sites of use
 * builds.
 *
 * LLVM's profile use inlines a call whose count is hot up to a cost of
 * 3000 (about 600 instructions), against 225 elsewhere.  GCC's has no
 * such threshold: its limit for callees not declared inline,
 * --param max-inline-insns-auto (15 at -O2, 30 at -O3), binds at hot and
 * cold call sites alike.  With measured counts GCC already refuses any
 * growth at a call site that is not hot (ipa-inline.cc: "call is cold"),
 * so raising the limit lets the hot call sites through and leaves the
 * others as they were.  GCC reads the limit from the optimization node of
 * the function that holds the call, so the functions that ran in training
 * get a node with the limit raised (-fplugin-arg-xprof-hot-inline=N,
 * default 400: where the gains stopped on the benchmark programs, beyond
 * which GCC's growth limits for the whole function and unit decide;
 * docs/performance.md, thirteenth measurement); functions that never ran,
 * and code without a profile, keep GCC's own.
 *
 * Left alone: functions optimized for size or below -O2, functions with
 * options of their own (an optimize attribute or pragma), and every
 * function when the user gave --param max-inline-insns-auto (plugin.cc
 * turns this off then).
 */
#include "gcc-common.h"

#include "xprof-gcc.h"

static void raise_limit(cl_optimization *o, unsigned limit) {
  o->x_param_max_inline_insns_auto = (int)limit;
}

tree xp_hot_optimization(tree fndecl, xp_node_cache *cache) {
  if (xp_opts.hot_inline == 0)
    return NULL_TREE;
  tree base = DECL_FUNCTION_SPECIFIC_OPTIMIZATION(fndecl);
  const cl_optimization *o = TREE_OPTIMIZATION(base ? base : optimization_default_node);
  if (o->x_optimize < 2 || o->x_optimize_size ||
      o->x_param_max_inline_insns_auto >= (int)xp_opts.hot_inline)
    return NULL_TREE;
  return xp_derived_node(cache, fndecl, raise_limit, xp_opts.hot_inline);
}
