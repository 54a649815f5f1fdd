/*
 * use.c - -xprofile=use on LLVM IR: the object file's data found through
 * the profile index (libxprof), each matching function's edge counts
 * solved and written as branch_weights and function_entry_count, never-run
 * functions marked cold (or, with partial training, left without data), a
 * ProfileSummary computed from the whole profile (the same in every
 * module, so LTO links), and dominant indirect-call
 * targets promoted here, because without -fprofile-use LLVM's own
 * promotion runs only in LTO back ends (it gets sorted VP metadata too),
 * and memory operations given their lengths.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Comdat.h>

#include "core.h"

/* Indirect-call promotion as LLVM's own pass decides it: at call sites
 * whose count is hot by the profile summary (any, without one), up to 3
 * targets, each with at least 30% of the calls not yet promoted and 5% of
 * all; and at least 64 calls. */
#define XL_ICP_MAX_TARGETS 3
#define XL_ICP_LEFT_PCT 30
#define XL_ICP_TOTAL_PCT 5
#define XL_ICP_MIN_CALLS 64

typedef struct use_ctx {
  LLVMModuleRef m;
  LLVMContextRef cx;
  const xprof_options *o;
  xprof_diag d;
  xprof_use u;                 /* libxprof's plan of the module */
  const char *profile_objpath; /* the object file as the profile records it */
  unsigned prof_kind;
  void *hotness; /* xl_hotness_open */
  /* Calls through pointers that did not return in training, and the
   * functions that made them (libxprof's xprof_use_unreturned). */
  uint64_t unreturned;
  LLVMValueRef *unreturned_fns;
  unsigned n_unreturned_fns;
  xprof_calls *calls; /* -xprofile_order: the calls for the link's order */
} use_ctx;

static LLVMMetadataRef md_u64(use_ctx *u, uint64_t v) {
  return LLVMValueAsMetadata(LLVMConstInt(LLVMInt64TypeInContext(u->cx), v, 0));
}

static LLVMMetadataRef md_u32(use_ctx *u, uint32_t v) {
  return LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(u->cx), v, 0));
}

/* Scratch for the weights of one branch, grown to the widest seen: any
 * number of successors gets weights (xl_branch_weights), as an
 * interpreter's dispatch switch or computed goto has hundreds, and
 * without weights LLVM spreads the loop's count evenly over them
 * (sqlite3VdbeExec's rarest opcodes looked as hot as its commonest). */
typedef struct weight_buf {
  uint64_t *w;          /* count per successor slot */
  LLVMMetadataRef *ops; /* the node's operands: name, then w */
  unsigned cap;
} weight_buf;

static int weight_buf_fit(weight_buf *b, unsigned n) {
  if (n <= b->cap)
    return 1;
  uint64_t *w = xl_realloc(b->w, n * sizeof *w);
  if (w)
    b->w = w;
  LLVMMetadataRef *ops = xl_realloc(b->ops, (n + 1) * sizeof *ops);
  if (ops)
    b->ops = ops;
  if (!w || !ops)
    return 0;
  b->cap = n;
  return 1;
}


static void set_entry_count(use_ctx *u, LLVMValueRef fn, uint64_t count) {
  LLVMMetadataRef ops[2] = {LLVMMDStringInContext2(u->cx, "function_entry_count", 20),
                            md_u64(u, count)};
  LLVMGlobalSetMetadata(fn, u->prof_kind, LLVMMDNodeInContext2(u->cx, ops, 2));
}

/* The function named "entry:objfile" when the promoted call can be
 * inlined, else NULL: a function this module defines (a static one only
 * when objfile is this object: the collect build's path, which
 * -xprofile-pathmap lets differ from the use build's), and, for a
 * link-time optimizer, a public one of another object that this module
 * declares (uses).  The GCC plugin keeps the same targets, as GCC's own
 * profile use does.  Elsewhere a promotion does not pay: a compare and a
 * direct call gain nothing over an indirect call the processor predicts,
 * a call through the PLT is an indirect jump itself, and a function this
 * module does not know may be another object's static one, which no
 * declaration reaches (it stays undefined at link time, and the compare
 * with its null address ran on every call: in CPython's eval loop, on
 * every Py_DECREF that freed an object).  The value profile goes to LTO's
 * own promotion anyway. */
static LLVMValueRef target_function(use_ctx *u, const char *value) {
  const char *colon = strchr(value, ':');
  if (!colon)
    return NULL;
  char *name = strndup(value, (size_t)(colon - value));
  LLVMValueRef f = name ? LLVMGetNamedFunction(u->m, name) : NULL;
  free(name);
  if (!f || (LLVMIsDeclaration(f) && !u->o->lto))
    return NULL;
  LLVMLinkage l = LLVMGetLinkage(f);
  if ((l == LLVMInternalLinkage || l == LLVMPrivateLinkage) &&
      strcmp(colon + 1, u->profile_objpath) != 0)
    return NULL; /* another object file's static function of the same name */
  return f;
}

/* !{"VP", kind, total, value, count, ...} on inst.  Kind 0
 * (IPVK_IndirectCallTarget): values are the MD5 of the target's name;
 * kind 1 (IPVK_MemOPSize): lengths.  LLVM's indirect-call promotion and
 * memop optimization (added after this pass) read it; for the latter a
 * dominant small length becomes a constant-length copy on a fast path. */
static void set_value_profile(use_ctx *u, LLVMValueRef inst, unsigned kind,
                              const xprof_vp_record *rec, const uint32_t *order,
                              uint32_t k, uint64_t total) {
  LLVMMetadataRef ops[3 + 2 * 64];
  unsigned n = 0;
  ops[n++] = LLVMMDStringInContext2(u->cx, "VP", 2);
  ops[n++] = md_u32(u, kind);
  ops[n++] = md_u64(u, total);
  for (uint32_t i = 0; i < k; i++) {
    const xprof_vp_value *v = &rec->values[order[i]];
    if (kind == 0) {
      const char *colon = strchr(v->proc, ':');
      char *name = strndup(v->proc, colon ? (size_t)(colon - v->proc) : strlen(v->proc));
      ops[n++] = md_u64(u, xl_md5(name));
      free(name);
    } else {
      ops[n++] = md_u64(u, v->bits);
    }
    ops[n++] = md_u64(u, v->count);
  }
  LLVMSetMetadata(inst, u->prof_kind,
                  LLVMMetadataAsValue(u->cx, LLVMMDNodeInContext2(u->cx, ops, n)));
}

/* Where GCC's profile use would specialize an operation to its values:
 * not in code that runs cold, nor in a function optimized for size. */
static int may_specialize(use_ctx *u, LLVMValueRef fn, uint64_t count) {
  return u->o->specialize && count && !xl_cold_count(u->hotness, count) && !xl_has_fn_attr(fn, "optsize") &&
         !xl_has_fn_attr(fn, "minsize");
}

/* The numbers of rec's values in xprof_vp_order's order. */
static void fill_values(const xprof_vp_record *rec, const uint32_t *order, uint32_t k,
                        uint64_t total, struct xl_values *v) {
  v->n = k;
  v->total = total;
  for (uint32_t i = 0; i < k; i++) {
    v->value[i] = rec->values[order[i]].bits;
    v->count[i] = rec->values[order[i]].count;
  }
}

/* A memory operation's dominant length, made a constant-length copy at
 * the end of the optimizer (specialize.c); the other lengths stay in its
 * value profile, for LLVM's own memop optimization.  Returns how many
 * lengths were taken out of order[] (0 or 1, the first). */
static uint32_t specialize_length(use_ctx *u, LLVMValueRef fn, LLVMValueRef memop,
                                  const xprof_vp_record *rec, const uint32_t *order, uint32_t k,
                                  uint64_t total) {
  struct xl_values v;
  fill_values(rec, order, k, total, &v);
  struct xl_plan plan;
  if (!may_specialize(u, fn, total) || !xl_plan_length(memop, &v, &plan))
    return 0;
  xl_mark_plan(memop, &plan);
  return 1;
}

static unsigned value_profiles(use_ctx *u, const xprof_objfile *o, const xprof_proc *f,
                               LLVMValueRef fn, LLVMValueRef *calls, uint32_t n_calls) {
  unsigned specialized = 0;
  for (uint32_t r = 0; r < f->n_vp_records; r++) {
    const xprof_vp_record *rec = &f->vp[r];
    if (rec->expr_id >= n_calls)
      continue;
    LLVMValueRef call = calls[rec->expr_id];
    enum xprof_site_kind kind = xl_site_kind(calls, rec->expr_id);
    if ((kind != XPROF_SITE_CALL && kind != XPROF_SITE_LENGTH) ||
        rec->type != xl_site_vp_type(calls, rec->expr_id))
      continue;
    int memop = kind == XPROF_SITE_LENGTH;
    uint32_t order[64];
    uint64_t total;
    uint32_t k = xprof_vp_order(o, rec, order, &total);
    if (!total)
      continue;
    if (memop) {
      uint32_t taken = specialize_length(u, fn, call, rec, order, k, total);
      specialized += taken;
      set_value_profile(u, call, 1, rec, order + taken, k - taken, total);
      continue;
    }
    set_value_profile(u, call, 0, rec, order, k, total);
    /* LLVM's own rule (IndirectCallPromotion): only at a hot call site --
     * elsewhere a promotion adds a compare, a branch and perhaps an
     * inlined body where they cannot pay (sqlite's use build promoted
     * far more sites than clang's own before) -- up to three targets, each
     * taking at least 30% of the calls left and 5% of all of them. */
    if (xl_hot_count(u->hotness, total) == 0)
      continue;
    uint64_t left = total;
    for (uint32_t i = 0; i < k && i < XL_ICP_MAX_TARGETS; i++) {
      const xprof_vp_value *v = &rec->values[order[i]];
      if (v->count < XL_ICP_MIN_CALLS || v->count / XL_ICP_LEFT_PCT < left / 100 ||
          v->count / XL_ICP_TOTAL_PCT < total / 100)
        break;
      LLVMValueRef target = target_function(u, v->proc);
      if (!target || !xl_promote_indirect_call(call, target, v->count, left))
        break;
      left -= v->count;
      u->u.st.promoted++;
      xprof_verbose(&u->d, XPROF_MSG_PROMOTED, f->name, xl_function_name(target),
                    (unsigned long long)v->count, (unsigned long long)total);
    }
  }
  return specialized;
}

/* The values of site s's record, if it has one of its type: 1, else 0. */
static int site_values(const xprof_objfile *o, const xprof_proc *f, const LLVMValueRef *calls,
                       uint32_t s, struct xl_values *v) {
  for (uint32_t r = 0; r < f->n_vp_records; r++) {
    const xprof_vp_record *rec = &f->vp[r];
    if (rec->expr_id != s)
      continue;
    if (rec->type != xl_site_vp_type(calls, s))
      return 0;
    uint32_t order[64];
    uint64_t total;
    uint32_t k = xprof_vp_order(o, rec, order, &total);
    fill_values(rec, order, k, total, v);
    return total > 0;
  }
  return 0;
}

/* Divisions and modulos to specialize to the values training saw
 * (specialize.c, which makes the code at the end of the optimizer).
 * Returns how many. */
static unsigned specialize_divisions(use_ctx *u, const xprof_objfile *o, const xprof_proc *f,
                                     LLVMValueRef fn, LLVMValueRef *calls, uint32_t n_calls) {
  unsigned n = 0;
  for (uint32_t s = 0; s < n_calls; s++) {
    if (xl_site_kind(calls, s) != XPROF_SITE_DIVISOR)
      continue;
    struct xl_values d, q;
    int has_d = site_values(o, f, calls, s, &d);
    int has_q = s + 1 < n_calls && xl_site_kind(calls, s + 1) == XPROF_SITE_QUOTIENT &&
                site_values(o, f, calls, s + 1, &q);
    if (!may_specialize(u, fn, has_d ? d.total : has_q ? q.total : 0))
      continue;
    struct xl_plan plan;
    if (xl_plan_division(calls[s], has_d ? &d : NULL, has_q ? &q : NULL, &plan)) {
      xl_mark_plan(calls[s], &plan);
      n++;
    }
  }
  return n;
}

/* What phase 1 found for one function, applied in phase 2. */
typedef struct solved {
  LLVMValueRef fn;
  struct xl_cfg g;
  xprof_use_fn r; /* the counts, and the records that apply */
  LLVMValueRef *calls;
  uint32_t n_calls;
  int sampled; /* the counts are estimates from time samples */
} solved;

#define REPLAY_MAX 256

/* Inline the first call from block *b on that replay_inlining takes
 * (decl: fn's line; p: scratch).  1 when one was inlined, with *b its
 * block, where the walk goes on (the call is gone; LLVM put the inlined
 * blocks right after it, and the calls before it stay refused), else 0. */
static int replay_one(use_ctx *u, LLVMBasicBlockRef *b, const char *name, const char *file,
                      uint32_t decl, struct xl_places *p) {
  for (; *b; *b = LLVMGetNextBasicBlock(*b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(*b); i; i = LLVMGetNextInstruction(i)) {
      const char *callee = xl_direct_callee(i);
      xprof_line_loc loc;
      if (callee && xl_place_of(p, i, &loc) &&
          xprof_use_replay_count(&u->u, name, file, decl, &loc, callee) &&
          xl_inline_call(i, u->o->llvm.replay_inline))
        return 1;
    }
  return 0;
}

/* The training build's inlining replayed in fn before its lines place its
 * counts (xprof_use_replays): each direct call that the training inlined
 * at the same place and ran hot there (xprof_use_replay_count), to a
 * function of this module of at most -xprof-replay-inline instructions
 * that may be inlined, then the calls that came with it, at most
 * REPLAY_MAX in all.  Its code then takes the counts of that call site,
 * which the lines keep apart, where the callee's own would be its average over all
 * calls (as LLVM's sample loader inlines before it annotates).  Other
 * functions see nothing of it.  Returns how many calls were inlined. */
static unsigned replay_inlining(use_ctx *u, LLVMValueRef fn, const char *name,
                                const char *file) {
  unsigned n_file, inlined = 0;
  uint32_t decl = LLVMGetDebugLocFilename(fn, &n_file) ? LLVMGetDebugLocLine(fn) : 0;
  struct xl_places p = {0};
  LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn);
  while (decl && u->o->llvm.replay_inline && inlined < REPLAY_MAX &&
         replay_one(u, &b, name, file, decl, &p))
    inlined++;
  xl_places_free(&p);
  if (inlined)
    xprof_verbose(&u->d, "%s: %u call%s inlined as the training build inlined %s", name,
                  inlined, xprof_plural(inlined), inlined == 1 ? "it" : "them");
  return inlined;
}

/* Phase 1: match and solve (f's counts, or the lines' of function
 * `name`), changing nothing that another function's analysis could see
 * (a `cold` attribute changes its callers' static branch probabilities,
 * hence their counter placement).  Returns 1, or 0 when there are no
 * counts that fit. */
static int solve(use_ctx *u, LLVMValueRef fn, const char *name, const char *file,
                 const xprof_proc *f, solved *s) {
  memset(s, 0, sizeof *s);
  s->fn = fn;
  if (xprof_use_replays(&u->u, name, file, f))
    replay_inlining(u, fn, name, file);
  s->calls = xl_vp_sites(fn, &s->n_calls);
  /* Calls were measured by their sites if the profile keeps values. */
  int built = xl_cfg_build(fn, s->calls, s->n_calls, u->u.obj && u->u.obj->n_values_per_vp > 0,
                           u->o->llvm.selects, &s->g);
  struct xl_places places = {.fn = fn, .cfg = &s->g, .calls = s->calls, .n_calls = s->n_calls};
  int ok = xprof_use_match(&u->u, name, file, f, built ? &s->g.g : NULL, xl_places_fill, &places,
                           &s->r);
  xl_places_free(&places);
  if (ok) {
    s->sampled = xprof_use_fn_sampled(&u->u, &s->r);
    uint64_t n = xprof_use_unreturned(&s->g.g, s->r.edge_count);
    if (n) {
      u->unreturned += n;
      u->unreturned_fns[u->n_unreturned_fns++] = fn;
    }
    return 1;
  }
  free(s->calls);
  xl_cfg_free(&s->g);
  return 0;
}

/* As LLVM's own profile use marks functions: an inline hint for those
 * entered a hot number of times (the inliner's threshold for calls to
 * them goes from 225 to 325), cold for those whose busiest block is cold
 * (never run, or nearly) unless the source says hot.  Counts from time
 * samples make nothing cold: a function with a sample or two ran for a
 * tick, perhaps a million times (LLVM's sample loader marks none). */
/* The count of the function's busiest block. */
static uint64_t busiest(const solved *s) {
  uint64_t max = 0;
  for (uint32_t b = 0; b < s->g.g.n_nodes; b++)
    max = s->r.node_count[b] > max ? s->r.node_count[b] : max;
  return max;
}

static void mark_hot_or_cold(use_ctx *u, const solved *s) {
  const uint64_t *node = s->r.node_count;
  uint64_t max = busiest(s);
  int hotness = node[XPROF_ENTRY] == 0 ? -1 : xl_hotness(u->hotness, node[XPROF_ENTRY], max);
  if (s->sampled && hotness < 0)
    hotness = 0;
  switch (hotness) {
  case 1:
    xl_add_fn_attr(s->fn, "inlinehint");
    break;
  case -1:
    if (!xl_has_fn_attr(s->fn, "hot"))
      xl_add_fn_attr(s->fn, "cold");
    break;
  }
}

static void free_solved(solved *s) {
  xprof_use_fn_free(&s->r);
  free(s->calls);
  xl_cfg_free(&s->g);
}

/* The weights of block b's terminator from its out-edges, edges
 * [first, end); parallel slots: all on the first.  (From time samples,
 * LLVM's sample loader gives every successor one more; that measured
 * slower here: bench/history.md.) */
static void weigh_block(const solved *s, uint32_t b, uint32_t first,
                        uint32_t end, weight_buf *buf) {
  const struct xl_cfg *cfg = &s->g;
  const xprof_graph *g = &cfg->g;
  const uint64_t *count = s->r.edge_count;
  LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->blocks[b]);
  unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
  LLVMOpcode op = t ? LLVMGetInstructionOpcode(t) : LLVMRet;
  if (ns < 2 ||
      (op != LLVMBr && op != LLVMSwitch && op != LLVMInvoke && op != LLVMIndirectBr))
    return;
  if (!weight_buf_fit(buf, ns))
    return;
  memset(buf->w, 0, ns * sizeof *buf->w);
  uint64_t out = 0;
  for (uint32_t e = first; e < end; e++)
    if (g->edges[e].dst != XPROF_EXIT && !(g->edges[e].flags & XPROF_EDGE_FAKE)) {
      buf->w[cfg->succ_slot[e]] = count[e];
      out += count[e];
    }
  if (out)
    xl_branch_weights(t, buf->w, ns, buf->ops);
}

/* A counted select's weights: how often its condition held, and its
 * block's count less that.  (Clamped: a block entered again by a setjmp
 * return may have run more selects than its count says.)  Only where the
 * block's count is hot: the code generator turns a select with one-sided
 * weights into a branch, which pays only where it runs often; elsewhere
 * it is code to no purpose, and in a huge function a new branch moves the
 * register allocator's choices (two selects that ran twice in bzip2's
 * BZ2_decompress made it slower). */
static void weigh_selects(use_ctx *u, const solved *s, weight_buf *buf) {
  const xprof_graph *g = &s->g.g;
  if (!g->n_side || !weight_buf_fit(buf, 2))
    return;
  for (uint32_t i = 0; i < g->n_side; i++) {
    uint64_t held = xprof_use_side_count(&s->r, g, i);
    if (held == XPROF_NO_SIDE)
      continue; /* a select salvage found no old count for */
    uint64_t total = s->r.node_count[g->side_node[i]];
    if (held > total)
      total = held;
    if (xl_hot_count(u->hotness, total) == 0)
      continue;
    buf->w[0] = held;
    buf->w[1] = total - held;
    if (total)
      xl_branch_weights(s->g.selects[i], buf->w, 2, buf->ops);
  }
}

/* The function's calls, with the counts of their blocks, for the link's
 * order of functions. */
static void record_calls(use_ctx *u, const solved *s) {
  const xprof_graph *g = &s->g.g;
  xprof_calls_function(u->calls, xl_function_name(s->fn), s->r.node_count, g->n_nodes,
                       xprof_use_records(&s->r), xprof_use_values(&u->u)->n_values_per_vp);
  for (uint32_t k = 2; k < g->n_nodes; k++) {
    LLVMBasicBlockRef b = s->g.blocks[k];
    for (LLVMValueRef i = b ? LLVMGetFirstInstruction(b) : NULL; i; i = LLVMGetNextInstruction(i)) {
      const char *callee = xl_direct_callee(i);
      if (callee)
        xprof_calls_call(u->calls, callee, s->r.node_count[k]);
    }
  }
}

/* -xprofile_order: a function with hot code in training (a block LLVM
 * counts hot) is marked for a section of its own, which OwnSectionPass
 * (plugin.cpp) names after inlining.  A function with a section already
 * (the user's, or a comdat group's own) keeps it, and none is marked when
 * the driver passed -ffunction-sections (for -fsplit-machine-functions,
 * which leaves alone functions with sections of their own). */
static void mark_own_section(use_ctx *u, const solved *s) {
  const char *section = LLVMGetSection(s->fn);
  if (u->o->function_sections || xl_hot_count(u->hotness, busiest(s)) != 1 || (section && *section) ||
      LLVMGetComdat(s->fn))
    return;
  LLVMContextRef cx = LLVMGetModuleContext(LLVMGetGlobalParent(s->fn));
  LLVMAddAttributeAtIndex(s->fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(cx, XL_OWN_SECTION, strlen(XL_OWN_SECTION), "", 0));
}

/* Phase 2: write what was solved. */
static void apply(use_ctx *u, solved *s) {
  const xprof_graph *g = &s->g.g;
  uint64_t entry = s->r.node_count[XPROF_ENTRY];
  /* Partial training: no entry count, weights or cold mark for a function
   * that never ran, as for a function the profile does not know; LLVM
   * optimizes it as without a profile. */
  if (entry == 0 && u->o->partial_training) {
    free_solved(s);
    return;
  }
  set_entry_count(u, s->fn, entry);
  mark_hot_or_cold(u, s);
  if (u->calls && entry) {
    record_calls(u, s);
    mark_own_section(u, s);
  }
  /* One pass over the edges: a block's out-edges are consecutive
   * (xl_cfg_build). */
  weight_buf buf = {NULL, NULL, 0};
  for (uint32_t e = 0, end; e < g->n_edges; e = end) {
    uint32_t b = g->edges[e].src;
    for (end = e + 1; end < g->n_edges && g->edges[end].src == b;)
      end++;
    if (b >= 2)
      weigh_block(s, b, e, end, &buf);
  }
  weigh_selects(u, s, &buf);
  free(buf.w);
  free(buf.ops);
  const xprof_objfile *o = xprof_use_values(&u->u);
  if (entry) {
    const xprof_proc *vf = xprof_use_records(&s->r); /* salvaged: records followed */
    unsigned n = value_profiles(u, o, vf, s->fn, s->calls, s->n_calls) +
                 specialize_divisions(u, o, vf, s->fn, s->calls, s->n_calls);
    u->u.st.specialized += n;
    if (n)
      xprof_verbose(&u->d, XPROF_MSG_SPECIALIZED, vf->name, n, xprof_plural(n));
  }
  free_solved(s);
}

/* Later first runs first; ties: later in the module first. */
static int later_first_run(const void *a, const void *b) {
  const solved *x = *(const solved *const *)a, *y = *(const solved *const *)b;
  uint64_t fx = xprof_use_records(&x->r)->first_run, fy = xprof_use_records(&y->r)->first_run;
  if (fx != fy)
    return fx < fy ? 1 : -1;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* The time profile: the functions that ran, in the order of their first
 * runs, ahead of the others -- the order GCC's profile use gives them
 * (-fprofile-reorder-functions) -- which code generation keeps, so that
 * the code a run needs first lies together.  all[] is in module order,
 * which ties keep. */
static void order_by_first_run(solved *all, uint32_t n) {
  solved **ran = xl_calloc(n + 1, sizeof *ran);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    if (xprof_use_records(&all[i].r)->first_run)
      ran[k++] = &all[i];
  qsort(ran, k, sizeof *ran, later_first_run);
  for (uint32_t i = 0; i < k; i++)
    xl_move_function_to_front(ran[i]->fn);
  free(ran);
}

/* The function of a label address that c (a constant) subtracts or
 * subtracts from, or NULL. */
static LLVMValueRef label_difference_fn(LLVMValueRef c, int in_sub) {
  if (LLVMIsABlockAddress(c))
    return in_sub ? LLVMGetOperand(c, 0) : NULL;
  if (LLVMIsAConstantExpr(c))
    in_sub |= LLVMGetConstOpcode(c) == LLVMSub;
  else if (!LLVMIsAConstantArray(c) && !LLVMIsAConstantStruct(c) && !LLVMIsAConstantVector(c))
    return NULL;
  int n = LLVMGetNumOperands(c);
  for (int i = 0; i < n; i++) {
    LLVMValueRef fn = label_difference_fn(LLVMGetOperand(c, i), in_sub);
    if (fn)
      return fn;
  }
  return NULL;
}

/* A function that keeps differences of its labels in static data (&&a -
 * &&b, as re2c's relative computed gotos write them) cannot be split by
 * clang's -fsplit-machine-functions (xprof-clang's
 * -freorder-blocks-and-partition): a label in the .cold part is in
 * another section, and the difference cannot be assembled ("Cannot
 * represent a difference across sections").  The splitter leaves alone
 * functions with a section of their own: such a function gets .text, where
 * it would be anyway but for the hot and unlikely prefixes.  The GCC
 * plugin keeps such functions whole too (use.cc, keep_whole). */
static void keep_label_differences_whole(LLVMModuleRef m) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    LLVMValueRef init = LLVMGetInitializer(g);
    LLVMValueRef fn = init ? label_difference_fn(init, 0) : NULL;
    const char *section = fn ? LLVMGetSection(fn) : NULL;
    if (fn && (!section || !*section) && !LLVMGetComdat(fn))
      LLVMSetSection(fn, ".text");
  }
}

/* Does the module have functions to miss the profile of? */
static int has_functions(LLVMModuleRef m, const xprof_options *o) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (xl_profiled_function(m, fn, o))
      return 1;
  return 0;
}

/* The whole profile's summary, the same in every module. */
static void set_summary(LLVMModuleRef m, const xprof_summary *s) {
  struct xl_summary_entry d[XPROF_SUMMARY_CUTOFFS];
  for (unsigned k = 0; k < XPROF_SUMMARY_CUTOFFS; k++) {
    d[k].cutoff = s->entry[k].cutoff;
    d[k].min_count = s->entry[k].min_count;
    d[k].num_counts = s->entry[k].num_counts;
  }
  xl_set_profile_summary(m, s->total_sum, s->total_max, s->n_counts, s->n_procs, d,
                         XPROF_SUMMARY_CUTOFFS);
}

/* Phase 1 over the module: the functions solved, *n of them. */
static solved *solve_all(use_ctx *u, uint32_t *n) {
  uint32_t n_fns = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(u->m); fn; fn = LLVMGetNextFunction(fn))
    n_fns++;
  solved *all = xl_calloc(n_fns + 1, sizeof *all);
  u->unreturned_fns = xl_calloc(n_fns + 1, sizeof *u->unreturned_fns);
  *n = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(u->m); fn; fn = LLVMGetNextFunction(fn)) {
    if (!xl_profiled_function(u->m, fn, u->o))
      continue;
    const char *name = xl_function_name(fn);
    char *file = xl_function_file(fn);
    const xprof_proc *f;
    if (xprof_use_find(&u->u, name, file, &f))
      *n += solve(u, fn, name, file, f, &all[*n]);
    free(file);
  }
  return all;
}

/* Calls through pointers that did not return in training make the counts
 * of the blocks that lead to them uncertain. */
static void warn_unreturned(use_ctx *u) {
  uint64_t uncertain =
      u->unreturned ? xl_uncertain_blocks(u->m, u->unreturned_fns, u->n_unreturned_fns) : 0;
  if (uncertain)
    xprof_warn(&u->d, XPROF_W_INEXACT,
               "%llu call%s through a pointer did not return in training (exit, longjmp or "
               "an exception; the first in %s); the counts of %llu block%s whose calls lead "
               "to it took every call as returning and may be off by as much",
               (unsigned long long)u->unreturned, xprof_plural(u->unreturned),
               xl_function_name(u->unreturned_fns[0]), (unsigned long long)uncertain,
               xprof_plural(uncertain));
  free(u->unreturned_fns);
  u->unreturned_fns = NULL;
}

/* The module's calls section (-xprofile_order): what r recorded, or, r
 * just begun, an empty one that tells the link the object was compiled
 * for the order. */
static void add_calls_section(LLVMModuleRef m, xprof_calls *r) {
  char *a = xprof_calls_end(r);
  if (a)
    LLVMAppendModuleInlineAsm(m, a, strlen(a));
  xprof_free(a);
}

int xl_run_use(LLVMModuleRef m, const xprof_options *o) {
  xl_take_shipped(m);
  use_ctx u = {0};
  u.m = m;
  u.cx = LLVMGetModuleContext(m);
  u.o = o;
  u.d = xl_diag(m, o);
  u.prof_kind = LLVMGetMDKindIDInContext(u.cx, "prof", 4);
  char *objpath = xl_object_path(m, o);
  if (!objpath)
    return 0;
  size_t n_shipped;
  const char *shipped = xl_shipped_data(m, &n_shipped);
  if (!xprof_use_open(&u.u, o, &u.d, objpath, shipped, n_shipped, has_functions(m, o))) {
    if (o->order)
      add_calls_section(m, xprof_calls_begin());
    xprof_use_close(&u.u);
    free(objpath);
    return 0;
  }
  u.profile_objpath = u.u.obj ? u.u.obj->path : objpath;
  uint32_t n_solved;
  solved *all = solve_all(&u, &n_solved);
  /* An object known only by its lines is compiled as without a profile
   * unless some function's counts were placed. */
  if (u.u.obj || n_solved)
    set_summary(m, xprof_use_summary(&u.u));
  warn_unreturned(&u);
  if (o->reorder_functions)
    order_by_first_run(all, n_solved);
  u.hotness = xl_hotness_open(m);
  u.calls = o->order ? xprof_calls_begin() : NULL;
  for (uint32_t i = 0; i < n_solved; i++)
    apply(&u, &all[i]);
  xl_hotness_close(u.hotness);
  add_calls_section(m, u.calls);
  free(all);
  keep_label_differences_whole(m);
  xprof_use_close(&u.u);
  free(objpath);
  return 1;
}
