/*
 * hot_inline.cc - the inlining limits of use builds: higher at hot call
 * sites, and small callees inlined at cold ones too.
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
 * bench/history.md); functions that never ran,
 * and code without a profile, keep GCC's own.
 *
 * Code size is part of the bargain, twice over.  GCC calls a call site
 * hot when its count reaches 1/10000 of the training's largest, which
 * takes in code that ran a few hundred times in a run of billions (lua's
 * lexer, its collector's rarer steps): only functions with a block that
 * is hot the way LLVM's profile use means it (among the counts that make
 * up 99% of all, XPROF_HOT_CUTOFF) get the raised limit.  And what the
 * raised limit may add is a budget, --param inline-unit-growth of 10%
 * (GCC's is 40% for all inlining; -fplugin-arg-xprof-hot-inline-growth=N)
 * in the functions that have the limit: GCC's inliner takes the call
 * sites in order of benefit per unit of growth, so the budget goes to the
 * best of them: unbounded, the use builds grew well beyond GCC's own for
 * the last few instructions saved.  GCC's floor stays: a unit below
 * --param large-unit-insns (10000 by its size estimate) grows as if it
 * were that large, since a small unit's code is small in any program; a
 * lower floor shrank programs of many small files but kept a bit writer
 * from being inlined at every hot call site of a compressor, which cost
 * more than it saved (bench/history.md, "Hot-call-site inlining with a
 * budget").
 *
 * At the cold call sites GCC refuses any growth at all, where its plain
 * build inlines small helpers everywhere and LLVM's profile use keeps a
 * threshold of 45 for cold call sites (about 13 instructions beyond what
 * the call itself takes).  Where a local aggregate's address goes to
 * calls that ran and to calls that never did, that costs the hot path:
 * the cold calls, left as calls, keep the aggregate in memory everywhere
 * (zstd's ZSTD_encodeSequences keeps its bit stream on the stack for a
 * BIT_flushBits that never runs, and runs more instructions there than
 * plain -O2).  Such functions also get --param max-inline-insns-size, the
 * growth below which GCC inlines whatever the call's count
 * (-fplugin-arg-xprof-cold-inline=N, default 12; 0 for GCC's own), set
 * here, after the early inliner: on the command line it changes early
 * inlining too, and the use build's functions would no longer match the
 * collect build's.
 * Not every function, and not large ones (--param large-function-insns):
 * given to every function that ran, or to every one with such a local,
 * the helpers cost sqlite3VdbeExec, the bytecode interpreter's loop
 * (which has one), more than they saved (bench/history.md).
 *
 * Left alone: functions optimized for size or below -O2, functions with
 * options of their own (an optimize attribute or pragma), and every
 * function when the user gave --param max-inline-insns-auto or
 * --param max-inline-insns-size (plugin.cc turns that limit off then).
 */
#include "gcc-common.h"

#include "xprof-gcc.h"

/* What xp_hot_optimization gives a function: the raised limit at hot
 * call sites with its budget, the limit at cold ones, or both; the index
 * of the cache of such nodes is one less. */
enum { RAISE_HOT = 1, RAISE_COLD = 2 };

/* Limits are only raised, budgets only lowered: the function's own stand
 * when they are already so, and the user's --param inline-unit-growth
 * stands everywhere. */
static void raise_limits(cl_optimization *o, unsigned what) {
  if (what & RAISE_HOT) {
    o->x_param_max_inline_insns_auto = MAX(o->x_param_max_inline_insns_auto, (int)xp_opts.gcc.hot_inline);
    if (!global_options_set.x_param_inline_unit_growth)
      o->x_param_inline_unit_growth = MIN(o->x_param_inline_unit_growth, (int)xp_opts.gcc.hot_inline_growth);
  }
  if (what & RAISE_COLD)
    o->x_param_max_inline_insns_size = MAX(o->x_param_max_inline_insns_size, (int)xp_opts.gcc.cold_inline);
}

uint64_t xp_hot_count;

/* Did a block of fndecl run at least xp_hot_count times? */
static bool has_hot_block(tree fndecl) {
  basic_block bb;
  FOR_EACH_BB_FN(bb, DECL_STRUCT_FUNCTION(fndecl)) {
    profile_count c = bb->count.ipa();
    if (c.initialized_p() && (uint64_t)c.to_gcov_type() >= xp_hot_count)
      return true;
  }
  return false;
}

/* Is the function one GCC calls large (--param large-function-insns,
 * 2700 by its size estimate)?  Such a function keeps GCC's limit: the
 * helpers inlined into sqlite3VdbeExec, the bytecode interpreter's loop,
 * cost its hot paths more than they saved. */
static bool is_large(tree fndecl, const cl_optimization *o) {
  return estimate_num_insns_fn(fndecl, &eni_size_weights) >
         o->x_param_large_function_insns;
}

/* The local aggregate of fndecl whose address arg is, or NULL_TREE. */
static tree local_aggregate(tree arg, tree fndecl) {
  if (TREE_CODE(arg) != ADDR_EXPR)
    return NULL_TREE;
  tree base = get_base_address(TREE_OPERAND(arg, 0));
  if (!base || !VAR_P(base) || !auto_var_in_fn_p(base, fndecl) ||
      !AGGREGATE_TYPE_P(TREE_TYPE(base)))
    return NULL_TREE;
  return base;
}

/* Does a local aggregate's address go to calls that ran and to calls that
 * never did (by the counts just set)?  Then the calls that never ran keep
 * it in memory on the paths that did, unless they are inlined as well. */
static bool cold_calls_pin_a_local(tree fndecl) {
  auto_vec<tree, 8> hot, cold;
  basic_block bb;
  FOR_EACH_BB_FN(bb, DECL_STRUCT_FUNCTION(fndecl)) {
    if (!bb->count.initialized_p())
      continue;
    bool ran = bb->count.nonzero_p();
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
      gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
      if (!call || gimple_call_internal_p(call))
        continue;
      for (unsigned i = 0; i < gimple_call_num_args(call); i++) {
        tree var = local_aggregate(gimple_call_arg(call, i), fndecl);
        if (!var)
          continue;
        if ((ran ? cold : hot).contains(var))
          return true;
        if (!(ran ? hot : cold).contains(var))
          (ran ? hot : cold).safe_push(var);
      }
    }
  }
  return false;
}

tree xp_hot_optimization(tree fndecl, xp_node_cache caches[3]) {
  tree base = DECL_FUNCTION_SPECIFIC_OPTIMIZATION(fndecl);
  const cl_optimization *o = TREE_OPTIMIZATION(base ? base : optimization_default_node);
  if (o->x_optimize < 2 || o->x_optimize_size)
    return NULL_TREE;
  unsigned what = 0;
  if (o->x_param_max_inline_insns_auto < (int)xp_opts.gcc.hot_inline && has_hot_block(fndecl))
    what |= RAISE_HOT;
  if (o->x_param_max_inline_insns_size < (int)xp_opts.gcc.cold_inline &&
      cold_calls_pin_a_local(fndecl) && !is_large(fndecl, o))
    what |= RAISE_COLD;
  if (!what)
    return NULL_TREE; /* nothing to raise */
  return xp_derived_node(&caches[what - 1], fndecl, raise_limits, what);
}
