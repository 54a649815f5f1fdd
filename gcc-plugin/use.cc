/*
 * use.cc - -xprofile=use: read this object file's data (through the
 * profile's index), solve every matching function's edge counts, and hand
 * them to GCC as read feedback: block counts, edge probabilities, entry
 * and call-graph counts; then promote dominant indirect-call targets
 * (as speculative calls, for the inliner to keep or drop).
 *
 * The GCC state to set, and when: profile_info before the first
 * compute_function_frequency (cc1 crashes without a summary), and
 * flag_branch_probabilities everywhere options live (global options, the
 * default optimization node and every function's), set here, after the
 * early passes: set in plugin_init, the early passes see it (early
 * function splitting is gated off, early inlining decides differently)
 * and the use build's graphs no longer match the collect build's.
 */
#include "gcc-common.h"

#include <inttypes.h>

#include "xprof-gcc.h"

/* Indirect-call promotion, GCC's own rule (ipa-profile.cc): at a hot
 * call site, every target that takes at least half of the calls -- one,
 * or two at 50/50 -- becomes a speculative call. */


/* flag_branch_probabilities and flag_partial_inlining are optimization
 * options: set them in the global options, the default optimization node
 * and every function's own (a function with optimize attributes would
 * otherwise restore 0 and make the inliner assert). */
#define XP_SET_OPTIMIZATION(field, value)                                  \
  do {                                                                     \
    global_options.field = (value);                                        \
    TREE_OPTIMIZATION(optimization_default_node)->field = (value);         \
    cgraph_node *node_;                                                    \
    FOR_EACH_FUNCTION(node_) {                                             \
      tree opts_ = DECL_FUNCTION_SPECIFIC_OPTIMIZATION(node_->decl);       \
      if (opts_)                                                           \
        TREE_OPTIMIZATION(opts_)->field = (value);                         \
    }                                                                      \
  } while (0)

/* What -fprofile-use does right after it reads the counts: GCC's feedback
 * function splitter (partial inlining made with the profile), over the
 * call graph in the order of GCC's pass manager.  plugin_init turned the
 * early splitter off in both modes. */
static void split_functions_with_profile(void) {
  if (!xp_partial_inlining)
    return;
  XP_SET_OPTIMIZATION(x_flag_partial_inlining, 1);
  static opt_pass *split;
  if (!split) {
    split = make_pass_feedback_split_functions(g);
    split->static_pass_number = -1; /* GCC's own instance has the dump */
  }
  opt_pass *ours = current_pass; /* execute_pass_list leaves it NULL */
  cgraph_node **order = XCNEWVEC(cgraph_node *, symtab->cgraph_count);
  int n = ipa_reverse_postorder(order);
  for (int i = n - 1; i >= 0; i--) {
    cgraph_node *node = order[i];
    if (!node->has_gimple_body_p())
      continue;
    push_cfun(DECL_STRUCT_FUNCTION(node->decl));
    execute_pass_list(cfun, split);
    pop_cfun();
  }
  XDELETEVEC(order);
  current_pass = ours;
}

static bool call_matches(gcall *call, tree target) {
  tree ftype = TREE_TYPE(target);
  tree ctype = gimple_call_fntype(call);
  if (!ctype || TREE_CODE(ftype) != TREE_CODE(ctype))
    return false;
  if (!useless_type_conversion_p(TREE_TYPE(ctype), TREE_TYPE(ftype)))
    return false;
  tree parm = TYPE_ARG_TYPES(ftype);
  for (unsigned i = 0; i < gimple_call_num_args(call); i++) {
    if (!parm || TREE_VALUE(parm) == void_type_node)
      return stdarg_p(ftype); /* more arguments than parameters */
    tree arg = gimple_call_arg(call, i);
    if (!useless_type_conversion_p(TREE_VALUE(parm), TREE_TYPE(arg)))
      return false;
    parm = TREE_CHAIN(parm);
  }
  return !parm || TREE_VALUE(parm) == void_type_node;
}

/* The target named "entry:objfile" if this compilation knows it.
 * profile_path is this object file's path as the profile records it (the
 * collect build's; the use build's may differ, -xprofile-pathmap). */
static cgraph_node *find_target(const char *value, const char *profile_path) {
  const char *colon = strchr(value, ':');
  if (!colon)
    return NULL;
  char *name = xstrndup(value, (size_t)(colon - value));
  bool same_object = strcmp(colon + 1, profile_path) == 0;
  cgraph_node *node = cgraph_node::get_for_asmname(get_identifier(name));
  free(name);
  if (!node || (!node->definition && !DECL_EXTERNAL(node->decl)))
    return NULL;
  /* A static function of another object file has the same name only by
   * chance. */
  if (!TREE_PUBLIC(node->decl) && !same_object)
    return NULL;
  return node;
}

/* An indirect call to promote, decided while its function's counts were
 * applied, made speculative once the call graph is final. */
struct xp_promotion {
  tree caller;
  gcall *call;
  cgraph_node *target;
  profile_probability prob;
  uint64_t count, total; /* the target's calls, the site's */
  bool first;            /* the first target of its call */
};
static vec<xp_promotion> promotions;

/* GCC's profile id of the function named "entry:objfile" when it is
 * defined in another object file, as coverage_compute_profile_id makes it
 * for a public function there, or 0 (a static function, or one defined
 * or declared inline here). */
static unsigned remote_profile_id(const char *value, const char *profile_path) {
  const char *colon = strchr(value, ':');
  if (!colon || strcmp(colon + 1, profile_path) == 0)
    return 0;
  char *name = xstrndup(value, (size_t)(colon - value));
  cgraph_node *node = cgraph_node::get_for_asmname(get_identifier(name));
  unsigned id = 0;
  /* GCC rewrites the random part of anonymous-namespace names first. */
  if ((!node || !node->definition) && !strstr(name, "_GLOBAL__")) {
    id = crc32_string(0, name) & 0x7fffffff;
    id += !id;
  }
  free(name);
  return id;
}

/* Under -flto, a call whose most frequent target is defined in another
 * object file: GCC's own indirect-call histogram for it, with the
 * targets' profile ids, so that GCC's ipa-profile makes the speculative
 * calls at link time, when it sees every function (it finds them by
 * profile id, which xp_use_execute gives every function).  Returns
 * whether the call was handed over. */
static bool hand_to_link_time(gcall *call, const xprof_objfile *o, const xprof_vp_record *rec,
                              const uint32_t *order, uint32_t n, uint64_t total) {
  if (!flag_lto || !n || !remote_profile_id(rec->values[order[0]].proc, o->path))
    return false;
  gcov_type c[2 + 2 * 64] = {(gcov_type)total, 0};
  for (uint32_t k = 0; k < n; k++) {
    const xprof_vp_value *v = &rec->values[order[k]];
    unsigned id = remote_profile_id(v->proc, o->path);
    if (!id)
      continue;
    c[2 + 2 * c[1]] = id;
    c[3 + 2 * c[1]++] = (gcov_type)v->count;
  }
  histogram_value h = gimple_alloc_histogram_value(cfun, HIST_TYPE_INDIR_CALL, call,
                                                   gimple_call_fn(call));
  h->n_counters = (unsigned)(2 + 2 * c[1]);
  h->hvalue.counters = XNEWVEC(gcov_type, h->n_counters);
  memcpy(h->hvalue.counters, c, h->n_counters * sizeof *c);
  gimple_add_histogram_value(cfun, call, h);
  return true;
}

static void choose_promotions(const xprof_objfile *o, const xprof_proc *f,
                              const vec<xp_site> &sites) {
  for (unsigned site = 0; site < sites.length(); site++) {
    if (sites[site].kind != XPROF_SITE_CALL)
      continue;
    gcall *call = as_a<gcall *>(sites[site].stmt);
    const xprof_vp_record *rec = NULL;
    for (uint32_t r = 0; r < f->n_vp_records; r++)
      if (f->vp[r].expr_id == site && f->vp[r].type == XPROF_VP_PROC)
        rec = &f->vp[r];
    if (!rec || !o->n_values_per_vp)
      continue;
    /* Named targets, the largest first (a hand-edited profile need not
     * keep them in order). */
    uint32_t order[64];
    uint64_t total;
    uint32_t n = xprof_vp_order(o, rec, order, &total);
    if (hand_to_link_time(call, o, rec, order, n, total))
      continue;
    bool first = true;
    for (uint32_t k = 0; k < n; k++) {
      const xprof_vp_value *v = &rec->values[order[k]];
      if (v->count < total - v->count) /* under half */
        break;
      cgraph_node *target = find_target(v->proc, o->path);
      if (!target || !call_matches(call, target->decl))
        continue;
      /* Not a function defined elsewhere: never inlined here, so never a
       * guess worth keeping (GCC's own use does not see those either). */
      if (target->get_availability() <= AVAIL_INTERPOSABLE && target->can_be_discarded_p())
        continue;
      xp_promotion p = {current_function_decl, call, target,
                        profile_probability::probability_in_gcov_type((gcov_type)v->count,
                                                                      (gcov_type)total),
                        v->count, total, first};
      promotions.safe_push(p);
      first = false;
    }
  }
}

/* Promotions become speculative call-graph edges, as GCC's own profile
 * use makes them (ipa-profile.cc): the inliner inlines the target where
 * that pays, and drops the guess where the target stays out of line,
 * since a compare and a direct call gain nothing over an indirect call
 * the processor predicts, and cost the caller's size (sqlite's
 * vdbeSorterMerge then stays too big to inline into its hot caller).
 * Made after the call graph is rebuilt and split, which would drop them.
 * A call that moved into a split-off part is not found, and not
 * promoted: fnsplit splits off code that rarely runs. */
static unsigned make_promotions_speculative(void) {
  unsigned made = 0;
  profile_count orig = profile_count::zero();
  for (unsigned i = 0; i < promotions.length(); i++) {
    const xp_promotion &p = promotions[i];
    cgraph_node *caller = cgraph_node::get(p.caller);
    cgraph_edge *e = caller ? caller->get_edge(p.call) : NULL;
    /* The second target of a call: the edge found is a direct one of the
     * speculation that the first made. */
    if (e && e->speculative && !e->indirect_unknown_callee)
      e = e->speculative_call_indirect_edge();
    if (!e || !e->indirect_unknown_callee || e->speculative != !p.first)
      continue;
    if (p.first)
      orig = e->count; /* every target's count is a share of the calls */
    /* GCC's own use speculates only at calls it takes for hot. */
    if (!e->maybe_hot_p())
      continue;
    cgraph_node *target = p.target;
    /* The profile says the calls reach this definition: speculate on a
     * local alias where it could be interposed, so it can be inlined. */
    if (!target->can_be_discarded_p()) {
      cgraph_node *alias = dyn_cast<cgraph_node *>(target->noninterposable_alias());
      if (alias)
        target = alias;
    }
    e->make_speculative(target, orig.apply_probability(p.prob),
                        p.first ? 0 : (unsigned)e->num_speculative_call_targets_p());
    made++;
    xprof_verbose(&xp_diag, XPROF_MSG_PROMOTED ", speculatively", xp_function_name(p.caller),
                  xp_function_name(p.target->decl), (unsigned long long)p.count,
                  (unsigned long long)p.total);
  }
  promotions.release();
  return made;
}

/* Measured iteration counts, for the unroller and peeler (as profile.cc
 * records them while the counts are fresh). */
static void record_loop_bounds(void) {
  if (!current_loops)
    return;
  XP_FOR_EACH_LOOP(loop) {
    if (loop->header->count > profile_count::zero() &&
        loop->header->count.reliable_p()) {
      gcov_type nit = expected_loop_iterations_unbounded(loop);
      loop->any_estimate = false;
      record_niter_bound(loop, gcov_type_to_wide_int(nit), true, false);
    }
  }
}

static xp_plain_cache plain_cache;
static xp_node_cache hot_caches[3]; /* see xp_hot_optimization */
static xp_node_cache whole_cache;   /* see keep_whole */

/* A function's graph with every edge's and block's count solved. */
struct solution {
  xp_cfg c;
  vec<xp_site> sites; /* cfun's value-profile sites */
  xprof_use_fn r;     /* the counts, and the records that apply */
};

static void free_solution(solution *s) {
  xprof_use_fn_free(&s->r);
  xp_cfg_free(&s->c);
  xp_free_value_sites(&s->sites);
}

/* Build cfun's graph as the collect build did and match the counts of
 * function `name` to it (libxprof: f's solved, or salvaged when the graph
 * changed, or the line profile's placed by source line).  Returns 0, or
 * -1 when there are none that fit (the fake edges are gone again then). */
static int solve(xprof_use *u, const char *name, const xprof_proc *f, solution *s) {
  const char *file = DECL_SOURCE_FILE(current_function_decl);
  if (execute_fixup_cfg() & TODO_cleanup_cfg)
    cleanup_tree_cfg();
  xp_value_sites(&s->sites);
  bool built = xp_cfg_build(&s->c, &s->sites);
  xp_places places = xp_places();
  places.sites = &s->sites;
  int ok =
      xprof_use_match(u, name, file, f, built ? &s->c.g : NULL, xp_places_fill, &places, &s->r);
  xp_places_free(&places);
  if (ok)
    return 0;
  remove_fake_edges();
  free_solution(s);
  return -1;
}

static uint64_t sample_scale = 1; /* counts from samples: see set_summary */

/* The count GCC is given for c: as measured, or, for counts placed from
 * time samples, scaled up by sample_scale and of AutoFDO's quality, as
 * GCC's own -fauto-profile gives them (a block without samples may still
 * have run: not "never executed"). */
static profile_count count_of(uint64_t c, bool sampled) {
  if (!sampled)
    return profile_count::from_gcov_type((gcov_type)c);
  c = MIN(xprof_sat_mul(c, sample_scale), (uint64_t)INT64_MAX);
  return profile_count::from_gcov_type((gcov_type)c).afdo();
}

/* Branch probabilities from the real (not fake) out-edges of each block:
 * a block's out-edges are consecutive in the graph (xp_cfg_build). */
static void set_probabilities(const solution *s, bool sampled) {
  const xprof_graph &g = s->c.g;
  const uint64_t *count = s->r.edge_count;
  for (uint32_t first = 0, end; first < g.n_edges; first = end) {
    uint64_t out = 0;
    for (end = first; end < g.n_edges && g.edges[end].src == g.edges[first].src; end++)
      if (!(g.edges[end].flags & (XPROF_EDGE_FAKE | XPROF_EDGE_IGNORE)))
        out = xprof_sat_add(out, count[end]);
    if (!out)
      continue; /* never left this way: keep the guess */
    for (uint32_t e = first; e < end; e++)
      if (!(g.edges[e].flags & (XPROF_EDGE_FAKE | XPROF_EDGE_IGNORE))) {
        profile_probability p =
            profile_probability::probability_in_gcov_type((gcov_type)count[e], (gcov_type)out);
        s->c.gcc_edges[e]->probability = sampled ? p.afdo() : p;
      }
  }
}

static void no_partition(cl_optimization *o, unsigned) {
  o->x_flag_reorder_blocks_and_partition = 0;
}

/* walk_tree callbacks: a label's address; a difference of expressions
 * one of which holds one. */
static tree label_address_r(tree *tp, int *, void *) {
  return TREE_CODE(*tp) == LABEL_DECL ? *tp : NULL_TREE;
}

static tree label_difference_r(tree *tp, int *, void *) {
  tree t = *tp;
  if (TREE_CODE(t) != MINUS_EXPR && TREE_CODE(t) != POINTER_DIFF_EXPR)
    return NULL_TREE;
  for (int i = 0; i < 2; i++)
    if (walk_tree_without_duplicates(&TREE_OPERAND(t, i), label_address_r, NULL))
      return t;
  return NULL_TREE;
}

/* Does a static variable of fndecl's keep a difference of its labels? */
static bool has_label_difference(tree fndecl) {
  varpool_node *v;
  FOR_EACH_VARIABLE(v) {
    tree init = DECL_INITIAL(v->decl);
    if (DECL_CONTEXT(v->decl) == fndecl && init && init != error_mark_node &&
        walk_tree_without_duplicates(&init, label_difference_r, NULL))
      return true;
  }
  return false;
}

/* GCC cannot split a function that keeps differences of its labels in
 * static data (&&a - &&b, as re2c's relative computed gotos write them):
 * the labels go to different sections, whose distance the assembler
 * cannot know ("can't resolve .text.hot - .L7"; GCC's own profile use
 * fails so on gcc.c-torture's pr70460.c).  Counts that make some of its
 * blocks cold would split it: it stays whole.  Labels' addresses alone
 * (a dispatch table, as lua's) are relocated wherever the labels go. */
static void keep_whole(void) {
  tree fndecl = current_function_decl;
  if (!cfun->has_forced_label_in_static ||
      !opt_for_fn(fndecl, flag_reorder_blocks_and_partition) || !has_label_difference(fndecl))
    return;
  if (tree whole = xp_derived_node(&whole_cache, fndecl, no_partition, 0))
    DECL_FUNCTION_SPECIFIC_OPTIMIZATION(fndecl) = whole;
}

/* A function that ran has its counts as measured, with or without partial
 * training.  profile.cc makes a block that never ran a guessed zero under
 * partial training; that kept lua's interpreter loop from being split
 * (bench/history.md), while what partial training is for -- code that
 * training never reached -- is whole functions.  The LLVM plugin does the
 * same. */
static void apply_counts(const solution *s, bool sampled) {
  basic_block bb;
  FOR_ALL_BB_FN(bb, cfun)
  bb->count = count_of(s->r.node_count[bb->index], sampled);
  /* Its hot call sites may inline more (hot_inline.cc). */
  if (tree hot = xp_hot_optimization(current_function_decl, hot_caches))
    DECL_FUNCTION_SPECIFIC_OPTIMIZATION(current_function_decl) = hot;
  keep_whole();
  set_probabilities(s, sampled);
}

/* The dump's record of each two-way block as GCC now has it: its count
 * and its first out-edge's probability (of REG_BR_PROB_BASE).  The same
 * source compiled with two profiles has the same blocks here, so
 * bench/bench_sample_accuracy.sh compares what samples and an exact
 * training make of each branch. */
static void dump_branches(const char *name) {
  if (!dump_file)
    return;
  basic_block bb;
  FOR_EACH_BB_FN(bb, cfun) {
    if (EDGE_COUNT(bb->succs) != 2 || !bb->count.initialized_p() ||
        !EDGE_SUCC(bb, 0)->probability.initialized_p())
      continue;
    fprintf(dump_file, "xprof: branch %s %d %" PRId64 " %d\n", name, bb->index,
            (int64_t)bb->count.to_gcov_type(), EDGE_SUCC(bb, 0)->probability.to_reg_br_prob_base());
  }
  /* With -details (-fdump-ipa-all-details: a plugin's pass has no dump
   * option of its own), the body too, its blocks with their counts and
   * lines, to see which source a record is of. */
  if (dump_flags & TDF_DETAILS)
    dump_function_to_file(current_function_decl, dump_file, TDF_BLOCKS | TDF_LINENO | TDF_DETAILS);
}

/* Never run in training: as profile.cc does, keep the guessed shape but
 * say it is globally zero, so that the function is optimized for size and
 * placed in .text.unlikely. */
static void make_cold(void) {
  basic_block bb;
  FOR_ALL_BB_FN(bb, cfun)
  if (!(bb->count == profile_count::zero()))
    bb->count = bb->count.global0();
}

/* GCC's own value-profile transformations (divisions by a frequent
 * constant, modulo by a power of two or by a few subtractions, string
 * operations of a frequent size), on histograms of f's records, where
 * -fprofile-use would run them (tree-profile.cc) and under the same
 * flag.  The counts must be set: GCC checks the histograms against them
 * and weighs the new branches by them. */
static void transform_values(const xprof_objfile *o, const xprof_proc *f, vec<xp_site> *sites,
                             xprof_use_stats *st) {
  if (!opt_for_fn(current_function_decl, flag_value_profile_transformations))
    return;
  if (!xp_apply_value_sites(o, f, sites))
    return;
  /* A transformation splits the statement's block (the specialized copy
   * goes before it): count the statements that moved. */
  vec<basic_block> was = vNULL;
  for (unsigned i = 0; i < sites->length(); i++)
    was.safe_push(gimple_bb((*sites)[i].stmt));
  if (gimple_value_profile_transformations()) {
    unsigned n = 0;
    for (unsigned i = 0; i < sites->length(); i++)
      n += (*sites)[i].kind != XPROF_SITE_CALL && gimple_bb((*sites)[i].stmt) != was[i] &&
           (i == 0 || (*sites)[i - 1].stmt != (*sites)[i].stmt);
    st->specialized += n;
    if (n)
      xprof_verbose(&xp_diag, XPROF_MSG_SPECIALIZED, f->name, n, xprof_plural(n));
  }
  was.release();
}

/* -xprofile_order: each function's calls, for the link's order. */
static xprof_calls *calls;

/* cfun's calls, with the counts of their blocks. */
static void record_calls(const solution *s, const xprof_objfile *o) {
  xprof_calls_function(calls, xp_function_name(current_function_decl), s->r.node_count,
                       s->c.g.n_nodes, xprof_use_records(&s->r), o ? o->n_values_per_vp : 0);
  basic_block bb;
  FOR_EACH_BB_FN(bb, cfun) {
    if ((uint32_t)bb->index >= s->c.g.n_nodes)
      continue;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
      if (tree callee = xp_direct_callee(gsi_stmt(gsi)))
        xprof_calls_call(calls, xp_function_name(callee), s->r.node_count[bb->index]);
  }
}

static void enable_profile(const xprof_use *u, bool flags);

/* Compile `decl` with the options it would have had without the
 * profile (plain_options.cc): the -fprofile-use flags the drivers add
 * pay where counts restrain them, and a function with none has nothing
 * to restrain them. */
static void keep_plain(tree decl) {
  if (tree plain = xp_plain_optimization(decl, &plain_cache))
    DECL_FUNCTION_SPECIFIC_OPTIMIZATION(decl) = plain;
}

/* Apply the counts of function `name` (f's, or its lines') to cfun.
 * Returns 0, or -1 when there are none that fit. */
static int annotate(xprof_use *u, const char *name, const xprof_proc *f) {
  solution s = {};
  if (solve(u, name, f, &s) < 0)
    return -1;
  enable_profile(u, false);
  const xprof_proc *vf = xprof_use_records(&s.r);
  bool untrained = s.r.node_count[XPROF_ENTRY] == 0;
  if (untrained && xp_opts.partial_training) {
    /* Never run in training, and partial training: the function keeps
     * GCC's estimate and no profile status, as with
     * -fprofile-partial-training, as if it had no data -- and the
     * options it would have had without the profile. */
    keep_plain(current_function_decl);
    remove_fake_edges();
    free_solution(&s);
    return 0;
  }
  const xprof_objfile *vo = xprof_use_values(u); /* what reads vf's values */
  if (untrained) {
    make_cold();
  } else {
    apply_counts(&s, xprof_use_fn_sampled(u, &s.r));
    dump_branches(name);
    if (calls)
      record_calls(&s, vo);
  }
  /* The time profile: with -fprofile-reorder-functions GCC emits the
   * functions that ran in the order of their first runs, before the
   * others (a rank GCC's int cannot hold is left out, as GCC does). */
  if (vf->first_run && vf->first_run < INT_MAX / 2)
    cgraph_node::get(current_function_decl)->tp_first_run = (int)vf->first_run;
  remove_fake_edges();
  profile_status_for_fn(cfun) = PROFILE_READ;
  record_loop_bounds();
  if (!untrained) {
    choose_promotions(vo, vf, s.sites);
    transform_values(vo, vf, &s.sites, &u->st);
  }
  update_max_bb_count();
  compute_function_frequency();
  free_dominance_info(CDI_DOMINATORS);
  free_dominance_info(CDI_POST_DOMINATORS);
  free_solution(&s);
  return 0;
}

/* GCC's notion of hot and unlikely needs a summary (cc1 crashes without
 * it), in its own terms: the training runs and the sum of each run's
 * largest counter, as its own profile keeps them.  Hot is then at least
 * sum_max / --param hot-bb-count-fraction, and "probably never executed"
 * fewer than one run in --param unlikely-bb-count-fraction.  The largest
 * counter of the merged runs instead (all an older profile, or text, can
 * give) makes the threshold lower than GCC's own after several runs of
 * unlike kinds, and more code is optimized for speed than with GCC's
 * profile of the same training.  All of it from the summary, which the
 * lookup and shipped data carry (and the compiler caches' keys:
 * tools/xprof-cc.c). */
static void set_summary(const xprof_summary *sm, bool sampled) {
  profile_info = XCNEW(gcov_summary);
  uint64_t runs, sum_max;
  xprof_known_runs(sm->runs, sm->run_max_sum, sm->total_max, &runs, &sum_max);
  profile_info->runs = (unsigned)MIN(MAX(runs, (uint64_t)1), (uint64_t)UINT_MAX);
  /* A merged counter is at most the sum of the runs' largest: the larger
   * of the two stands when some of the data did not know its runs. */
  sum_max = MAX(sum_max, sm->total_max);
  xp_hot_count = xprof_cutoff_count(sm, XPROF_HOT_CUTOFF);
  /* Time samples are few: a block that ran a million times may have two.
   * GCC also judges counts in absolute terms -- a block that ran no more
   * often than there were training runs is never hot (predict.cc) -- so
   * most of a sampled function would be optimized for size, where a plain
   * build optimizes it for speed.  The counts, and the summary with them,
   * are scaled up alike (every ratio stays), to about 2^30 at the
   * largest; later GCCs' own AutoFDO came to scale its counts so too. */
  sample_scale = 1;
  if (sampled && sum_max && sum_max < ((uint64_t)1 << 30)) {
    sample_scale = ((uint64_t)1 << 30) / sum_max;
    sum_max *= sample_scale;
    xp_hot_count = xprof_sat_mul(xp_hot_count, sample_scale);
  }
  profile_info->sum_max = (gcov_type)MIN(sum_max ? sum_max : 1, (uint64_t)INT64_MAX);
  if (dump_file)
    fprintf(dump_file,
            "xprof: training runs %u, sum of their largest counters %" PRId64
            ", hot from %" PRIu64 "\n",
            profile_info->runs, (int64_t)profile_info->sum_max, xp_hot_count);
  if (dump_file && sample_scale > 1)
    fprintf(dump_file, "xprof: time samples, their counts scaled by %" PRIu64 "\n", sample_scale);
}

/* Whether the unit reads as feedback: the summary and the flags set. */
static bool profile_enabled;

/* The summary, before the first function's frequencies are computed; the
 * flags, outside any function (push_cfun would restore a function's own
 * options over them): enable_profile(u, true) after each pop_cfun. */
static void enable_profile(const xprof_use *u, bool flags) {
  if (!profile_info)
    set_summary(xprof_use_summary(u), xprof_use_sampled(u));
  if (!flags || profile_enabled)
    return;
  profile_enabled = true;
  XP_SET_OPTIMIZATION(x_flag_branch_probabilities, 1);
  /* GCC's clones and inliner look at the flag as well (cgraphclones.cc). */
  XP_SET_OPTIMIZATION(x_flag_profile_partial_training, xp_opts.partial_training);
}

/* Does the unit have functions to miss the profile of? */
static bool has_functions(void) {
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION(node) {
    if (!xp_skip_function(node))
      return true;
  }
  return false;
}

/* Call statements and the call graph, in every function: the entry
 * counts become node counts, calls get their counts. */
static void rebuild_call_graph(void) {
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION(node) {
    if (!gimple_has_body_p(node->decl) || node->thunk ||
        (node->clone_of && node->decl == node->clone_of->decl))
      continue;
    push_cfun(DECL_STRUCT_FUNCTION(node->decl));
    cleanup_tree_cfg();
    update_ssa(TODO_update_ssa);
    cgraph_edge::rebuild_edges();
    pop_cfun();
  }
}

/* The module's calls section (-xprofile_order): what r recorded, or, r
 * just begun, an empty one that tells the link the object was compiled
 * for the order. */
static void add_calls_section(xprof_calls *r) {
  char *a = xprof_calls_end(r);
  if (a)
    symtab->finalize_toplevel_asm(build_string((int)strlen(a), a));
  xprof_free(a);
}

/* -xprofile_order: a function with hot code (GCC's hot: the blocks that
 * make most of the profile's counts, what puts a function in .text.hot)
 * gets a section of its own (.text.hot.NAME, .text.startup.NAME, as
 * -ffunction-sections names them) for the link to place; the others share
 * the compiler's sections (.text, .text.unlikely) as in a use build
 * without the order.  Objects with a section per function are larger and
 * slower to link (GNU ld reads each section apart), for no gain in code
 * that seldom runs.  GCC picks a function's section when it assembles it,
 * within the passes that PLUGIN_ALL_PASSES_START begins for that
 * function; flag_function_sections is the user's again at
 * PLUGIN_ALL_PASSES_END. */
static int user_function_sections;

static void own_section_start(void *, void *) {
  user_function_sections = flag_function_sections;
  cgraph_node *node = current_function_decl ? cgraph_node::get(current_function_decl) : NULL;
  if (node && node->frequency == NODE_FREQUENCY_HOT)
    flag_function_sections = 1;
}

static void own_section_end(void *, void *) { flag_function_sections = user_function_sections; }

void xp_order_sections(const char *plugin_name) {
  register_callback(plugin_name, PLUGIN_ALL_PASSES_START, own_section_start, NULL);
  register_callback(plugin_name, PLUGIN_ALL_PASSES_END, own_section_end, NULL);
}

void xp_use_execute(void) {
  /* Every function gets the profile id GCC's own profiling gives it
   * (tree-profile.cc), which link-time promotion looks targets up by
   * (hand_to_link_time), in every object file, with data or without. */
  if (flag_lto) {
    init_node_map(true);
    del_node_map();
  }
  size_t n_shipped;
  const char *shipped = xp_shipped_data(&n_shipped);
  xprof_use u;
  if (!xprof_use_open(&u, &xp_opts, &xp_diag, xp_object_path(), shipped, n_shipped,
                      has_functions())) {
    if (xp_opts.order)
      add_calls_section(xprof_calls_begin());
    xprof_use_close(&u);
    return;
  }
  /* An object file known only by its lines reads as feedback only once
   * some function's counts are placed: until then it is compiled as
   * without a profile. */
  profile_enabled = false;
  if (u.obj)
    enable_profile(&u, true);
  calls = xp_opts.order ? xprof_calls_begin() : NULL;
  plain_cache = xp_plain_cache();
  hot_caches[0] = hot_caches[1] = hot_caches[2] = xp_node_cache();
  whole_cache = xp_node_cache();
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION(node) {
    if (xp_skip_function(node))
      continue;
    const char *name = xp_function_name(node->decl);
    const xprof_proc *f;
    int placed = -1;
    if (xprof_use_find(&u, name, DECL_SOURCE_FILE(node->decl), &f)) {
      push_cfun(DECL_STRUCT_FUNCTION(node->decl));
      placed = annotate(&u, name, f);
      pop_cfun();
    }
    if (placed == 0)
      enable_profile(&u, true);
    else if (xprof_use_sampled(&u))
      keep_plain(node->decl);
  }
  rebuild_call_graph();
  if (!profile_enabled) {
    add_calls_section(calls);
    calls = NULL;
    xprof_use_close(&u);
    return;
  }
  /* Functions left without counts (stale, missing) are given counts that
   * fit their callers.  GCC warns about each through a plain warning,
   * which -Werror would turn into an error: ours said it already. */
  bool inhibit = global_dc->dc_inhibit_warnings;
  global_dc->dc_inhibit_warnings = true;
  handle_missing_profiles();
  global_dc->dc_inhibit_warnings = inhibit;
  split_functions_with_profile();
  u.st.promoted = make_promotions_speculative();
  add_calls_section(calls);
  calls = NULL;
  xprof_use_close(&u);
}
