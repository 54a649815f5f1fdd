/*
 * block_layout.cc - use mode: each function's blocks laid out again by
 * the ext-TSP model (libxprof's graph/exttsp.c) from the training's
 * counts, right after GCC's own block reordering.
 *
 * GCC lays blocks out in traces along its hottest edges (the software
 * trace cache of bb-reorder.cc), which makes the heavy edges fall through
 * but takes no account of how far the remaining jumps go or of what the
 * traces cost the instruction cache together.  The ext-TSP model scores
 * both, and is what BOLT lays blocks out by after a link; GCC has nothing
 * like it to turn on, where LLVM does (xprof-clang turns LLVM's on,
 * docs/llvm-pass.md).  So the pass takes GCC's result -- the blocks its
 * reordering duplicated, its hot/cold partitioning -- and changes only the
 * order: the model orders the blocks of the function's first partition
 * (what ran), entry first; the other partition's follow as they were.
 * GCC's own cfglayout machinery then puts in and takes out the jumps the
 * new order needs, as it does for its own reordering.
 *
 * Functions whose blocks that ran number more than
 * -fplugin-arg-xprof-ext-tsp-blocks (default 10000) keep GCC's order:
 * the model's time grows with about the square of those blocks
 * (xprof_ext_tsp_blocks says why the default is not LLVM's).
 */
#include "gcc-common.h"
#include "target.h"
#include "cfgrtl.h"
#include "df.h"
#include "xprof-gcc.h"
#include "xprof_graph.h"

/* A block's bytes, by the smallest length of each instruction (what GCC's
 * own reordering goes by before branches are shortened). */
static uint64_t block_bytes(basic_block bb) {
  uint64_t n = 0;
  rtx_insn *insn;
  FOR_BB_INSNS(bb, insn)
  if (NONDEBUG_INSN_P(insn))
    n += (uint64_t)get_attr_min_length(insn);
  return n;
}

/* Whether bb's edges are jumps whatever the order: a table or computed
 * jump, or an asm goto. */
static bool jumps_only(basic_block bb) {
  rtx_insn *end = BB_END(bb);
  return JUMP_P(end) && (computed_jump_p(end) || tablejump_p(end, NULL, NULL) ||
                         extract_asm_operands(PATTERN(end)));
}

/* How many blocks of fun's partition `partition` ran. */
static unsigned ran_blocks(function *fun, int partition) {
  unsigned ran = 0;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun)
  if (BB_PARTITION(bb) == partition && xp_count(bb->count))
    ran++;
  return ran;
}

/* The layout's graph of `blocks` (idx[bb->index]: its place there, -1:
 * another partition): sizes, counts and the edges between them. */
static void describe(const vec<basic_block> &blocks, const int *idx, uint64_t *sizes,
                     uint64_t *counts, vec<xprof_layout_edge> *edges) {
  for (unsigned i = 0; i < blocks.length(); i++) {
    basic_block bb = blocks[i];
    sizes[i] = block_bytes(bb);
    counts[i] = xp_count(bb->count);
    bool jumps = jumps_only(bb);
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs) {
      if (e->dest == EXIT_BLOCK_PTR_FOR_FN(cfun) || idx[e->dest->index] < 0 ||
          (e->flags & EDGE_CROSSING))
        continue;
      xprof_layout_edge le;
      le.src = i, le.dst = (uint32_t)idx[e->dest->index];
      le.flags = jumps || (e->flags & EDGE_COMPLEX) ? XPROF_LAYOUT_JUMP : 0;
      le.count = xp_count(e->count());
      edges->safe_push(le);
    }
  }
}

/* Chain fun's blocks through ->aux as cfg_layout_finalize takes them:
 * `blocks` in `order`, then the other partition's as they are. */
static void chain_blocks(function *fun, const vec<basic_block> &blocks, const uint32_t *order,
                         int partition) {
  basic_block prev = NULL, bb;
  for (unsigned i = 0; i < blocks.length(); i++) {
    bb = blocks[order[i]];
    if (prev)
      prev->aux = bb;
    prev = bb;
  }
  FOR_EACH_BB_FN(bb, fun)
  if (BB_PARTITION(bb) != partition) {
    prev->aux = bb;
    prev = bb;
  }
  prev->aux = NULL;
}

/* Lay out fun's blocks by the model; true when the order changed.  In
 * cfglayout mode. */
static bool lay_out(function *fun) {
  basic_block first = ENTRY_BLOCK_PTR_FOR_FN(fun)->next_bb, bb;
  if (!single_succ_p(ENTRY_BLOCK_PTR_FOR_FN(fun)) ||
      single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun)) != first)
    return false;
  int partition = BB_PARTITION(first);
  int *idx = XNEWVEC(int, last_basic_block_for_fn(fun));
  auto_vec<basic_block> blocks;
  for (int i = 0; i < last_basic_block_for_fn(fun); i++)
    idx[i] = -1;
  FOR_EACH_BB_FN(bb, fun)
  if (BB_PARTITION(bb) == partition) {
    idx[bb->index] = (int)blocks.length();
    blocks.safe_push(bb);
  }
  unsigned n = blocks.length();
  uint64_t *sizes = XNEWVEC(uint64_t, n), *counts = XNEWVEC(uint64_t, n);
  uint32_t *order = XNEWVEC(uint32_t, n);
  auto_vec<xprof_layout_edge> edges;
  describe(blocks, idx, sizes, counts, &edges);
  bool changed = false;
  if (xprof_ext_tsp_order(n, sizes, counts, edges.address(), edges.length(), order) == 0)
    for (unsigned i = 0; i < n; i++)
      changed |= order[i] != i;
  if (changed) {
    chain_blocks(fun, blocks, order, partition);
    if (dump_file) {
      uint32_t *gccs = XNEWVEC(uint32_t, n); /* GCC's order, to score it */
      fprintf(dump_file, "ext-TSP order of %u blocks:", n);
      for (unsigned i = 0; i < n; i++) {
        gccs[i] = i;
        fprintf(dump_file, " %d", blocks[order[i]]->index);
      }
      fprintf(dump_file, "\nscore %.1f, GCC's %.1f\n",
              xprof_ext_tsp_score(n, sizes, edges.address(), edges.length(), order),
              xprof_ext_tsp_score(n, sizes, edges.address(), edges.length(), gccs));
      XDELETEVEC(gccs);
    }
  }
  XDELETEVEC(idx);
  XDELETEVEC(sizes);
  XDELETEVEC(counts);
  XDELETEVEC(order);
  return changed;
}

static unsigned int layout_execute(function *fun) {
  if (n_basic_blocks_for_fn(fun) <= NUM_FIXED_BLOCKS + 2)
    return 0;
  basic_block first = ENTRY_BLOCK_PTR_FOR_FN(fun)->next_bb, bb;
  unsigned ran = ran_blocks(fun, BB_PARTITION(first));
  if (ran < 2)
    return 0;
  char note[512];
  if (!xprof_ext_tsp_fits(&xp_opts, xp_function_name(fun->decl), ran, note, sizeof note)) {
    xprof_verbose(&xp_diag, "%s", note);
    return 0;
  }
  /* GCC refuses to go back into cfglayout mode once its reordering is
   * complete in a function split into hot and cold parts, because the
   * clean-up on the way in may need the partitions fixed up.  Going in
   * as GCC's reordering does (its flag not yet set) gives the clean-up
   * the same state that GCC's reordering gives it, and the flag is set
   * again before the way out checks the partitions. */
  crtl->bb_reorder_complete = false;
  cfg_layout_initialize(0);
  crtl->bb_reorder_complete = true;
  if (!lay_out(fun)) /* the blocks go back in their order */
    FOR_EACH_BB_FN(bb, fun)
    bb->aux = bb->next_bb != EXIT_BLOCK_PTR_FOR_FN(fun) ? bb->next_bb : NULL;
  cfg_layout_finalize();
  FOR_EACH_BB_FN(bb, fun)
  df_recompute_luids(bb);
  return 0;
}

static const pass_data xp_block_layout_pass_data = {
    RTL_PASS,            /* type */
    "xprof_block_layout", /* name */
    OPTGROUP_NONE,       /* optinfo_flags */
    TV_NONE,             /* tv_id */
    0,                   /* properties_required */
    0,                   /* properties_provided */
    0,                   /* properties_destroyed */
    0,                   /* todo_flags_start */
    0                    /* todo_flags_finish */
};

class xp_block_layout_pass : public rtl_opt_pass {
public:
  xp_block_layout_pass(gcc::context *ctx) : rtl_opt_pass(xp_block_layout_pass_data, ctx) {}
  /* Where GCC's own reordering ran (pass_reorder_blocks' gate), on a
   * function with measured counts that is optimized for speed. */
  bool gate(function *fun) override {
    return optimize > 0 && !seen_error() && xprof_ext_tsp_blocks(&xp_opts) &&
           (flag_reorder_blocks || flag_reorder_blocks_and_partition) &&
           !targetm.cannot_modify_jumps_p() && profile_status_for_fn(fun) == PROFILE_READ &&
           optimize_function_for_speed_p(fun);
  }
  unsigned int execute(function *fun) override { return layout_execute(fun); }
};

opt_pass *xp_make_block_layout_pass(void) { return new xp_block_layout_pass(g); }
