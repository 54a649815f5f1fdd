/*
 * collect.cc - -xprofile=collect: counters on the edges off a spanning
 * tree, value-profile calls before the values GCC's own profiler measures
 * (values.cc), and the object file's
 * descriptor (runtime/xprof_rt.h) with a constructor that registers it.
 *
 * Counters of ordinary functions live in one array per object file.  A
 * comdat function (C++ inline functions, templates) gets an array of its
 * own in a comdat group named after the function and its signature, so
 * the linker keeps one array with the one copy of the code it keeps, and
 * every object file that has the function records the same counts.
 *
 * With per-thread counters (update=thread, the default), code that goes
 * into an executable counts with plain adds in a thread-local twin of
 * each array (static TLS: %fs:TWIN@tpoff + 8i, nothing at function
 * entry); the object's constructor tells the runtime where the twins are
 * (runtime/threads.c).  Other code (-fPIC, whose TLS may be dynamic)
 * gives each array a thread-local word D, and each function finds the
 * calling thread's copy of its array at entry: a distance d in words, so
 * that counter i is updated as ARRAY[d + i] with plain adds.  Written
 * that way the access is still one to ARRAY as far as GCC's alias
 * analysis knows, a variable nothing else aliases, so the program's own
 * loads and stores are optimized as without counters.  (Collect builds
 * turn store motion off: plugin.cc.)
 */
#include "gcc-common.h"


#include "xprof-gcc.h"
#include "xprof_rt_records.h"

/* A site's record type and its state: where it starts among its
 * function's states, and its first word. */
struct xp_site_layout {
  unsigned char vp_type; /* XPROF_RT_VP_* */
  unsigned char kind;    /* enum xp_site_kind */
  uint32_t offset;
  uint64_t word0;
};

struct xp_fn {
  const char *name;
  tree decl;
  uint64_t signature;
  uint32_t n_counters; /* including debug counters */
  uint32_t n_vp_sites;
  uint32_t first_site; /* its sites in collect_ctx.sites */
  uint32_t vp_words;   /* of all its sites' states (comdat: and first run) */
  uint32_t first_run;  /* its first-run word: in first_run_var, or in var;
                        * XP_NO_FIRST_RUN: none */
  tree var;            /* counters (and, for comdat, value-profile state) */
  tree word;           /* per-thread: var's thread-local word, or */
  tree twin;           /* var's thread-local twin, and */
  tree twin_cell;      /* the word the constructor points at the twin */
  uint32_t base;       /* first counter in var */
  uint32_t vp_base;    /* first state word: in vp var, or in var (comdat) */
  bool comdat;
  bool take_address;
  unsigned char *shape; /* xprof_shape_encode's, or NULL */
  size_t shape_size;
};

/* The function's shape, for salvaging its counts after an edit (none
 * when out of memory: the function is profiled all the same). */
static void record_shape(xp_fn *f, const xp_cfg *g, const vec<xp_site> *sites) {
  xprof_shape s;
  xp_shape_of(g, sites, &s);
  if (xprof_shape_encode(&s, &f->shape, &f->shape_size) < 0)
    f->shape = NULL;
  xp_shape_free_sites(&s);
}

/* What instrumenting one object file builds up (llvm-pass/collect.c has
 * the same). */
struct collect_ctx {
  vec<xp_fn> fns;
  tree ctr_var, vp_var; /* the object file's counters and value states */
  tree first_run_var;   /* and first-run words */
  uint32_t n_ctrs, n_vp_words, n_first_runs;
  vec<uint32_t> vp_site_words; /* state offsets, object-wide vp_var */
  vec<uint64_t> vp_site_word0; /* and their first words */
  vec<xp_site_layout> sites;   /* every function's sites, in order */
  tree recorder[XPROF_RT_VP_PROC + 1]; /* __xprof_vp_* by type */
  tree thread_fn_decl;
  tree first_runs; /* __xprof_first_runs */
  tree thread_var; /* per-thread: the object array's thread-local word */
  tree twin_var, twin_cell; /* or its thread-local twin, and its cell */
  tree thread_delta; /* cfun's distance to its thread copy (SSA name) */
  FILE *cfg_dump;
  xprof_linetab *lines; /* the coverage table */
};

static tree counter_type(void) { return get_gcov_type(); }

static bool per_thread(void) { return xp_opts.update == XP_UPDATE_THREAD; }

/* Thread-local twins: for code that goes into an executable, whose TLS is
 * static (a shared library's may not be). */
static bool use_twins(void) {
  return per_thread() && xp_opts.tls_counters && !flag_shlib;
}

/* A static array whose size is fixed at the end (as coverage.cc does). */
static tree open_array(const char *name) {
  tree v = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name),
                      build_array_type(counter_type(), NULL_TREE));
  TREE_STATIC(v) = 1;
  TREE_ADDRESSABLE(v) = 1;
  DECL_NONALIASED(v) = 1;
  DECL_ARTIFICIAL(v) = 1;
  DECL_IGNORED_P(v) = 1;
  return v;
}

static void close_array(tree v, uint32_t n, tree init) {
  if (n == 0)
    n = 1;
  TREE_TYPE(v) = build_array_type(counter_type(), build_index_type(size_int(n - 1)));
  DECL_SIZE(v) = TYPE_SIZE(TREE_TYPE(v));
  DECL_SIZE_UNIT(v) = TYPE_SIZE_UNIT(TREE_TYPE(v));
  SET_DECL_ALIGN(v, TYPE_ALIGN(TREE_TYPE(v)));
  DECL_INITIAL(v) = init;
  varpool_node::finalize_decl(v);
}

/* Initial value of value-profile states: word 0 of each (xprof_rt.h). */
static tree vp_initializer(tree type, const uint32_t *offsets, const uint64_t *word0,
                           unsigned n, uint32_t shift) {
  if (n == 0)
    return NULL_TREE;
  vec<constructor_elt, va_gc> *v = NULL;
  for (unsigned i = 0; i < n; i++)
    CONSTRUCTOR_APPEND_ELT(v, size_int(offsets[i] + shift),
                           build_int_cst(counter_type(), (HOST_WIDE_INT)word0[i]));
  return build_constructor(type, v);
}

static tree element(tree var, uint32_t idx) {
  return build4(ARRAY_REF, counter_type(), var,
                build_int_cst(integer_type_node, idx), NULL_TREE, NULL_TREE);
}

/* A string literal as the C front end makes it for asm operands. */
static tree asm_string(const char *s) {
  int len = (int)strlen(s) + 1;
  tree str = build_string(len, s);
  TREE_TYPE(str) = build_array_type(build_type_variant(char_type_node, 1, 0),
                                    build_index_type(size_int(len - 1)));
  TREE_CONSTANT(str) = TREE_READONLY(str) = TREE_STATIC(str) = 1;
  return str;
}

static tree asm_operand(const char *constraint, tree value) {
  return build_tree_list(build_tree_list(NULL_TREE, asm_string(constraint)), value);
}

/* Counters as one x86-64 instruction in an "asm inline": the code is the
 * add GCC would emit for the load, add and store, but GCC's size
 * estimates (inlining, unrolling, jump threading) count one statement
 * instead of three, or a call with its arguments for an atomic add, so
 * counters cost less inlining: collect builds inline nearer to what
 * plain builds do (docs/performance-history.md).  Volatile: nothing
 * may move, merge or drop a count, and loop invariant motion has no
 * counter to keep in a register (plugin.cc).  GCC's counter type is
 * 64-bit on every x86 ABI; -m32 gets GIMPLE. */
bool xp_counters_in_asm(void) {
#ifdef TARGET_64BIT
  return !xp_opts.no_asm_counters && TARGET_64BIT;
#else
  return false;
#endif
}

static const char asm_add[] = "{addq\t$1, %0|add\t%0, 1}";
static const char asm_lock_add[] = "lock {addq\t$1, %0|add\t%0, 1}";

bool xp_is_counter_asm(const char *tmpl) {
  return strcmp(tmpl, asm_add) == 0 || strcmp(tmpl, asm_lock_add) == 0;
}

static gimple *asm_increment(tree ref, bool atomic) {
  vec<tree, va_gc> *in = NULL, *out = NULL;
  vec_safe_push(out, asm_operand("=m", ref));
  vec_safe_push(in, asm_operand("m", unshare_expr(ref)));
  gasm *a = gimple_build_asm_vec(atomic ? asm_lock_add : asm_add, in, out, NULL, NULL);
  gimple_asm_set_volatile(a, true);
  gimple_asm_set_inline(a, true);
  return a;
}

/* ref += 1, atomically (relaxed) or as a load, an add and a store. */
static gimple_seq increment_seq(tree ref, bool atomic, const char *tmp_name) {
  gimple_seq seq = NULL;
  tree one = build_int_cst(counter_type(), 1);
  if (xp_counters_in_asm()) {
    gimple_seq_add_stmt(&seq, asm_increment(ref, atomic));
    return seq;
  }
  if (atomic) {
    gimple_seq_add_stmt(&seq, gimple_build_call(builtin_decl_explicit(BUILT_IN_ATOMIC_FETCH_ADD_8),
                                                3, build_fold_addr_expr(ref), one,
                                                build_int_cst(integer_type_node, MEMMODEL_RELAXED)));
    return seq;
  }
  tree t1 = make_temp_ssa_name(counter_type(), NULL, tmp_name);
  tree t2 = make_temp_ssa_name(counter_type(), NULL, tmp_name);
  gimple_seq_add_stmt(&seq, gimple_build_assign(t1, ref));
  gimple_seq_add_stmt(&seq, gimple_build_assign(t2, PLUS_EXPR, t1, one));
  gimple_seq_add_stmt(&seq, gimple_build_assign(unshare_expr(ref), t2));
  return seq;
}

static void insert_increment(collect_ctx *c, edge e, tree var, uint32_t idx) {
  tree ref = element(var, idx);
  if (c->thread_delta) {
    tree i = make_temp_ssa_name(long_integer_type_node, NULL, "PROF_idx");
    gsi_insert_on_edge(e, gimple_build_assign(i, PLUS_EXPR, c->thread_delta,
                                              build_int_cst(long_integer_type_node, idx)));
    ref = build4(ARRAY_REF, counter_type(), var, i, NULL_TREE, NULL_TREE);
  }
  gsi_insert_seq_on_edge(e, increment_seq(ref, xp_opts.update == XP_UPDATE_ATOMIC, "PROF_edge"));
}

/* The runtime's recorder of a site of the given type, whose second
 * parameter has the type of xp_site_value's result for it. */
static tree get_recorder(collect_ctx *c, unsigned vp_type) {
  if (c->recorder[vp_type])
    return c->recorder[vp_type];
  const char *name;
  tree arg;
  if (vp_type == XPROF_RT_VP_PROC) {
    name = xp_opts.update == XP_UPDATE_SINGLE ? "__xprof_vp_proc_single" : "__xprof_vp_proc";
    arg = const_ptr_type_node;
  } else {
    name = vp_type == XPROF_RT_VP_INT ? "__xprof_vp_int" : "__xprof_vp_llong";
    arg = get_gcov_type();
  }
  tree decl = build_fn_decl(name, build_function_type_list(void_type_node, ptr_type_node,
                                                            arg, NULL_TREE));
  TREE_NOTHROW(decl) = 1;
  DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("leaf"), NULL, DECL_ATTRIBUTES(decl));
  return c->recorder[vp_type] = decl;
}

/* A new block after `after`, in its loop, that runs with probability p
 * of `from`'s count. */
static basic_block vp_block(basic_block after, basic_block from, profile_probability p) {
  basic_block b = create_empty_bb(after);
  if (current_loops)
    add_bb_to_loop(b, from->loop_father);
  b->count = from->count.apply_probability(p);
  return b;
}

static void vp_edge(basic_block from, basic_block to, int flags, profile_probability p) {
  make_edge(from, to, flags)->probability = p;
}

/* Before a site's statement, record its value (a callee, a divisor, a
 * size: values.cc):
 *
 *   head:  if (STATE.value[0] == (uint64) v) goto fast0; else goto next1;
 *   next1: if (STATE.value[1] == (uint64) v) goto fast1; else goto slow;
 *   fastK: STATE.count[K] += 1;              (atomically but with single)
 *   slow:  __xprof_vp_TYPE (&STATE, v);
 *   join:  the statement
 *
 * The runtime keeps the most frequent values in front, so most events
 * cost a compare, a branch and an add instead of a call and a scan of
 * the pairs in the runtime.  The runtime counts a kept value with the
 * same add.  A free pair is value 0 with count 0: a value 0 counted in
 * it is kept there, as the runtime would keep it. */
static void insert_vp_site(collect_ctx *c, const xp_site *site, tree state_var, uint32_t word) {
  gimple_stmt_iterator gsi = gsi_for_stmt(site->stmt);
  tree arg = xp_site_value(site, &gsi);
  tree value = arg;
  if (site->kind == XP_SITE_CALL) {
    value = make_temp_ssa_name(counter_type(), NULL, "PROF_fn");
    gsi_insert_before(&gsi, gimple_build_assign(value, NOP_EXPR, arg), GSI_SAME_STMT);
  }
  gsi_prev(&gsi);
  basic_block head = gimple_bb(site->stmt);
  edge rest = split_block(head, gsi_stmt(gsi));
  basic_block join = rest->dest;
  profile_count total = head->count;
  remove_edge(rest);

  basic_block check = head, after = head;
  profile_probability hit = profile_probability::likely();
  for (uint32_t k = 0; k < XPROF_RT_VP_INLINE_PAIRS && k < xp_opts.values_per_site; k++) {
    tree kept = make_temp_ssa_name(counter_type(), NULL, "PROF_vp");
    gimple_stmt_iterator g = gsi_last_bb(check);
    gsi_insert_after(&g, gimple_build_assign(kept, element(state_var, word + 2 + 2 * k)),
                     GSI_NEW_STMT);
    gsi_insert_after(&g, gimple_build_cond(EQ_EXPR, kept, value, NULL_TREE, NULL_TREE),
                     GSI_NEW_STMT);
    basic_block fast = vp_block(after, check, hit);
    g = gsi_last_bb(fast);
    gsi_insert_seq_after(&g, increment_seq(element(state_var, word + 3 + 2 * k),
                                           xp_opts.update != XP_UPDATE_SINGLE, "PROF_vp"),
                         GSI_NEW_STMT);
    vp_edge(check, fast, EDGE_TRUE_VALUE, hit);
    vp_edge(fast, join, EDGE_FALLTHRU, profile_probability::always());
    basic_block next = vp_block(fast, check, hit.invert());
    vp_edge(check, next, EDGE_FALSE_VALUE, hit.invert());
    check = after = next;
  }
  /* check is now the slow path. */
  gimple_stmt_iterator g = gsi_last_bb(check);
  gsi_insert_after(&g, gimple_build_call(get_recorder(c, site->vp_type), 2,
                                         build_fold_addr_expr(element(state_var, word)), arg),
                   GSI_NEW_STMT);
  vp_edge(check, join, EDGE_FALLTHRU, profile_probability::always());
  join->count = total;
  if (current_loops)
    loops_state_set(LOOPS_NEED_FIXUP);
}

/* Before a string operation, count its size in its histogram's bucket,
 * min (size, XPROF_RT_VP_HIST_LONGEST + 1), without a call: sizes vary
 * a lot (sqlite's), and GCC specializes only short ones. */
static void insert_length_count(const xp_site *site, tree state_var, uint32_t word) {
  gimple_stmt_iterator gsi = gsi_for_stmt(site->stmt);
  tree len = xp_site_value(site, &gsi); /* unsigned */
  tree bucket = make_temp_ssa_name(TREE_TYPE(len), NULL, "PROF_len");
  gsi_insert_before(&gsi, gimple_build_assign(bucket, MIN_EXPR, len,
                                              build_int_cst(TREE_TYPE(len),
                                                            XPROF_RT_VP_HIST_BUCKETS - 1)),
                    GSI_SAME_STMT);
  tree ix = make_temp_ssa_name(sizetype, NULL, "PROF_len");
  gsi_insert_before(&gsi, gimple_build_assign(ix, NOP_EXPR, bucket), GSI_SAME_STMT);
  tree at = make_temp_ssa_name(sizetype, NULL, "PROF_len");
  gsi_insert_before(&gsi, gimple_build_assign(at, PLUS_EXPR, ix, size_int(word + 2)),
                    GSI_SAME_STMT);
  ix = at;
  tree ref = build4(ARRAY_REF, counter_type(), state_var, ix, NULL_TREE, NULL_TREE);
  gsi_insert_seq_before(&gsi, increment_seq(ref, xp_opts.update != XP_UPDATE_SINGLE, "PROF_len"),
                        GSI_SAME_STMT);
}

/* Before each site's statement, record its value (sites found before
 * any block was split). */
static void insert_vp_calls(collect_ctx *c, const vec<xp_site> &sites,
                            const xp_site_layout *layout, tree var, uint32_t first_word) {
  for (unsigned k = 0; k < sites.length(); k++) {
    if (sites[k].kind == XP_SITE_LENGTH)
      insert_length_count(&sites[k], var, first_word + layout[k].offset);
    else
      insert_vp_site(c, &sites[k], var, first_word + layout[k].offset);
  }
}

/* ---- per-thread counters: twins and thread-local words --------------- */

/* A comdat variable: one per program, whoever defines it. */
static void make_comdat(tree v) {
  TREE_PUBLIC(v) = 1;
  DECL_VISIBILITY(v) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED(v) = 1;
  make_decl_one_only(v, DECL_ASSEMBLER_NAME(v));
}

/* An array's thread-local twin (sized later for the object's array);
 * local-exec, as the twins are only for executables. */
static tree twin_array(const char *name, bool comdat, uint32_t n) {
  tree v = open_array(name);
  if (comdat)
    make_comdat(v);
  set_decl_tls_model(v, decl_default_tls_model(v));
  if (comdat)
    close_array(v, n, NULL_TREE);
  return v;
}

/* A zero-initialized word of the object file (one per program if comdat);
 * finalized, thread-local if asked. */
static tree word_var(const char *name, tree type, bool comdat, bool tls) {
  tree v = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
  TREE_STATIC(v) = 1;
  TREE_ADDRESSABLE(v) = 1;
  DECL_ARTIFICIAL(v) = 1;
  DECL_IGNORED_P(v) = 1;
  if (comdat)
    make_comdat(v);
  if (tls) /* local-exec in executables: one load from the thread pointer */
    set_decl_tls_model(v, decl_default_tls_model(v));
  varpool_node::finalize_decl(v);
  return v;
}

/* The word the constructor points at a twin in the registering thread. */
static tree twin_cell_var(const char *name, bool comdat) {
  return word_var(name, build_pointer_type(counter_type()), comdat, false);
}

/* The thread-local word of an array: the distance to this thread's copy. */
static tree thread_word(const char *name, bool comdat) {
  return word_var(name, long_integer_type_node, comdat, true);
}

/* ---- per-thread counters: the code at function entry ------------------- */

static tree get_thread_fn_decl(collect_ctx *c) {
  if (!c->thread_fn_decl) {
    tree type = build_function_type_list(long_integer_type_node, ptr_type_node,
                                         ptr_type_node, NULL_TREE);
    c->thread_fn_decl = build_fn_decl("__xprof_thread_counters", type);
    TREE_NOTHROW(c->thread_fn_decl) = 1;
    DECL_ATTRIBUTES(c->thread_fn_decl) =
        tree_cons(get_identifier("leaf"), NULL,
                  tree_cons(get_identifier("cold"), NULL, NULL_TREE));
  }
  return c->thread_fn_decl;
}

/* On x86-64 the slow path is an asm statement that calls the runtime's
 * trampoline (runtime/threads_pm.S) through the GOT, which keeps every
 * register but the result: GCC then sees no call, and a small leaf
 * function stays a leaf that saves no registers and sets up no frame for
 * a path taken once per thread.  The trampoline keeps the x87/SSE state but not the upper
 * halves of wider vector registers, so a function that receives wider
 * vectors calls the plain entry point. */
static bool slow_path_in_asm(void) {
#if defined(__x86_64__)
  if (!TARGET_LP64)
    return false;
  for (tree a = DECL_ARGUMENTS(current_function_decl); a; a = DECL_CHAIN(a)) {
    tree size = TYPE_SIZE_UNIT(TREE_TYPE(a));
    if (!size || !tree_fits_uhwi_p(size))
      return false;
    unsigned HOST_WIDE_INT n = tree_to_uhwi(size);
    if (n > 16 && (VECTOR_TYPE_P(TREE_TYPE(a)) || n == 32 || n == 64))
      return false; /* a vector, or an aggregate that may be one */
  }
  return true;
#else
  return false;
#endif
}

static gasm *slow_path_asm(tree result, tree array_addr, tree word_addr) {
  vec<tree, va_gc> *in = NULL, *out = NULL, *clobbers = NULL;
  vec_safe_push(out, asm_operand("=a", result));
  /* rax and rcx: a function's first three arguments stay in place. */
  vec_safe_push(in, asm_operand("a", array_addr));
  vec_safe_push(in, asm_operand("c", word_addr));
  vec_safe_push(clobbers, build_tree_list(NULL_TREE, asm_string("cc")));
  vec_safe_push(clobbers, build_tree_list(NULL_TREE, asm_string("memory")));
  gasm *a = gimple_build_asm_vec("lea -128(%%rsp), %%rsp\n\t"
                                 "call *__xprof_thread_counters_asm@GOTPCREL(%%rip)\n\t"
                                 "lea 128(%%rsp), %%rsp",
                                 in, out, clobbers, NULL);
  gimple_asm_set_volatile(a, true);
  return a;
}

/* Between the entry and the function's first block:
 *
 *   b0:   value = REF; if (value != 0) goto join; else goto slow;
 *   slow: (the caller's)
 *   join:
 *
 * with p_slow the probability of slow.  Returns slow; *to_join gets the
 * edge from b0 to join. */
static basic_block entry_test(tree value, tree ref, profile_probability p_slow,
                              edge *to_join) {
  basic_block entry = ENTRY_BLOCK_PTR_FOR_FN(cfun);
  profile_count count = single_succ(entry)->count;
  basic_block b0 = split_edge(single_succ_edge(entry));
  basic_block join = split_edge(single_succ_edge(b0));
  basic_block slow = split_edge(single_succ_edge(b0));
  gimple_stmt_iterator g = gsi_last_bb(b0);
  gsi_insert_after(&g, gimple_build_assign(value, ref), GSI_NEW_STMT);
  gsi_insert_after(&g, gimple_build_cond(NE_EXPR, value, build_int_cst(TREE_TYPE(value), 0),
                                         NULL_TREE, NULL_TREE),
                   GSI_NEW_STMT);
  edge to_slow = single_succ_edge(b0);
  to_slow->flags = (to_slow->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
  to_slow->probability = p_slow;
  *to_join = make_edge(b0, join, EDGE_TRUE_VALUE);
  (*to_join)->probability = p_slow.invert();
  b0->count = join->count = count;
  slow->count = count.apply_probability(p_slow);
  if (current_loops)
    loops_state_set(LOOPS_NEED_FIXUP);
  return slow;
}

/* Per-thread counters without a twin: at entry,
 *
 *   b0:   d1 = D; if (d1 != 0) goto join; else goto slow;
 *   slow: d2 = __xprof_thread_counters (&ARRAY, &D);
 *   join: delta = PHI <d1 (b0), d2 (slow)>
 */
static void emit_thread_entry(collect_ctx *c, tree var, tree word, tree delta) {
  tree d1 = make_temp_ssa_name(long_integer_type_node, NULL, "PROF_delta");
  edge to_join;
  basic_block slow =
      entry_test(d1, word, profile_probability::very_likely().invert(), &to_join);

  tree d2 = make_temp_ssa_name(long_integer_type_node, NULL, "PROF_delta");
  gimple_stmt_iterator g = gsi_last_bb(slow);
  if (slow_path_in_asm()) {
    /* Addresses of thread-locals are not invariants: into temporaries. */
    tree array_addr = make_temp_ssa_name(ptr_type_node, NULL, "PROF_array");
    tree word_addr = make_temp_ssa_name(ptr_type_node, NULL, "PROF_word");
    gsi_insert_after(&g, gimple_build_assign(array_addr,
                                             build_fold_addr_expr(element(var, 0))),
                     GSI_NEW_STMT);
    gsi_insert_after(&g, gimple_build_assign(word_addr, build_fold_addr_expr(word)),
                     GSI_NEW_STMT);
    gasm *a = slow_path_asm(d2, array_addr, word_addr);
    gsi_insert_after(&g, a, GSI_NEW_STMT);
    SSA_NAME_DEF_STMT(d2) = a;
    update_stmt(a);
  } else {
    gcall *call = gimple_build_call(get_thread_fn_decl(c), 2,
                                    build_fold_addr_expr(element(var, 0)),
                                    build_fold_addr_expr(word));
    gimple_call_set_lhs(call, d2);
    gsi_insert_after(&g, call, GSI_NEW_STMT);
  }

  gphi *phi = create_phi_node(delta, to_join->dest);
  add_phi_arg(phi, d1, to_join, UNKNOWN_LOCATION);
  add_phi_arg(phi, d2, single_succ_edge(slow), UNKNOWN_LOCATION);
}

#define XP_NO_FIRST_RUN UINT32_MAX

/* The time profile, unless the user said -fno-profile-reorder-functions
 * (it costs a load and a compare per call: docs/performance.md). */
static bool time_profile(void) {
  return !(global_options_set.x_flag_profile_reorder_functions && !flag_profile_reorder_functions);
}

/* __xprof_first_runs, the ranks given so far (runtime/first_run.c). */
static tree first_runs_decl(collect_ctx *c) {
  if (!c->first_runs) {
    c->first_runs = build_decl(BUILTINS_LOCATION, VAR_DECL,
                               get_identifier("__xprof_first_runs"), counter_type());
    TREE_PUBLIC(c->first_runs) = 1;
    DECL_EXTERNAL(c->first_runs) = 1;
    TREE_STATIC(c->first_runs) = 1;
    DECL_ARTIFICIAL(c->first_runs) = 1;
    TREE_ADDRESSABLE(c->first_runs) = 1;
  }
  return c->first_runs;
}

/* The time profile (runtime/first_run.c): at entry,
 *
 *   b0:   t = WORD; if (t != 0) goto join; else goto slow;
 *   slow: WORD = __atomic_add_fetch (&__xprof_first_runs, 1, relaxed);
 *   join:
 *
 * as GCC's own time profiler does it. */
static void emit_first_run_entry(tree first_runs, tree word) {
  tree t = make_temp_ssa_name(counter_type(), NULL, "PROF_first_run");
  edge to_join;
  basic_block slow =
      entry_test(t, word, profile_probability::very_unlikely(), &to_join);
  tree rank = make_temp_ssa_name(counter_type(), NULL, "PROF_rank");
  gcall *add = gimple_build_call(builtin_decl_explicit(BUILT_IN_ATOMIC_ADD_FETCH_8), 3,
                                 build_fold_addr_expr(first_runs),
                                 build_int_cst(counter_type(), 1),
                                 build_int_cst(integer_type_node, MEMMODEL_RELAXED));
  gimple_call_set_lhs(add, rank);
  gimple_stmt_iterator g = gsi_last_bb(slow);
  gsi_insert_after(&g, add, GSI_NEW_STMT);
  gsi_insert_after(&g, gimple_build_assign(unshare_expr(word), rank), GSI_NEW_STMT);
}

/* The test goes in after inlining, in the function bodies that remain
 * (xp_first_run_execute): a small function inlined into a hot loop would
 * otherwise test its word on every iteration (collect builds of sqlite
 * ran 6% more instructions so), and what use builds order is the bodies
 * that remain.  Until then the function's attribute names its word and
 * __xprof_first_runs (which it keeps alive for the garbage collector).
 * Under -flto the bodies are optimized in lto1, where the plugin does
 * not run: the test goes in now. */
static const char first_run_attr[] = "xprof first run";

static void first_run_entry(collect_ctx *c, const xp_fn *f) {
  tree var = f->comdat ? f->var : c->first_run_var;
  if (flag_lto) {
    emit_first_run_entry(first_runs_decl(c), element(var, f->first_run));
    return;
  }
  tree value = tree_cons(size_int(f->first_run), var,
                         tree_cons(NULL_TREE, first_runs_decl(c), NULL_TREE));
  DECL_ATTRIBUTES(f->decl) =
      tree_cons(get_identifier(first_run_attr), value, DECL_ATTRIBUTES(f->decl));
}

unsigned xp_first_run_execute(void) {
  tree a = lookup_attribute(first_run_attr, DECL_ATTRIBUTES(current_function_decl));
  if (!a)
    return 0;
  tree value = TREE_VALUE(a);
  emit_first_run_entry(TREE_VALUE(TREE_CHAIN(value)),
                       element(TREE_VALUE(value), (uint32_t)tree_to_uhwi(TREE_PURPOSE(value))));
  cgraph_edge::rebuild_edges();
  /* The new blocks change the dominators that the SSA update needs. */
  free_dominance_info(CDI_DOMINATORS);
  free_dominance_info(CDI_POST_DOMINATORS);
  mark_virtual_operands_for_renaming(cfun);
  return TODO_update_ssa_only_virtuals;
}

static bool is_comdat(tree decl) { return DECL_COMDAT_GROUP(decl) != NULL_TREE; }

/* A comdat function's own arrays (counters, value states and first-run
 * word, and its twin or thread-local word), named alike in every object
 * file that has a copy of the function, so that the linker keeps one.
 * The name's key covers every word of the array -- the first-run word
 * as one more state of one word -- so that copies of another layout (the
 * LLVM pass's has no first-run word) never share an array. */
static void comdat_arrays(collect_ctx *c, xp_fn *f, const xp_cfg *g, uint32_t n_debug) {
  const xp_site_layout *sites = &c->sites[f->first_site];
  vec<uint32_t> site_words = vNULL;
  for (uint32_t s = 0; s < f->n_vp_sites; s++)
    site_words.safe_push((s + 1 < f->n_vp_sites ? sites[s + 1].offset : f->vp_words) -
                         sites[s].offset);
  f->first_run = XP_NO_FIRST_RUN;
  if (time_profile()) {
    f->first_run = f->n_counters + f->vp_words++;
    site_words.safe_push(1);
  }
  uint64_t key = xprof_comdat_key(f->signature, g->edges, g->n_edges, n_debug != 0,
                                  site_words.address(), site_words.length());
  site_words.release();
  char *name = xprof_comdat_array_name(XPROF_COMDAT_COUNTERS, f->name, key);
  uint32_t total = f->n_counters + f->vp_words;
  tree type = build_array_type(counter_type(), build_index_type(size_int(total ? total - 1 : 0)));
  tree v = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
  xprof_free(name);
  TREE_STATIC(v) = 1;
  TREE_PUBLIC(v) = 1;
  TREE_ADDRESSABLE(v) = 1;
  DECL_ARTIFICIAL(v) = 1;
  DECL_IGNORED_P(v) = 1;
  DECL_VISIBILITY(v) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED(v) = 1;
  vec<uint32_t> offs = vNULL;
  vec<uint64_t> word0 = vNULL;
  for (uint32_t s = 0; s < f->n_vp_sites; s++) {
    offs.safe_push(sites[s].offset);
    word0.safe_push(sites[s].word0);
  }
  DECL_INITIAL(v) =
      vp_initializer(type, offs.address(), word0.address(), offs.length(), f->n_counters);
  offs.release();
  word0.release();
  make_decl_one_only(v, DECL_ASSEMBLER_NAME(v));
  varpool_node::finalize_decl(v);
  f->var = v;
  f->base = 0;
  f->vp_base = f->n_counters;
  if (use_twins() && f->n_counters) {
    name = xprof_comdat_array_name(XPROF_COMDAT_TWIN, f->name, key);
    f->twin = twin_array(name, true, f->n_counters);
    xprof_free(name);
    name = xprof_comdat_array_name(XPROF_COMDAT_TWIN_CELL, f->name, key);
    f->twin_cell = twin_cell_var(name, true);
    xprof_free(name);
  } else if (per_thread() && f->n_counters) {
    name = xprof_comdat_array_name(XPROF_COMDAT_THREAD_WORD, f->name, key);
    f->word = thread_word(name, true);
    xprof_free(name);
  }
}

/* Any other function's share of the object file's arrays. */
static void object_arrays(collect_ctx *c, xp_fn *f) {
  f->var = c->ctr_var;
  if (use_twins()) {
    if (!c->twin_var) {
      c->twin_var = twin_array(XPROF_COMDAT_TWIN, false, 0);
      c->twin_cell = twin_cell_var(XPROF_COMDAT_TWIN_CELL, false);
    }
    f->twin = c->twin_var;
    f->twin_cell = c->twin_cell;
  } else if (per_thread()) {
    if (!c->thread_var)
      c->thread_var = thread_word(XPROF_COMDAT_THREAD_WORD, false);
    f->word = c->thread_var;
  }
  f->base = c->n_ctrs;
  f->vp_base = c->n_vp_words;
  f->first_run = time_profile() ? c->n_first_runs++ : XP_NO_FIRST_RUN;
  c->n_ctrs += f->n_counters;
  for (uint32_t s = 0; s < f->n_vp_sites; s++) {
    c->vp_site_words.safe_push(c->n_vp_words + c->sites[f->first_site + s].offset);
    c->vp_site_word0.safe_push(c->sites[f->first_site + s].word0);
  }
  c->n_vp_words += f->vp_words;
}

/* The increments on the counted edges (and every edge with debug
 * counters), inserted on the edges, committed by the caller. */
static void count_edges(collect_ctx *c, const xp_fn *f, const xp_cfg *g, uint32_t n_debug) {
  tree arr = f->twin ? f->twin : f->var;
  uint32_t dbg = 0;
  for (uint32_t i = 0; i < g->n_edges; i++) {
    uint32_t k = g->counter_of_edge[i];
    if (XPROF_HAS_COUNTER(k))
      insert_increment(c, g->gcc_edges[i], arr, f->base + k);
    if (n_debug && XPROF_DEBUG_COUNTED(g->edges[i].flags))
      insert_increment(c, g->gcc_edges[i], arr, f->base + (uint32_t)g->n_counters + dbg++);
  }
}

/* ---- the coverage table ------------------------------------------------ */

typedef int_hash<location_t, UNKNOWN_LOCATION, BUILTINS_LOCATION> xp_location_hash;

static void add_line(xprof_linetab *t, basic_block bb, location_t loc) {
  expanded_location x = expand_location(loc);
  xprof_linetab_line(t, (uint32_t)bb->index, x.file, (uint32_t)MAX(1, x.line));
}

/* The last statement of bb that is not a debug statement, or NULL. */
static gimple *last_real_stmt(basic_block bb) {
  gimple_stmt_iterator gsi = gsi_last_nondebug_bb(bb);
  return gsi_end_p(gsi) ? NULL : gsi_stmt(gsi);
}

/* Does GCC's coverage graph (profile.cc, branch_prob) end bb's last piece
 * with a single edge?  It has the block's real edges, and a fake edge to
 * EXIT after a last statement that may not return, or from a block
 * without successors, or (with_abnormal: when it writes the lines) for
 * abnormal edges out. */
static bool gcov_single_succ(basic_block bb, bool with_abnormal) {
  unsigned real = 0;
  bool abnormal = false, to_exit = false;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, bb->succs) {
    if (e->flags & EDGE_FAKE)
      continue;
    real++;
    to_exit |= e->dest == EXIT_BLOCK_PTR_FOR_FN(cfun);
    abnormal |= (e->flags & (EDGE_ABNORMAL | EDGE_ABNORMAL_CALL)) &&
                e->dest != EXIT_BLOCK_PTR_FOR_FN(cfun);
  }
  gimple *last = last_real_stmt(bb);
  bool call_fake = last && xp_gcc_can_terminate(last);
  unsigned fakes = call_fake || real == 0 || (with_abnormal && abnormal && !to_exit);
  return real + fakes == 1;
}

/* The statement whose line GCC compares with an edge's goto location:
 * the last with a location in bb's last piece, or NULL. */
static gimple *last_located_stmt(basic_block bb) {
  gimple *last = last_real_stmt(bb);
  for (gimple_stmt_iterator gsi = gsi_last_nondebug_bb(bb); !gsi_end_p(gsi);
       gsi_prev_nondebug(&gsi)) {
    gimple *t = gsi_stmt(gsi);
    if (t != last && xp_gcc_can_terminate(t))
      return NULL; /* the piece began after t */
    if (!RESERVED_LOCATION_P(gimple_location(t)))
      return t;
  }
  return NULL;
}

/* Does GCC's coverage give edge e a block of its own?  It does for an
 * edge out of a block with several that jumps from another line than the
 * block's last statement's (profile.cc, branch_prob). */
static bool gcov_splits_edge(basic_block bb, edge e) {
  gimple *last = last_located_stmt(bb);
  location_t to = e->goto_locus, from = last ? gimple_location(last) : UNKNOWN_LOCATION;
  return last && !RESERVED_LOCATION_P(to) && !gcov_single_succ(bb, false) &&
         (LOCATION_FILE(to) != LOCATION_FILE(from) || LOCATION_LINE(to) != LOCATION_LINE(from));
}

/* bb's lines, as GCC's coverage notes give them: the function's line in
 * the first block, each statement's, and the place of a goto that left
 * no statement; a piece ends after each statement that may not return.
 * And its direct calls, for xprof_gprof's call arcs. */
static void block_lines(xprof_linetab *t, basic_block bb, hash_set<xp_location_hash> *seen) {
  location_t decl = DECL_SOURCE_LOCATION(current_function_decl);
  if (bb == ENTRY_BLOCK_PTR_FOR_FN(cfun)->next_bb && !RESERVED_LOCATION_P(decl)) {
    seen->add(decl);
    add_line(t, bb, decl);
  }
  gimple *last = last_real_stmt(bb);
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
    gimple *stmt = gsi_stmt(gsi);
    location_t loc = gimple_location(stmt);
    if (!RESERVED_LOCATION_P(loc)) {
      seen->add(loc);
      add_line(t, bb, loc);
    }
    tree callee;
    if (is_gimple_call(stmt) && !gimple_call_internal_p(stmt) &&
        (callee = gimple_call_fndecl(stmt)))
      xprof_linetab_call(t, (uint32_t)bb->index, xp_function_name(callee));
    if (stmt != last && xp_gcc_can_terminate(stmt))
      xprof_linetab_piece(t, (uint32_t)bb->index);
  }
  location_t loc;
  if (gcov_single_succ(bb, true) && (loc = single_succ_edge(bb)->goto_locus) &&
      !RESERVED_LOCATION_P(loc) && !seen->contains(loc))
    add_line(t, bb, loc);
}

/* cfun's entry in the coverage table: its graph g, and the lines of its
 * blocks and of the blocks GCC's coverage adds (pieces of blocks and
 * blocks on edges), so that xprof_tcov counts lines as gcov does. */
static void record_lines(xprof_linetab *t, const xp_fn *f, const xp_cfg *g) {
  expanded_location x = expand_location(DECL_SOURCE_LOCATION(current_function_decl));
  xprof_linetab_proc(t, f->name, f->signature, g->n_nodes, g->edges, g->n_edges,
                     g->counter_of_edge, (uint32_t)g->n_counters, f->comdat, x.file,
                     (uint32_t)x.line);
  xprof_linetab_end_line(t, (uint32_t)expand_location(cfun->function_end_locus).line);
  hash_set<xp_location_hash> seen;
  uint32_t k = 0; /* edges are listed by source block */
  basic_block bb;
  FOR_EACH_BB_FN(bb, cfun) {
    block_lines(t, bb, &seen);
    for (; k < g->n_edges && g->edges[k].src <= (uint32_t)bb->index; k++) {
      edge e = g->gcc_edges[k];
      if (g->edges[k].src != (uint32_t)bb->index || (e->flags & EDGE_FAKE) ||
          !gcov_splits_edge(bb, e))
        continue;
      location_t loc = e->goto_locus;
      expanded_location to = expand_location(loc);
      bool line = !seen.contains(loc);
      xprof_linetab_edge_block(t, k, line ? to.file : NULL, (uint32_t)MAX(1, to.line));
    }
  }
}

/* Write the coverage table beside the object file, or into tcov-dir under
 * the object's name in the profile (where xprof_tcov looks it up). */
static void write_lines(xprof_linetab *t) {
  bool asked = xp_opts.coverage == XPROF_COVERAGE_ASKED;
  const char *dir = xp_opts.coverage_dir;
  const char *name = dir ? xp_object_path() : xp_object_file();
  if (!name) {
    if (asked)
      xp_warning("no coverage table: compiled on another machine");
    xprof_linetab_end(t, NULL, NULL);
    return;
  }
  if (asked && !xprof_linetab_has_lines(t))
    xp_warning("no line information: the coverage table of %s has none", name);
  xprof_error err;
  if (xprof_linetab_write(t, name, dir, &err) < 0 && (asked || xp_opts.verbose))
    xp_warning("coverage table not written: %s", err.msg);
}

/* Instrument cfun (node's).  Returns 0, or -1 when its control flow
 * cannot be counted exactly (it is left alone, with a note when
 * verbose). */
static void record_shape(xp_fn *f, const xp_cfg *g, const vec<xp_site> *sites);
static int instrument_function(collect_ctx *c, cgraph_node *node) {
  if (execute_fixup_cfg() & TODO_cleanup_cfg)
    cleanup_tree_cfg();
  vec<xp_site> sites;
  uint32_t n_sites = xp_value_sites(&sites);
  xp_cfg g;
  if (!xp_cfg_build(&g, n_sites)) {
    remove_fake_edges();
    xp_cfg_free(&g);
    xp_free_value_sites(&sites);
    if (xp_opts.verbose)
      xp_note("%s: not profiled (abnormal control flow that counters cannot follow exactly)",
              xp_function_name(node->decl));
    return -1;
  }
  xp_fn f;
  memset(&f, 0, sizeof f);
  f.decl = node->decl;
  f.name = xp_function_name(node->decl);
  f.signature = g.signature;
  f.n_vp_sites = n_sites;
  record_shape(&f, &g, &sites);
  f.first_site = c->sites.length();
  for (uint32_t k = 0; k < n_sites; k++) {
    bool hist = sites[k].kind == XP_SITE_LENGTH;
    xp_site_layout l = {(unsigned char)sites[k].vp_type, (unsigned char)sites[k].kind,
                        f.vp_words,
                        xp_opts.values_per_site | (hist ? XPROF_RT_VP_HISTOGRAM : 0)};
    c->sites.safe_push(l);
    f.vp_words += hist ? XPROF_RT_VP_HIST_WORDS : XPROF_RT_VP_WORDS(xp_opts.values_per_site);
  }

  f.comdat = is_comdat(node->decl);
  f.take_address = node->address_taken || (TREE_PUBLIC(node->decl) && !f.comdat);
  uint32_t n_debug = 0;
  for (uint32_t i = 0; xp_opts.all_edges && i < g.n_edges; i++)
    n_debug += XPROF_DEBUG_COUNTED(g.edges[i].flags);
  f.n_counters = (uint32_t)g.n_counters + n_debug;
  if (f.comdat)
    comdat_arrays(c, &f, &g, n_debug);
  else
    object_arrays(c, &f);

  c->thread_delta = f.word && f.n_counters
                        ? make_temp_ssa_name(long_integer_type_node, NULL, "PROF_delta")
                        : NULL_TREE;
  if (c->lines)
    record_lines(c->lines, &f, &g);
  count_edges(c, &f, &g, n_debug);
  if (c->cfg_dump)
    xprof_cfgdump_proc(c->cfg_dump, f.name, f.signature, g.n_nodes, g.edges, g.n_edges,
                       g.counter_of_edge, (uint32_t)g.n_counters, n_debug != 0);
  remove_fake_edges();
  gsi_commit_edge_inserts();
  insert_vp_calls(c, sites, &c->sites[f.first_site], f.comdat ? f.var : c->vp_var, f.vp_base);
  xp_free_value_sites(&sites);
  if (f.first_run != XP_NO_FIRST_RUN)
    first_run_entry(c, &f);
  if (c->thread_delta)
    emit_thread_entry(c, f.var, f.word, c->thread_delta);
  c->thread_delta = NULL_TREE;
  free_dominance_info(CDI_DOMINATORS);
  free_dominance_info(CDI_POST_DOMINATORS);
  xp_cfg_free(&g);
  c->fns.safe_push(f);
  return 0;
}

/* After instrumenting, in every function (as tree-profile.cc does): calls
 * to functions that now write counters are no longer const or pure, so
 * their statements need virtual operands, and the call graph must see
 * the new calls. */
static void update_calls(cgraph_node *node) {
  push_cfun(DECL_STRUCT_FUNCTION(node->decl));
  basic_block bb;
  FOR_EACH_BB_FN(bb, cfun) {
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
      gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
      if (!call || gimple_call_internal_p(call))
        continue;
      tree fntype = gimple_call_fntype(call);
      if (fntype && TYPE_READONLY(fntype))
        gimple_call_set_fntype(call, build_qualified_type(
                                         fntype, TYPE_QUALS(fntype) & ~TYPE_QUAL_CONST));
      update_stmt(call);
    }
  }
  cleanup_tree_cfg();
  update_ssa(TODO_update_ssa);
  cgraph_edge::rebuild_edges();
  pop_cfun();
}

/* ---- the object file's descriptor ------------------------------------ */

/* A descriptor struct, built from its field list in xprof_rt.h. */
struct record {
  const struct xprof_rt_record_desc *d;
  tree type;
  tree fields[XPROF_RT_MAX_FIELDS];
};

static tree array_of(tree elem, unsigned n) {
  return build_array_type(elem, build_index_type(size_int(n ? n - 1 : 0)));
}

/* The GCC type of a field of this kind (xprof_rt.h); site and proc are
 * the types of the records that SITES and PROCS point at. */
static tree kind_type(enum xprof_rt_kind kind, tree site, tree proc) {
  switch (kind) {
  case XPROF_RT_K_U32:
    return uint32_type_node;
  case XPROF_RT_K_U64:
    return uint64_type_node;
  case XPROF_RT_K_STR:
    return build_pointer_type(build_qualified_type(char_type_node, TYPE_QUAL_CONST));
  case XPROF_RT_K_BYTES:
    return build_pointer_type(build_qualified_type(unsigned_char_type_node, TYPE_QUAL_CONST));
  case XPROF_RT_K_U64P:
    return build_pointer_type(uint64_type_node);
  case XPROF_RT_K_SITES:
    return build_pointer_type(site);
  case XPROF_RT_K_PROCS:
    return build_pointer_type(proc);
  case XPROF_RT_K_CODE:
    return const_ptr_type_node;
  case XPROF_RT_K_CELL:
    return build_pointer_type(build_pointer_type(counter_type()));
  case XPROF_RT_K_NEXT:
    return ptr_type_node;
  case XPROF_RT_K_RESERVED:
    return array_of(uint64_type_node, 2);
  }
  gcc_unreachable();
}

static void build_record(record *r, tree site, tree proc) {
  /* finish_builtin_struct takes the fields last first. */
  tree chain = NULL_TREE;
  for (unsigned i = 0; i < r->d->n_fields; i++) {
    r->fields[i] = build_decl(BUILTINS_LOCATION, FIELD_DECL, get_identifier(r->d->names[i]),
                              kind_type(r->d->kinds[i], site, proc));
    DECL_CHAIN(r->fields[i]) = chain;
    chain = r->fields[i];
  }
  r->type = lang_hooks.types.make_type(RECORD_TYPE);
  finish_builtin_struct(r->type, r->d->name, chain, NULL_TREE);
}

/* One descriptor's initializer from values[], indexed as the field list
 * (XPROF_RT_PROC_name, ...): every field has one but the runtime's own,
 * which stay zero. */
static tree fill(const record *r, const tree *values) {
  vec<constructor_elt, va_gc> *v = NULL;
  for (unsigned i = 0; i < r->d->n_fields; i++) {
    if (r->d->kinds[i] == XPROF_RT_K_NEXT || r->d->kinds[i] == XPROF_RT_K_RESERVED)
      continue;
    if (!values[i])
      internal_error("xprof: the plugin gives no value to field %qs of %qs", r->d->names[i],
                     r->d->name);
    CONSTRUCTOR_APPEND_ELT(v, r->fields[i], fold_convert(TREE_TYPE(r->fields[i]), values[i]));
  }
  return build_constructor(r->type, v);
}

static tree u32(uint64_t x) { return build_int_cst(uint32_type_node, x); }
static tree u64(uint64_t x) { return build_int_cstu(uint64_type_node, x); }

static tree string(const char *s) {
  return build_string_literal(strlen(s) + 1, s);
}

static tree static_var(const char *name, tree type, tree init) {
  tree v = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
  TREE_STATIC(v) = 1;
  TREE_ADDRESSABLE(v) = 1;
  DECL_ARTIFICIAL(v) = 1;
  DECL_IGNORED_P(v) = 1;
  DECL_INITIAL(v) = init;
  varpool_node::finalize_decl(v);
  return v;
}

/* cell = &twin[0], in the constructor. */
static tree point_cell(tree cell, tree twin) {
  return build2(MODIFY_EXPR, TREE_TYPE(cell), cell, build_fold_addr_expr(element(twin, 0)));
}

/* The table of value-profile sites of the object file, in procedure
 * order, or NULL_TREE when there are none. */
static tree emit_sites(collect_ctx *c, const record *site) {
  unsigned n_sites = 0;
  for (unsigned i = 0; i < c->fns.length(); i++)
    n_sites += c->fns[i].n_vp_sites;
  if (!n_sites)
    return NULL_TREE;
  vec<constructor_elt, va_gc> *arr = NULL;
  unsigned k = 0;
  for (unsigned i = 0; i < c->fns.length(); i++) {
    const xp_fn &f = c->fns[i];
    for (uint32_t s = 0; s < f.n_vp_sites; s++, k++) {
      tree state_var = f.comdat ? f.var : c->vp_var;
      tree v[XPROF_RT_SITE_N_FIELDS] = {};
      v[XPROF_RT_SITE_type] = u32(c->sites[f.first_site + s].vp_type);
      v[XPROF_RT_SITE_expr_id] = u32(s);
      v[XPROF_RT_SITE_state] =
          build_fold_addr_expr(element(state_var, f.vp_base + c->sites[f.first_site + s].offset));
      CONSTRUCTOR_APPEND_ELT(arr, size_int(k), fill(site, v));
    }
  }
  tree type = array_of(site->type, n_sites);
  return static_var("__xprof_sites", type, build_constructor(type, arr));
}

/* The procedure table; *objsig gets the object's signature. */
static tree emit_procs(collect_ctx *c, const record *site, const record *proc, tree sites_var,
                       uint64_t *objsig) {
  vec<constructor_elt, va_gc> *procs = NULL;
  unsigned first_site = 0;
  *objsig = XPROF_OBJECT_SIGNATURE_INIT;
  for (unsigned i = 0; i < c->fns.length(); i++) {
    const xp_fn &f = c->fns[i];
    tree v[XPROF_RT_PROC_N_FIELDS] = {};
    v[XPROF_RT_PROC_name] = string(f.name);
    v[XPROF_RT_PROC_signature] = u64(f.signature);
    v[XPROF_RT_PROC_id] = u32(i);
    v[XPROF_RT_PROC_n_counters] = u32(f.n_counters);
    v[XPROF_RT_PROC_counters] = build_fold_addr_expr(element(f.var, f.base));
    v[XPROF_RT_PROC_n_vp_sites] = u32(f.n_vp_sites);
    v[XPROF_RT_PROC_array_offset] = u32(f.base);
    v[XPROF_RT_PROC_vp_sites] =
        f.n_vp_sites ? build_fold_addr_expr(build4(ARRAY_REF, site->type, sites_var,
                                                   size_int(first_site), NULL_TREE, NULL_TREE))
                     : null_pointer_node;
    v[XPROF_RT_PROC_address] = f.take_address ? build_fold_addr_expr(f.decl) : null_pointer_node;
    v[XPROF_RT_PROC_tls_array] =
        f.twin_cell ? build_fold_addr_expr(f.twin_cell) : null_pointer_node;
    v[XPROF_RT_PROC_first_run] =
        f.first_run == XP_NO_FIRST_RUN
            ? null_pointer_node
            : build_fold_addr_expr(element(f.comdat ? f.var : c->first_run_var, f.first_run));
    v[XPROF_RT_PROC_shape] = f.shape ? build_string_literal((int)f.shape_size, (const char *)f.shape)
                                     : null_pointer_node;
    v[XPROF_RT_PROC_shape_size] = u32(f.shape ? f.shape_size : 0);
    first_site += f.n_vp_sites;
    CONSTRUCTOR_APPEND_ELT(procs, size_int(i), fill(proc, v));
    *objsig = xprof_object_signature_add(*objsig, f.signature);
  }
  tree type = array_of(proc->type, c->fns.length());
  return static_var("__xprof_procs", type, build_constructor(type, procs));
}

static void emit_descriptor(collect_ctx *c) {
  record site = {&xprof_rt_site_record, NULL_TREE, {}};
  record proc = {&xprof_rt_proc_record, NULL_TREE, {}};
  record obj = {&xprof_rt_object_record, NULL_TREE, {}};
  build_record(&site, NULL_TREE, NULL_TREE);
  build_record(&proc, site.type, NULL_TREE);
  build_record(&obj, site.type, proc.type);
  tree sites_var = emit_sites(c, &site);
  uint64_t objsig;
  tree procs_var = emit_procs(c, &site, &proc, sites_var, &objsig);

  uint64_t sec;
  uint32_t usec;
  xprof_compile_time(&sec, &usec);
  tree v[XPROF_RT_OBJECT_N_FIELDS] = {};
  v[XPROF_RT_OBJECT_abi_version] = u32(XPROF_RT_ABI_VERSION);
  v[XPROF_RT_OBJECT_flags] = u32(xp_opts.update == XP_UPDATE_THREAD   ? XPROF_RT_THREAD_COUNTERS
                                 : xp_opts.update == XP_UPDATE_ATOMIC ? XPROF_RT_ATOMIC_COUNTERS
                                                                      : 0);
  v[XPROF_RT_OBJECT_path] = string(xp_object_path());
  v[XPROF_RT_OBJECT_tv_sec] = u64(sec);
  v[XPROF_RT_OBJECT_tv_usec] = u32(usec);
  v[XPROF_RT_OBJECT_n_values_per_vp] = u32(xp_opts.values_per_site);
  v[XPROF_RT_OBJECT_signature] = u64(objsig);
  v[XPROF_RT_OBJECT_profile_name] =
      xp_opts.profile_name ? string(xp_opts.profile_name) : null_pointer_node;
  v[XPROF_RT_OBJECT_n_procs] = u32(c->fns.length());
  v[XPROF_RT_OBJECT_n_counters] = u32(c->n_ctrs);
  v[XPROF_RT_OBJECT_procs] = build_fold_addr_expr(
      build4(ARRAY_REF, proc.type, procs_var, size_int(0), NULL_TREE, NULL_TREE));
  v[XPROF_RT_OBJECT_counters] = build_fold_addr_expr(element(c->ctr_var, 0));
  tree obj_var = static_var("__xprof_object", obj.type, fill(&obj, v));
  TREE_READONLY(obj_var) = 0;

  /* Register from a constructor, unregister from a destructor (dlclose).
   * The constructor first points the cells at the twins. */
  tree ftype = build_function_type_list(void_type_node, ptr_type_node, NULL_TREE);
  tree reg = build_fn_decl("__xprof_register", ftype);
  tree unreg = build_fn_decl("__xprof_unregister", ftype);
  tree body = NULL_TREE;
  if (c->twin_cell)
    append_to_statement_list(point_cell(c->twin_cell, c->twin_var), &body);
  for (unsigned i = 0; i < c->fns.length(); i++)
    if (c->fns[i].comdat && c->fns[i].twin_cell)
      append_to_statement_list(point_cell(c->fns[i].twin_cell, c->fns[i].twin), &body);
  append_to_statement_list(build_call_expr(reg, 1, build_fold_addr_expr(obj_var)),
                           &body);
  cgraph_build_static_cdtor('I', body, XPROF_RT_CDTOR_PRIORITY);
  body = NULL_TREE;
  append_to_statement_list(build_call_expr(unreg, 1, build_fold_addr_expr(obj_var)),
                           &body);
  cgraph_build_static_cdtor('D', body, XPROF_RT_CDTOR_PRIORITY);
}

void xp_collect_execute(void) {
  collect_ctx ctx = {};
  collect_ctx *c = &ctx;
  c->ctr_var = open_array("__xprof_counters");
  c->vp_var = open_array("__xprof_vp");
  c->first_run_var = open_array("__xprof_fr");
  if (xp_opts.cfg_dump) {
    char *name = concat(xp_object_path(), ".xpcfg", NULL);
    c->cfg_dump = fopen(name, "w");
    if (!c->cfg_dump)
      xp_warning("cannot write %s: %s", name, xstrerror(errno));
    else
      xprof_cfgdump_begin(c->cfg_dump);
    free(name);
  }
  if (xp_opts.coverage != XPROF_COVERAGE_OFF)
    c->lines = xprof_linetab_begin(1);

  vec<cgraph_node *> done = vNULL;
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION(node) {
    if (xp_skip_function(node))
      continue;
    push_cfun(DECL_STRUCT_FUNCTION(node->decl));
    if (instrument_function(c, node) == 0)
      done.safe_push(node);
    pop_cfun();
  }
  for (unsigned i = 0; i < done.length(); i++) {
    done[i]->set_const_flag(false, false);
    done[i]->set_pure_flag(false, false);
  }
  if (done.length()) {
    FOR_EACH_DEFINED_FUNCTION(node) {
      if (gimple_has_body_p(node->decl) && !node->thunk &&
          (!node->clone_of || node->decl != node->clone_of->decl))
        update_calls(node);
    }
  }
  done.release();

  close_array(c->ctr_var, c->n_ctrs, NULL_TREE);
  if (c->twin_var)
    close_array(c->twin_var, c->n_ctrs, NULL_TREE);
  close_array(c->vp_var, c->n_vp_words, NULL_TREE);
  close_array(c->first_run_var, c->n_first_runs, NULL_TREE);
  DECL_INITIAL(c->vp_var) =
      vp_initializer(TREE_TYPE(c->vp_var), c->vp_site_words.address(),
                     c->vp_site_word0.address(), c->vp_site_words.length(), 0);
  if (c->cfg_dump) {
    fclose(c->cfg_dump);
    c->cfg_dump = NULL;
  }
  if (c->lines && c->fns.length())
    write_lines(c->lines);
  else if (c->lines)
    xprof_linetab_end(c->lines, NULL, NULL);
  c->lines = NULL;
  if (c->fns.length())
    emit_descriptor(c);
  if (xp_opts.verbose) {
    unsigned n[XP_SITE_QUOTIENT + 1] = {0, 0, 0, 0};
    for (unsigned i = 0; i < c->sites.length(); i++)
      n[c->sites[i].kind]++;
    unsigned divs = n[XP_SITE_VALUE] + n[XP_SITE_QUOTIENT];
    xp_note("%s: %u procedure%s, %u counter%s, %u indirect-call site%s, %u "
            "string-operation site%s, %u division site%s (%s updates)",
            xp_object_path(), c->fns.length(), xprof_plural(c->fns.length()),
            c->n_ctrs, xprof_plural(c->n_ctrs), n[XP_SITE_CALL], xprof_plural(n[XP_SITE_CALL]),
            n[XP_SITE_LENGTH], xprof_plural(n[XP_SITE_LENGTH]), divs, xprof_plural(divs),
            xp_opts.update == XP_UPDATE_THREAD   ? "per-thread"
            : xp_opts.update == XP_UPDATE_ATOMIC ? "atomic"
                                                 : "single-threaded");
  }
  for (unsigned i = 0; i < c->fns.length(); i++)
    xprof_free(c->fns[i].shape);
  c->fns.release();
  c->vp_site_words.release();
  c->vp_site_word0.release();
  c->sites.release();
}
