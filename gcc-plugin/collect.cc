/*
 * collect.cc - -xprofile=collect: counters on the edges off a spanning
 * tree, value-profile calls before the values GCC's own profiler measures
 * (values.cc), and the object file's
 * descriptor (abi/xprof_abi.h) with a constructor that registers it.
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

/* What instrumenting one object file builds up, in the plan's terms
 * and GCC's. */
struct collect_ctx {
  xp_collected out;
  tree recorder[XPROF_VP_PROC + 1]; /* the runtime's recorders, by type */
  tree thread_fn_decl;
  tree first_runs;   /* the runtime's counter of first runs */
  tree thread_delta; /* cfun's distance to its thread copy (SSA name) */
  FILE *cfg_dump;
  xprof_linetab *lines; /* the coverage table */
};

static tree counter_type(void) { return get_gcov_type(); }

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

/* The initial value of an array of `type` whose words init[0..n) the
 * plan sets (the first words of value-profile states), or NULL_TREE. */
static tree initializer(tree type, const xprof_plan_word *init, uint32_t n) {
  if (n == 0)
    return NULL_TREE;
  vec<constructor_elt, va_gc> *v = NULL;
  for (uint32_t i = 0; i < n; i++)
    CONSTRUCTOR_APPEND_ELT(v, size_int(init[i].at),
                           build_int_cst(counter_type(), (HOST_WIDE_INT)init[i].word));
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
 * plain builds do (bench/history.md).  Volatile: nothing
 * may move, merge or drop a count, and loop invariant motion has no
 * counter to keep in a register (plugin.cc).  GCC's counter type is
 * 64-bit on every x86 ABI; -m32 gets GIMPLE. */
bool xp_counters_in_asm(void) {
#ifdef TARGET_64BIT
  return xp_opts.gcc.asm_counters && TARGET_64BIT;
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

static void insert_increment(collect_ctx *c, edge e, tree var, uint32_t idx, bool atomic) {
  tree ref = element(var, idx);
  if (c->thread_delta) {
    tree i = make_temp_ssa_name(long_integer_type_node, NULL, "PROF_idx");
    gsi_insert_on_edge(e, gimple_build_assign(i, PLUS_EXPR, c->thread_delta,
                                              build_int_cst(long_integer_type_node, idx)));
    ref = build4(ARRAY_REF, counter_type(), var, i, NULL_TREE, NULL_TREE);
  }
  gsi_insert_seq_on_edge(e, increment_seq(ref, atomic, "PROF_edge"));
}

/* The runtime's recorder of a site of the given type, whose second
 * parameter has the type of xp_site_value's result for it. */
static tree get_recorder(collect_ctx *c, unsigned vp_type) {
  if (c->recorder[vp_type])
    return c->recorder[vp_type];
  const char *name;
  tree arg;
  if (vp_type == XPROF_VP_PROC) {
    name = xp_opts.update == XPROF_UPDATE_SINGLE ? XPROF_ABI_STR(XPROF_RECORD_PROC_SINGLE)
                                                 : XPROF_ABI_STR(XPROF_RECORD_PROC);
    arg = const_ptr_type_node;
  } else {
    name = vp_type == XPROF_VP_INT ? XPROF_ABI_STR(XPROF_RECORD_INT)
                                   : XPROF_ABI_STR(XPROF_RECORD_LLONG);
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
 *   slow:  XPROF_RECORD_TYPE (&STATE, v);
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
  if (site->kind == XPROF_SITE_CALL) {
    /* As the runtime keeps it, (uint64_t)(uintptr_t)callee: through an
     * unsigned integer of the pointer's size, zero-extended (a pointer
     * converted straight to a wider integer is sign-extended, and is not
     * valid GIMPLE). */
    tree bits = make_temp_ssa_name(pointer_sized_int_node, NULL, "PROF_fn");
    gsi_insert_before(&gsi, gimple_build_assign(bits, NOP_EXPR, arg), GSI_SAME_STMT);
    value = make_temp_ssa_name(counter_type(), NULL, "PROF_fn");
    gsi_insert_before(&gsi, gimple_build_assign(value, NOP_EXPR, bits), GSI_SAME_STMT);
  }
  gsi_prev(&gsi);
  basic_block head = gimple_bb(site->stmt);
  edge rest = split_block(head, gsi_stmt(gsi));
  basic_block join = rest->dest;
  profile_count total = head->count;
  remove_edge(rest);

  basic_block check = head, after = head;
  profile_probability hit = profile_probability::likely();
  for (uint32_t k = 0; k < XPROF_ABI_VP_INLINE_PAIRS && k < xp_opts.values_per_site; k++) {
    tree kept = make_temp_ssa_name(counter_type(), NULL, "PROF_vp");
    gimple_stmt_iterator g = gsi_last_bb(check);
    gsi_insert_after(&g, gimple_build_assign(kept, element(state_var, word + 2 + 2 * k)),
                     GSI_NEW_STMT);
    gsi_insert_after(&g, gimple_build_cond(EQ_EXPR, kept, value, NULL_TREE, NULL_TREE),
                     GSI_NEW_STMT);
    basic_block fast = vp_block(after, check, hit);
    g = gsi_last_bb(fast);
    gsi_insert_seq_after(&g, increment_seq(element(state_var, word + 3 + 2 * k),
                                           xp_opts.update != XPROF_UPDATE_SINGLE, "PROF_vp"),
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
 * min (size, XPROF_ABI_VP_HIST_LONGEST + 1), without a call: sizes vary
 * a lot (sqlite's), and GCC specializes only short ones. */
static void insert_length_count(const xp_site *site, tree state_var, uint32_t word) {
  gimple_stmt_iterator gsi = gsi_for_stmt(site->stmt);
  tree len = xp_site_value(site, &gsi); /* unsigned */
  tree bucket = make_temp_ssa_name(TREE_TYPE(len), NULL, "PROF_len");
  gsi_insert_before(&gsi, gimple_build_assign(bucket, MIN_EXPR, len,
                                              build_int_cst(TREE_TYPE(len),
                                                            XPROF_ABI_VP_HIST_BUCKETS - 1)),
                    GSI_SAME_STMT);
  tree ix = make_temp_ssa_name(sizetype, NULL, "PROF_len");
  gsi_insert_before(&gsi, gimple_build_assign(ix, NOP_EXPR, bucket), GSI_SAME_STMT);
  tree at = make_temp_ssa_name(sizetype, NULL, "PROF_len");
  gsi_insert_before(&gsi, gimple_build_assign(at, PLUS_EXPR, ix, size_int(word + 2)),
                    GSI_SAME_STMT);
  ix = at;
  tree ref = build4(ARRAY_REF, counter_type(), state_var, ix, NULL_TREE, NULL_TREE);
  gsi_insert_seq_before(&gsi, increment_seq(ref, xp_opts.update != XPROF_UPDATE_SINGLE, "PROF_len"),
                        GSI_SAME_STMT);
}

/* Before each site's statement, record its value (sites found before
 * any block was split); nothing where values are not recorded. */
static void insert_vp_calls(collect_ctx *c, const vec<xp_site> &sites,
                            const xprof_plan_fn *f, tree var) {
  for (unsigned k = 0; xprof_plan_records_values(&c->out.plan) && k < sites.length(); k++) {
    uint32_t word = f->vp_base + f->sites[k].offset;
    if (sites[k].kind == XPROF_SITE_LENGTH)
      insert_length_count(&sites[k], var, word);
    else
      insert_vp_site(c, &sites[k], var, word);
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
    c->thread_fn_decl = build_fn_decl(XPROF_ABI_STR(XPROF_THREAD_COUNTERS), type);
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
                                 "call *" XPROF_ABI_STR(XPROF_THREAD_COUNTERS_ASM) "@GOTPCREL(%%rip)\n\t"
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
 *   slow: d2 = XPROF_THREAD_COUNTERS (&ARRAY, &D);
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


/* The runtime's count of first runs, the ranks given so far
 * (runtime/first_run.c). */
static tree first_runs_decl(collect_ctx *c) {
  if (!c->first_runs) {
    c->first_runs = build_decl(BUILTINS_LOCATION, VAR_DECL,
                               get_identifier(XPROF_ABI_STR(XPROF_FIRST_RUNS)), counter_type());
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
 *   slow: WORD = __atomic_add_fetch (&XPROF_FIRST_RUNS, 1, relaxed);
 *   join:
 *
 * as GCC's own time profiler does it. */
static void emit_first_run_entry(tree first_runs, tree word) {
  tree t = make_temp_ssa_name(counter_type(), NULL, "PROF_first_run");
  edge to_join;
  basic_block slow =
      entry_test(t, word, profile_probability::very_unlikely(), &to_join);
  /* The builtin returns an unsigned 64-bit value, the counters are
   * signed: the call's result converts, or GCC's checking rejects it. */
  tree fn = builtin_decl_explicit(BUILT_IN_ATOMIC_ADD_FETCH_8);
  tree sum = make_temp_ssa_name(TREE_TYPE(TREE_TYPE(fn)), NULL, "PROF_rank");
  gcall *add = gimple_build_call(fn, 3, build_fold_addr_expr(first_runs),
                                 build_int_cst(counter_type(), 1),
                                 build_int_cst(integer_type_node, MEMMODEL_RELAXED));
  gimple_call_set_lhs(add, sum);
  tree rank = make_temp_ssa_name(counter_type(), NULL, "PROF_rank");
  gimple_stmt_iterator g = gsi_last_bb(slow);
  gsi_insert_after(&g, add, GSI_NEW_STMT);
  gsi_insert_after(&g, gimple_build_assign(rank, NOP_EXPR, sum), GSI_NEW_STMT);
  gsi_insert_after(&g, gimple_build_assign(unshare_expr(word), rank), GSI_NEW_STMT);
}

/* The test goes in after inlining, in the function bodies that remain
 * (xp_first_run_execute): a small function inlined into a hot loop would
 * otherwise test its word on every iteration (a measurable cost in a
 * collect build of an interpreter: bench/history.md), and what use builds
 * order is the bodies that remain.  Until then the function's attribute
 * names its word and the runtime's count of first runs (which it keeps
 * alive for the garbage collector).
 * Under -flto the bodies are optimized in lto1, where the plugin does
 * not run: the test goes in now. */
static const char first_run_attr[] = "xprof first run";

static void first_run_entry(collect_ctx *c, const xprof_plan_fn *f, const xp_fn_trees *trees) {
  tree var = f->comdat ? trees->var : c->out.first_run_var;
  if (flag_lto) {
    emit_first_run_entry(first_runs_decl(c), element(var, f->first_run));
    return;
  }
  tree value = tree_cons(size_int(f->first_run), var,
                         tree_cons(NULL_TREE, first_runs_decl(c), NULL_TREE));
  DECL_ATTRIBUTES(trees->decl) =
      tree_cons(get_identifier(first_run_attr), value, DECL_ATTRIBUTES(trees->decl));
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
 * file that has a copy of the function (xprof_plan_array_name), so that
 * the linker keeps one. */
static void comdat_arrays(collect_ctx *c, const xprof_plan_fn *f, xp_fn_trees *trees) {
  const xprof_plan *p = &c->out.plan;
  char *name = xprof_plan_array_name(f, XPROF_ARRAY_COUNTERS);
  uint32_t total = xprof_plan_fn_words(p, f);
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
  xprof_plan_word *init = XNEWVEC(xprof_plan_word, f->n_sites + 1);
  for (uint32_t s = 0; s < f->n_sites; s++)
    init[s] = (xprof_plan_word){f->vp_base + f->sites[s].offset, f->sites[s].word0};
  DECL_INITIAL(v) = initializer(type, init, f->n_sites);
  XDELETEVEC(init);
  make_decl_one_only(v, DECL_ASSEMBLER_NAME(v));
  varpool_node::finalize_decl(v);
  trees->var = v;
  if (xprof_plan_in_twin(p, f)) {
    name = xprof_plan_array_name(f, XPROF_ARRAY_TWIN);
    trees->twin = twin_array(name, true, f->n_counters);
    xprof_free(name);
    name = xprof_plan_array_name(f, XPROF_ARRAY_TWIN_CELL);
    trees->twin_cell = twin_cell_var(name, true);
    xprof_free(name);
  } else if (xprof_plan_finds_copy(p, f)) {
    name = xprof_plan_array_name(f, XPROF_ARRAY_THREAD_WORD);
    trees->word = thread_word(name, true);
    xprof_free(name);
  }
}

/* Any other function's share of the object file's arrays. */
static void object_arrays(collect_ctx *c, const xprof_plan_fn *f, xp_fn_trees *trees) {
  const xprof_plan *p = &c->out.plan;
  trees->var = c->out.ctr_var;
  if (xprof_plan_in_twin(p, f)) {
    if (!c->out.twin_var) {
      char *name = xprof_plan_array_name(NULL, XPROF_ARRAY_TWIN);
      c->out.twin_var = twin_array(name, false, 0);
      xprof_free(name);
      name = xprof_plan_array_name(NULL, XPROF_ARRAY_TWIN_CELL);
      c->out.twin_cell = twin_cell_var(name, false);
      xprof_free(name);
    }
    trees->twin = c->out.twin_var;
    trees->twin_cell = c->out.twin_cell;
  } else if (xprof_plan_finds_copy(p, f)) {
    if (!c->out.thread_var) {
      char *name = xprof_plan_array_name(NULL, XPROF_ARRAY_THREAD_WORD);
      c->out.thread_var = thread_word(name, false);
      xprof_free(name);
    }
    trees->word = c->out.thread_var;
  }
}

/* The increments on the counted edges (and every edge with debug
 * counters), inserted on the edges, committed by the caller. */
static void count_edges(collect_ctx *c, const xprof_plan_fn *f, const xp_fn_trees *trees,
                        const xp_cfg *cfg) {
  const xprof_graph *g = &cfg->g;
  tree arr = trees->twin ? trees->twin : trees->var;
  bool atomic = xprof_plan_atomic(&c->out.plan, f);
  uint32_t dbg = f->n_edge_counters + f->n_side_counters;
  for (uint32_t i = 0; i < g->n_edges; i++) {
    uint32_t k = g->counter_of_edge[i];
    if (XPROF_HAS_COUNTER(k))
      insert_increment(c, cfg->gcc_edges[i], arr, f->base + k, atomic);
    if (f->n_debug && XPROF_DEBUG_COUNTED(g->edges[i].flags))
      insert_increment(c, cfg->gcc_edges[i], arr, f->base + dbg++, atomic);
  }
}

/* Whether node's function resolves an ifunc: GCC marks the resolver, or
 * the alias that names it (the attribute's declaration). */
static bool is_ifunc_resolver(cgraph_node *node) {
  if (node->ifunc_resolver)
    return true;
  ipa_ref *ref;
  for (unsigned i = 0; node->iterate_direct_aliases(i, ref); i++)
    if (ref->referring->ifunc_resolver)
      return true;
  return false;
}

/* The plan's record of cfun (node's), with its place in its arrays. */
static const xprof_plan_fn *plan_function(collect_ctx *c, cgraph_node *node, const xp_cfg *cfg) {
  bool comdat = is_comdat(node->decl);
  unsigned flags = (comdat ? XPROF_FN_COMDAT : 0) |
                   (node->address_taken || (TREE_PUBLIC(node->decl) && !comdat)
                        ? XPROF_FN_ADDRESS
                        : 0) |
                   (is_ifunc_resolver(node) ? XPROF_FN_RESOLVER : 0);
  xprof_plan *p = &c->out.plan;
  const xprof_plan_fn *f = xprof_plan_add(p, xp_function_name(node->decl), &cfg->g, flags);
  if (!f)
    fatal_error(UNKNOWN_LOCATION, "xprof: out of memory");
  c->out.fns = XRESIZEVEC(xp_fn_trees, c->out.fns, p->n_fns);
  xp_fn_trees *trees = &c->out.fns[p->n_fns - 1];
  memset(trees, 0, sizeof *trees);
  trees->decl = node->decl;
  if (comdat)
    comdat_arrays(c, f, trees);
  else
    object_arrays(c, f, trees);
  return f;
}

/* Instrument cfun (node's).  Returns 0, or -1 when its control flow
 * cannot be counted exactly (it is left alone, with a note when
 * verbose). */
static int instrument_function(collect_ctx *c, cgraph_node *node) {
  if (execute_fixup_cfg() & TODO_cleanup_cfg)
    cleanup_tree_cfg();
  vec<xp_site> sites;
  xp_value_sites(&sites);
  xp_cfg cfg;
  if (!xp_cfg_build(&cfg, &sites)) {
    remove_fake_edges();
    xp_cfg_free(&cfg);
    xp_free_value_sites(&sites);
    xprof_verbose(&xp_diag,
                  "%s: not profiled (abnormal control flow that counters cannot follow exactly)",
                  xp_function_name(node->decl));
    return -1;
  }
  const xprof_plan_fn *f = plan_function(c, node, &cfg);
  const xp_fn_trees *trees = &c->out.fns[c->out.plan.n_fns - 1];
  c->thread_delta = trees->word && f->n_counters
                        ? make_temp_ssa_name(long_integer_type_node, NULL, "PROF_delta")
                        : NULL_TREE;
  if (c->lines)
    xp_record_lines(c->lines, f, &cfg, &sites);
  count_edges(c, f, trees, &cfg);
  if (c->cfg_dump)
    xprof_cfgdump_proc(c->cfg_dump, f->name, f->signature, cfg.g.n_nodes, cfg.g.edges,
                       cfg.g.n_edges, cfg.g.counter_of_edge, f->n_edge_counters,
                       f->n_debug != 0);
  remove_fake_edges();
  gsi_commit_edge_inserts();
  insert_vp_calls(c, sites, f, f->comdat ? trees->var : c->out.vp_var);
  xp_free_value_sites(&sites);
  if (f->first_run != XPROF_NO_FIRST_RUN)
    first_run_entry(c, f, trees);
  if (c->thread_delta)
    emit_thread_entry(c, trees->var, trees->word, c->thread_delta);
  c->thread_delta = NULL_TREE;
  free_dominance_info(CDI_DOMINATORS);
  free_dominance_info(CDI_POST_DOMINATORS);
  xp_cfg_free(&cfg);
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

/* Instrument every function of the unit; the functions instrumented. */
static vec<cgraph_node *> instrument_all(collect_ctx *c) {
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
  return done;
}

/* The object file's arrays, of their final sizes. */
static void close_arrays(collect_ctx *c) {
  const xprof_plan *p = &c->out.plan;
  close_array(c->out.ctr_var, p->n_counters, NULL_TREE);
  if (c->out.twin_var)
    close_array(c->out.twin_var, p->n_counters, NULL_TREE);
  close_array(c->out.vp_var, p->n_vp_words, NULL_TREE);
  close_array(c->out.first_run_var, p->n_first_runs, NULL_TREE);
  DECL_INITIAL(c->out.vp_var) = initializer(TREE_TYPE(c->out.vp_var), p->vp_init, p->n_vp_init);
}

void xp_collect_execute(void) {
  collect_ctx ctx = {};
  collect_ctx *c = &ctx;
  xprof_plan_init(&c->out.plan, &xp_opts, !flag_shlib);
  c->out.ctr_var = open_array(XPROF_ABI_STR(XPROF_COUNTERS_VAR));
  c->out.vp_var = open_array(XPROF_ABI_STR(XPROF_VP_VAR));
  c->out.first_run_var = open_array(XPROF_ABI_STR(XPROF_FIRST_RUN_VAR));
  if (xp_opts.cfg_dump)
    c->cfg_dump = xprof_plan_cfg_dump(xp_object_path(), &xp_diag);
  if (xp_opts.coverage != XPROF_COVERAGE_OFF)
    c->lines = xprof_linetab_begin(1);
  vec<cgraph_node *> done = instrument_all(c);
  done.release();
  close_arrays(c);
  if (c->cfg_dump)
    fclose(c->cfg_dump);
  if (c->lines && c->out.plan.n_fns) {
    char *a = xprof_plan_write_coverage(c->lines, &xp_opts, xp_object_file(), xp_object_path(),
                                        &xp_diag);
    if (a)
      symtab->finalize_toplevel_asm(build_string((int)strlen(a), a));
    xprof_free(a);
  } else if (c->lines)
    xprof_linetab_end(c->lines, NULL, NULL);
  if (c->out.plan.n_fns)
    xp_emit_descriptor(&c->out);
  xprof_plan_note(&c->out.plan, xp_object_path(), &xp_diag);
  XDELETEVEC(c->out.fns);
  xprof_plan_free(&c->out.plan);
}
