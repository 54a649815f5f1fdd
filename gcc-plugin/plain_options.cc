/*
 * plain_options.cc - the optimization options a function would have been
 * compiled with without the profile, for partial training.
 *
 * The drivers add what -fprofile-use turns on (unrolling, peeling,
 * cloning, the O3 loop passes: fdo_flags in tools/xprof-cc.c) to every
 * use build, because with measured counts GCC applies them only where the
 * counts say they pay.  A function that never ran in training has no
 * counts to restrain them; under partial training it is meant to be
 * "optimized as without a profile", so it gets the flags a plain build
 * would have had: GCC's -O level default for each flag the driver added
 * and the user did not give.  Without that, zstd's use build with partial
 * training was far larger than the plain build and ran more instructions
 * (bench/history.md).
 *
 * The user's own flags win: the drivers mark where their flags end
 * (-fplugin-arg-xprof-use-flags-added), and a flag the user gives comes
 * after the mark.  Used directly, without the mark, the plugin takes every
 * flag as the user's; so it does for a function with an optimize attribute.
 */
#include "gcc-common.h"

#include "xprof-gcc.h"

/* Where the drivers' mark is on the command line: the flags they added
 * come before it, the user's after.  (Counting copies would not do: GCC's
 * driver drops a flag given again later, and one cancelled by its
 * negative, before cc1 sees them.)  0 when there is no mark. */
static unsigned mark_index(void) {
  for (unsigned i = 1; i < save_decoded_options_count; i++)
    if (save_decoded_options[i].opt_index == OPT_fplugin_arg_ &&
        save_decoded_options[i].arg &&
        strcmp(save_decoded_options[i].arg, "xprof-use-flags-added") == 0)
      return i;
  return 0;
}

/* Did the user give option `opt` (either polarity)?  After the mark, or
 * anywhere for an option the drivers never add. */
static bool user_gave(size_t opt, unsigned from) {
  for (unsigned i = from + 1; i < save_decoded_options_count; i++)
    if (save_decoded_options[i].opt_index == opt)
      return true;
  return false;
}

/* GCC's -O level defaults (opts.cc, default_options_table) for the flags
 * the drivers add.  `level` is the first -O level that turns the flag on
 * (0: none does); -Os and -Oz count as level 2 for these flags except the
 * speed-only ones. */
static int level_default(const cl_optimization *c, int level, bool speed_only) {
  if (level == 0 || c->x_optimize < level)
    return 0;
  if (speed_only && c->x_optimize_size)
    return 0;
  return 1;
}

static void make_plain(cl_optimization *c, unsigned mark) {
#define XP_PLAIN(field, opt, level, speed_only)                           \
  do {                                                                    \
    if (!user_gave(opt, mark))                                            \
      c->field = level_default(c, level, speed_only);                     \
  } while (0)
  XP_PLAIN(x_flag_unroll_loops, OPT_funroll_loops, 0, false);
  XP_PLAIN(x_flag_peel_loops, OPT_fpeel_loops, 3, false);
  XP_PLAIN(x_flag_tracer, OPT_ftracer, 0, false);
  XP_PLAIN(x_flag_value_profile_transformations, OPT_fvpt, 0, false);
  XP_PLAIN(x_flag_inline_functions, OPT_finline_functions, 2, false);
  XP_PLAIN(x_flag_ipa_cp, OPT_fipa_cp, 2, false);
  XP_PLAIN(x_flag_ipa_cp_clone, OPT_fipa_cp_clone, 3, false);
  XP_PLAIN(x_flag_ipa_bit_cp, OPT_fipa_bit_cp, 2, false);
  XP_PLAIN(x_flag_predictive_commoning, OPT_fpredictive_commoning, 3, false);
  XP_PLAIN(x_flag_split_loops, OPT_fsplit_loops, 3, false);
  XP_PLAIN(x_flag_unswitch_loops, OPT_funswitch_loops, 3, false);
  XP_PLAIN(x_flag_gcse_after_reload, OPT_fgcse_after_reload, 3, false);
  XP_PLAIN(x_flag_version_loops_for_strides, OPT_fversion_loops_for_strides, 3, false);
  XP_PLAIN(x_flag_tree_loop_distribute_patterns, OPT_ftree_loop_distribute_patterns, 2,
           false);
  XP_PLAIN(x_flag_loop_interchange, OPT_floop_interchange, 3, false);
  XP_PLAIN(x_flag_unroll_jam, OPT_floop_unroll_and_jam, 3, false);
  XP_PLAIN(x_flag_tree_loop_distribution, OPT_ftree_loop_distribution, 3, false);
  /* -ftree-vectorize sets both vectorizers; GCC 12 runs them from -O2 with
   * the very cheap cost model, GCC 11 from -O3 only. */
  bool vectorize_given = user_gave(OPT_ftree_vectorize, 0);
#if GCCPLUGIN_VERSION_MAJOR >= 12
  const int vect_level = 2;
  const vect_cost_model o2_model = VECT_COST_MODEL_VERY_CHEAP;
#else
  const int vect_level = 3;
  const vect_cost_model o2_model = VECT_COST_MODEL_CHEAP;
#endif
  if (!vectorize_given) {
    XP_PLAIN(x_flag_tree_loop_vectorize, OPT_ftree_loop_vectorize, vect_level, true);
    XP_PLAIN(x_flag_tree_slp_vectorize, OPT_ftree_slp_vectorize, vect_level, true);
  }
  if (!user_gave(OPT_fvect_cost_model_, mark))
    c->x_flag_vect_cost_model =
        c->x_optimize >= 3 && !c->x_optimize_size ? VECT_COST_MODEL_DYNAMIC : o2_model;
#undef XP_PLAIN
}

tree xp_derived_node(xp_node_cache *cache, tree fndecl,
                     void (*edit)(cl_optimization *, unsigned), unsigned arg) {
  /* A function with options of its own (an optimize attribute, or a
   * #pragma GCC optimize, which GCC turns into one) keeps them all: its
   * node cannot tell the attribute's options from the command line's. */
  if (lookup_attribute("optimize", DECL_ATTRIBUTES(fndecl)))
    return NULL_TREE;
  tree base = DECL_FUNCTION_SPECIFIC_OPTIMIZATION(fndecl);
  if (!base)
    base = optimization_default_node;
  unsigned slot = 0;
  for (; slot < XP_NODE_CACHE && cache->from[slot]; slot++)
    if (cache->from[slot] == base)
      return cache->made[slot];
  tree node = make_node(OPTIMIZATION_NODE);
  TREE_OPTIMIZATION(node) = ggc_cleared_alloc<cl_optimization>();
  *TREE_OPTIMIZATION(node) = *TREE_OPTIMIZATION(base);
  edit(TREE_OPTIMIZATION(node), arg);
  if (slot < XP_NODE_CACHE) {
    cache->from[slot] = base;
    cache->made[slot] = node;
  }
  return node;
}

tree xp_plain_optimization(tree fndecl, xp_plain_cache *cache) {
  if (!cache->mark_found) {
    cache->mark = mark_index();
    cache->mark_found = true;
  }
  if (!cache->mark)
    return NULL_TREE;
  return xp_derived_node(&cache->nodes, fndecl, make_plain, cache->mark);
}
