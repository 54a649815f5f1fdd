/*
 * collect.c - -xprofile=collect on LLVM IR: counters on the edges off a
 * spanning tree, value-profile calls before indirect calls, and the
 * object file's descriptor (runtime/xprof_rt.h) with a constructor and a
 * destructor, as the GCC plugin does.
 *
 * Counters of ordinary functions live in one array per module; a
 * linkonce/weak (comdat) function gets an array of its own in a comdat
 * named after the function and its signature, so that the linker keeps
 * one array with the one copy of the code it keeps.
 *
 * With per-thread counters (the default), code for an executable counts
 * with plain adds in a thread-local twin of each array (local-exec TLS:
 * nothing at function entry), whose address the constructor hands to the
 * runtime (runtime/threads.c).  Other code (PIC, whose TLS may be
 * dynamic) gives each array a thread-local word D, and each function
 * finds the calling thread's copy of its array at entry: a distance d in
 * words, so that counter i is updated as ARRAY[d + i] with plain adds.
 */
#include <llvm-c/Comdat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "xprof_rt_records.h"

typedef struct fn_data {
  LLVMValueRef fn;
  const char *name;
  uint64_t signature;
  uint64_t comdat_key; /* in the names its comdat arrays share with copies */
  uint32_t n_counters, n_sites;
  uint8_t *site_types; /* XPROF_RT_VP_* per value-profile site */
  uint8_t *site_kinds; /* enum xl_site_kind per site */
  uint32_t *site_off;  /* each site's state, in words from vp_base */
  uint32_t vp_words;   /* of all its sites' states */
  uint32_t first_run;  /* its first-run word: in var, or in the module's;
                        * XL_NO_FIRST_RUN: none */
  LLVMValueRef var; /* own array (comdat) or NULL: the module's */
  LLVMValueRef twin, twin_cell; /* own (comdat) twin and its cell, or NULL */
  uint32_t base, vp_base;
  int take_address;
  unsigned char *shape; /* xprof_shape_encode's, or NULL */
  size_t shape_size;
} fn_data;

typedef struct ctx {
  LLVMModuleRef m;
  LLVMContextRef cx;
  const struct xl_options *o;
  LLVMTypeRef i8, i32, i64, i8p, i64p;
  LLVMBuilderRef b;
  fn_data *fns;
  uint32_t n_fns, cap_fns;
  uint32_t n_ctrs, n_vp_words, n_first_runs;
  struct vp_state { uint32_t at; uint64_t word0; } *vp_states; /* in the module's vp array */
  uint32_t n_vp_states, cap_vp_states;
  /* Placeholders while the sizes are not known: one global per array,
   * replaced at the end. */
  LLVMValueRef ctr_ph, vp_ph, twin_ph, fr_ph;
  LLVMValueRef twin_cell; /* of the module's twin */
  int twins;              /* counters in thread-local twins */
  LLVMValueRef copy; /* per-thread: placeholder of the copy's address */
  int shared_atomic; /* this function counts atomically in the shared array */
  LLVMValueRef tbaa; /* access tag of the counters, made on first use */
  FILE *cfg_dump;
  xprof_linetab *lines; /* the coverage table */
  const char *file_name, *file_dir; /* debug_file's last, and its result */
  char *file;
} ctx;

static int per_thread(const ctx *c) { return c->o->update == XL_UPDATE_THREAD; }

/* Twins are for code that goes into an executable, whose TLS is static:
 * not position-independent, or position-independent for an executable. */
static int use_twins(const ctx *c) {
  return per_thread(c) && c->o->tls_counters &&
         (!LLVMGetModuleFlag(c->m, "PIC Level", 9) ||
          LLVMGetModuleFlag(c->m, "PIE Level", 9));
}

/* A coroutine not yet cut by CoroSplit: LLVM 14 marks it with a string
 * attribute, later versions with an enum one. */
static int is_presplit_coroutine(LLVMValueRef fn) {
  static const char name[] = "coroutine.presplit", kind_name[] = "presplitcoroutine";
  if (LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, name, sizeof name - 1))
    return 1;
  unsigned kind = LLVMGetEnumAttributeKindForName(kind_name, sizeof kind_name - 1);
  return kind && LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind);
}

static int is_comdat(LLVMValueRef fn) {
  LLVMLinkage l = LLVMGetLinkage(fn);
  return l == LLVMLinkOnceODRLinkage || l == LLVMLinkOnceAnyLinkage ||
         l == LLVMWeakODRLinkage || l == LLVMWeakAnyLinkage;
}

/* Address of element idx of an i64 array global (placeholder or real). */
static LLVMValueRef elem(ctx *c, LLVMValueRef arr, uint32_t idx) {
  LLVMValueRef ix[2] = {LLVMConstInt(c->i32, 0, 0), LLVMConstInt(c->i32, idx, 0)};
  return LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(arr), arr, ix, 2);
}

/* A site's state: (value, count) pairs, or for the lengths of memory
 * operations a histogram that the compiled code counts in (xprof_rt.h). */
static int is_histogram(uint8_t kind) { return kind == XL_SITE_LENGTH; }

static uint32_t site_words(const ctx *c, uint8_t kind) {
  return is_histogram(kind) ? XPROF_RT_VP_HIST_WORDS : XPROF_RT_VP_WORDS(c->o->values_per_site);
}

static uint64_t site_word0(const ctx *c, uint8_t kind) {
  return c->o->values_per_site | (is_histogram(kind) ? XPROF_RT_VP_HISTOGRAM : 0);
}

/* A type-based alias analysis tag for the counters: a type of its own under
 * clang's C/C++ root, so that LLVM knows that no access of the program to
 * an int, a pointer or a double reads or writes a counter (only char
 * accesses may still alias: they alias everything).  Without it a counter
 * update is a store through memory whose address escaped (to the
 * registration), which keeps loads of the program from being reused or
 * hoisted across it. */
static LLVMValueRef counter_tbaa(ctx *c) {
  if (c->tbaa)
    return c->tbaa;
  LLVMMetadataRef zero = LLVMValueAsMetadata(LLVMConstInt(c->i64, 0, 0));
  LLVMMetadataRef root_name = LLVMMDStringInContext2(c->cx, "Simple C/C++ TBAA", 17);
  LLVMMetadataRef root = LLVMMDNodeInContext2(c->cx, &root_name, 1);
  LLVMMetadataRef chr[3] = {LLVMMDStringInContext2(c->cx, "omnipotent char", 15), root, zero};
  LLVMMetadataRef any = LLVMMDNodeInContext2(c->cx, chr, 3);
  LLVMMetadataRef ctr[3] = {LLVMMDStringInContext2(c->cx, "xprof counter", 13), any, zero};
  LLVMMetadataRef type = LLVMMDNodeInContext2(c->cx, ctr, 3);
  LLVMMetadataRef tag[3] = {type, type, zero};
  c->tbaa = LLVMMetadataAsValue(c->cx, LLVMMDNodeInContext2(c->cx, tag, 3));
  return c->tbaa;
}

static LLVMValueRef tag_counter_access(ctx *c, LLVMValueRef access) {
  LLVMSetMetadata(access, LLVMGetMDKindIDInContext(c->cx, "tbaa", 4), counter_tbaa(c));
  return access;
}

/* Add step (an i64, NULL for 1) to counter idx before `before`.  Returns
 * the update (the store, or the atomicrmw). */
static LLVMValueRef add_to_counter(ctx *c, LLVMValueRef before, LLVMValueRef arr,
                                   uint32_t idx, LLVMValueRef step) {
  LLVMPositionBuilderBefore(c->b, before);
  LLVMValueRef p = elem(c, arr, idx);
  LLVMValueRef one = step ? step : LLVMConstInt(c->i64, 1, 0);
  if (c->copy) { /* the thread's copy: ARRAY + d, computed once */
    LLVMValueRef i = LLVMConstInt(c->i64, idx, 0);
    p = LLVMBuildGEP2(c->b, c->i64, c->copy, &i, 1, "xprof.at");
  }
  if (c->o->update == XL_UPDATE_ATOMIC || c->shared_atomic) {
    return tag_counter_access(c, LLVMBuildAtomicRMW(c->b, LLVMAtomicRMWBinOpAdd, p, one,
                                                    LLVMAtomicOrderingMonotonic, 0));
  } else {
    /* Volatile, so that LICM leaves the update as it is: since LLVM 15
     * it hoists the load of a counter out of a loop whose store it cannot
     * sink (the update is conditional) and keeps the count in a register
     * that every update still stores -- a register held across the loop
     * for nothing (clang 16's bzip2 collect build ran far more
     * instructions so; llvm/counter-licm.test).
     * x86 still makes it one add to memory. */
    LLVMValueRef v = tag_counter_access(c, LLVMBuildLoad2(c->b, c->i64, p, "xprof.ctr"));
    LLVMValueRef st = LLVMBuildStore(c->b, LLVMBuildAdd(c->b, v, one, "xprof.inc"), p);
    LLVMSetVolatile(v, 1);
    LLVMSetVolatile(st, 1);
    return tag_counter_access(c, st);
  }
}

static LLVMValueRef increment(ctx *c, LLVMValueRef before, LLVMValueRef arr, uint32_t idx) {
  return add_to_counter(c, before, arr, idx, NULL);
}

/* Count how often each counted select's condition holds: a select's
 * other way is its block's count less that (use.c). */
static void count_selects(ctx *c, const struct xl_cfg *g, LLVMValueRef arr, uint32_t base) {
  /* Counters are numbered in the order of their first selects. */
  for (uint32_t i = 0, next = 0; i < g->n_selects; i++) {
    const struct xl_select *sel = &g->selects[i];
    if (sel->counter != next)
      continue; /* shares the counter of an earlier select */
    next++;
    LLVMPositionBuilderBefore(c->b, sel->inst);
    LLVMValueRef step = LLVMBuildZExt(c->b, LLVMGetOperand(sel->inst, 0), c->i64, "xprof.held");
    add_to_counter(c, sel->inst, arr, base + sel->counter, step);
  }
}

/* Where a counter for edge e goes (an instruction to insert before). */
static LLVMValueRef insertion_point(ctx *c, struct xl_cfg *g, uint32_t e) {
  const xprof_edge *x = &g->edges[e];
  if (x->src == XPROF_ENTRY) /* after the per-thread distance, if any */
    return c->copy ? LLVMGetNextInstruction(c->copy)
                    : xl_first_insertion_point(g->blocks[2]);
  LLVMBasicBlockRef src = g->blocks[x->src];
  LLVMValueRef t = LLVMGetBasicBlockTerminator(src);
  if (x->dst == XPROF_EXIT) {
    /* Nothing may come between a musttail call and its ret. */
    LLVMValueRef prev = LLVMGetPreviousInstruction(t);
    if (prev && LLVMIsACallInst(prev) && LLVMIsTailCall(prev))
      return prev;
    return t;
  }
  if (LLVMGetNumSuccessors(t) == 1)
    return t;
  if (!(x->flags & XPROF_EDGE_CRITICAL)) {
    LLVMValueRef ip = xl_first_insertion_point(g->blocks[x->dst]);
    if (ip)
      return ip;
  }
  LLVMBasicBlockRef nb = xl_split_edge(t, g->succ_slot[e]);
  return nb ? LLVMGetBasicBlockTerminator(nb) : NULL;
}

/* The runtime's recorder of indirect-call targets: void NAME(uint64_t *,
 * void *).  (Memory-operation lengths need no call: xl_count_length.) */
static LLVMValueRef vp_proc_fn(ctx *c) {
  const char *name = c->o->update == XL_UPDATE_SINGLE ? "__xprof_vp_proc_single"
                                                      : "__xprof_vp_proc";
  LLVMValueRef f = LLVMGetNamedFunction(c->m, name);
  if (!f) {
    LLVMTypeRef args[2] = {c->i64p, c->i8p};
    f = LLVMAddFunction(c->m, name, LLVMFunctionType(LLVMVoidTypeInContext(c->cx), args, 2, 0));
    xl_add_fn_attr(f, "nounwind");
  }
  return f;
}

/* The runtime's recorder of integers: void NAME(uint64_t *, int32_t) for
 * VP_INT, void NAME(uint64_t *, int64_t) for VP_LLONG. */
static LLVMValueRef vp_int_fn(ctx *c, unsigned vp_type) {
  int wide = vp_type == XPROF_RT_VP_LLONG;
  const char *name = wide ? "__xprof_vp_llong" : "__xprof_vp_int";
  LLVMValueRef f = LLVMGetNamedFunction(c->m, name);
  if (!f) {
    LLVMTypeRef args[2] = {c->i64p, wide ? c->i64 : c->i32};
    f = LLVMAddFunction(c->m, name, LLVMFunctionType(LLVMVoidTypeInContext(c->cx), args, 2, 0));
    xl_add_fn_attr(f, "nounwind");
  }
  return f;
}

/* A comdat function's own array: its counters, its sites' states and
 * its first-run word. */
#define XL_NO_FIRST_RUN UINT32_MAX

static LLVMValueRef comdat_array(ctx *c, fn_data *f) {
  uint32_t total = f->n_counters + f->vp_words + (c->o->reorder_functions != 0);
  char *name = xl_check(xprof_comdat_array_name(XPROF_COMDAT_COUNTERS, f->name, f->comdat_key));
  LLVMTypeRef ty = LLVMArrayType(c->i64, total ? total : 1);
  LLVMValueRef g = LLVMGetNamedGlobal(c->m, name);
  if (!g) {
    g = LLVMAddGlobal(c->m, ty, name);
    LLVMValueRef *init = xl_calloc(total + 1, sizeof *init);
    for (uint32_t i = 0; i < total + 1; i++)
      init[i] = LLVMConstInt(c->i64, 0, 0);
    for (uint32_t s = 0; s < f->n_sites; s++)
      init[f->n_counters + f->site_off[s]] = LLVMConstInt(c->i64, site_word0(c, f->site_kinds[s]), 0);
    LLVMSetInitializer(g, LLVMConstArray(c->i64, init, total ? total : 1));
    free(init);
    LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
    LLVMSetVisibility(g, LLVMHiddenVisibility);
    LLVMSetComdat(g, LLVMGetOrInsertComdat(c->m, name));
    LLVMSetAlignment(g, 8);
  }
  xprof_free(name);
  return g;
}

/* ---- per-thread counters: twins ----------------------------------------- */

static void make_comdat(ctx *c, LLVMValueRef g, const char *name) {
  LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
  LLVMSetVisibility(g, LLVMHiddenVisibility);
  LLVMSetComdat(g, LLVMGetOrInsertComdat(c->m, name));
}

/* A zero-initialized word or array of the module, made once: private to
 * the module, or one per program (comdat). */
static LLVMValueRef module_global(ctx *c, const char *name, LLVMTypeRef ty, int comdat) {
  LLVMValueRef g = LLVMGetNamedGlobal(c->m, name);
  if (g)
    return g;
  g = LLVMAddGlobal(c->m, ty, name);
  LLVMSetInitializer(g, LLVMConstNull(ty));
  LLVMSetAlignment(g, 8);
  if (comdat)
    make_comdat(c, g, name);
  else
    LLVMSetLinkage(g, LLVMInternalLinkage);
  return g;
}

/* A thread-local twin of n counters (local-exec: only in executables). */
static LLVMValueRef twin_array(ctx *c, const char *name, uint32_t n, int comdat) {
  LLVMValueRef g = module_global(c, name, LLVMArrayType(c->i64, n ? n : 1), comdat);
  LLVMSetThreadLocal(g, 1);
  LLVMSetThreadLocalMode(g, LLVMLocalExecTLSModel);
  return g;
}

/* The word the constructor points at a twin in the registering thread. */
static LLVMValueRef twin_cell(ctx *c, const char *name, int comdat) {
  return module_global(c, name, c->i64p, comdat);
}

/* The array f's counters are added to: its twin (made here) or arr. */
static LLVMValueRef counting_array(ctx *c, fn_data *f, LLVMValueRef arr) {
  if (!c->twins || !f->n_counters)
    return arr;
  if (!f->var) {
    if (!c->twin_ph) { /* sized at the end, as the module's array */
      c->twin_ph = twin_array(c, "__xprof_t.ph", 1u << 30, 0);
      c->twin_cell = twin_cell(c, XPROF_COMDAT_TWIN_CELL, 0);
    }
    return c->twin_ph;
  }
  char *name = xl_check(xprof_comdat_array_name(XPROF_COMDAT_TWIN, f->name, f->comdat_key));
  char *cell = xl_check(xprof_comdat_array_name(XPROF_COMDAT_TWIN_CELL, f->name, f->comdat_key));
  f->twin = twin_array(c, name, f->n_counters, 1);
  f->twin_cell = twin_cell(c, cell, 1);
  xprof_free(name);
  xprof_free(cell);
  return f->twin;
}

/* ---- per-thread counters: the code at function entry ------------------- */

static LLVMValueRef named_decl(ctx *c, const char *name, LLVMTypeRef ty) {
  LLVMValueRef f = LLVMGetNamedFunction(c->m, name);
  if (!f)
    f = LLVMAddFunction(c->m, name, ty);
  return f;
}

static void likely_true(ctx *c, LLVMValueRef br) {
  LLVMMetadataRef md[3] = {LLVMMDStringInContext2(c->cx, "branch_weights", 14),
                           LLVMValueAsMetadata(LLVMConstInt(c->i32, 2000, 0)),
                           LLVMValueAsMetadata(LLVMConstInt(c->i32, 1, 0))};
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c->cx, "prof", 4),
                  LLVMMetadataAsValue(c->cx, LLVMMDNodeInContext2(c->cx, md, 3)));
}

/* A placeholder for the address of the thread's copy at the top of the
 * entry block (after its allocas), used by the increments until the real
 * value exists. */
static LLVMValueRef copy_placeholder(ctx *c, LLVMValueRef fn) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  LLVMValueRef i = LLVMGetFirstInstruction(entry);
  while (i && LLVMIsAAllocaInst(i))
    i = LLVMGetNextInstruction(i);
  LLVMPositionBuilderBefore(c->b, i);
  return LLVMBuildFreeze(c->b, LLVMGetUndef(c->i64p), "xprof.copy.ph");
}

/* The thread-local word of an array: the distance to this thread's copy
 * (local-exec in executables: one load from the thread pointer). */
static LLVMValueRef thread_word(ctx *c, const char *name, int comdat) {
  LLVMValueRef g = module_global(c, name, c->i64, comdat);
  LLVMSetThreadLocal(g, 1);
  return g;
}

/* Replace the placeholder:
 *
 *   entry: (allocas) d1 = load D; br d1 != 0, rest, slow
 *   slow:  d2 = call @__xprof_thread_counters(ARRAY, D); br rest
 *   rest:  delta = phi [d1, entry], [d2, slow];
 *          copy = getelementptr i64, ARRAY, delta; (the entry block's code)
 *
 * The counters are then addressed from one register; the address is still
 * based on ARRAY as far as LLVM's alias analysis can tell.
 */
/* The x86-64 trampolines keep the SSE registers but not the upper halves
 * of wider vectors: live at the entry code only as arguments. */
static unsigned element_bits(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t);
  case LLVMHalfTypeKind: case LLVMBFloatTypeKind: return 16;
  case LLVMFloatTypeKind: return 32;
  default: return 64; /* double, pointers; wider ones are rare */
  }
}

static int has_wide_vector_args(LLVMValueRef fn) {
  unsigned n = LLVMCountParams(fn);
  for (unsigned i = 0; i < n; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, i));
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind &&
        LLVMGetVectorSize(t) * element_bits(LLVMGetElementType(t)) > 128)
      return 1;
  }
  return 0;
}

/* The slow path as an asm statement calling, through the GOT, the
 * runtime's trampoline that keeps every register but rax
 * (runtime/threads_pm.S): to LLVM it is not a call, so neither the
 * register allocator nor the inliner's cost model pays for one in every
 * function; its arguments go in r10 and r11, so the function's own stay in
 * their registers. */
static LLVMValueRef slow_path_asm(ctx *c, LLVMValueRef array, LLVMValueRef word) {
  LLVMTypeRef params[2] = {c->i64p, c->i64p};
  LLVMTypeRef fty = LLVMFunctionType(c->i64, params, 2, 0);
  char text[] = "lea -128(%rsp), %rsp\n\t"
                "call *__xprof_thread_counters_asm_r10@GOTPCREL(%rip)\n\t"
                "lea 128(%rsp), %rsp";
  char constraints[] = "={rax},{r10},{r11},~{dirflag},~{fpsr},~{flags},~{memory}";
  LLVMValueRef a = LLVMGetInlineAsm(fty, text, strlen(text), constraints,
                                    strlen(constraints), 1, 0,
                                    LLVMInlineAsmDialectATT, 0);
  LLVMValueRef args[2] = {array, word};
  return LLVMBuildCall2(c->b, fty, a, args, 2, "xprof.delta");
}

static void emit_thread_entry(ctx *c, LLVMValueRef arr, LLVMValueRef word) {
  LLVMValueRef ph = c->copy;
  LLVMBasicBlockRef entry = LLVMGetInstructionParent(ph);
  LLVMBasicBlockRef rest = xl_split_block_before(ph);
  LLVMBasicBlockRef slow = LLVMInsertBasicBlockInContext(c->cx, rest, "xprof.slow");
  LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(entry));

  LLVMPositionBuilderAtEnd(c->b, entry);
  LLVMValueRef d1 = LLVMBuildLoad2(c->b, c->i64, word, "xprof.delta");
  likely_true(c, LLVMBuildCondBr(c->b, LLVMBuildIsNotNull(c->b, d1, ""), rest, slow));

  LLVMPositionBuilderAtEnd(c->b, slow);
  LLVMTypeRef params[2] = {c->i64p, c->i64p};
  LLVMTypeRef fty = LLVMFunctionType(c->i64, params, 2, 0);
  /* On x86-64 the runtime has a version that keeps every register, so a
   * leaf function stays one. */
  const char *triple = LLVMGetTarget(c->m);
  int x86_64 = triple && strncmp(triple, "x86_64", 6) == 0 && !strstr(triple, "x32");
  LLVMValueRef args[2] = {LLVMConstPointerCast(elem(c, arr, 0), c->i64p), word};
  LLVMValueRef d2;
  if (x86_64 && !has_wide_vector_args(LLVMGetBasicBlockParent(entry))) {
    d2 = slow_path_asm(c, args[0], args[1]);
  } else {
    LLVMValueRef callee = named_decl(c, "__xprof_thread_counters", fty);
    xl_add_fn_attr(callee, "nounwind");
    xl_add_fn_attr(callee, "cold");
    d2 = LLVMBuildCall2(c->b, fty, callee, args, 2, "xprof.delta");
  }
  LLVMBuildBr(c->b, rest);

  LLVMPositionBuilderBefore(c->b, LLVMGetFirstInstruction(rest));
  LLVMValueRef phi = LLVMBuildPhi(c->b, c->i64, "xprof.delta");
  LLVMValueRef vals[2] = {d1, d2};
  LLVMBasicBlockRef from[2] = {entry, slow};
  LLVMAddIncoming(phi, vals, from, 2);
  LLVMPositionBuilderBefore(c->b, ph);
  LLVMValueRef copy = LLVMBuildGEP2(c->b, c->i64, LLVMConstPointerCast(arr, c->i64p),
                                    &phi, 1, "xprof.copy");
  LLVMReplaceAllUsesWith(ph, copy);
  LLVMInstructionEraseFromParent(ph);
  c->copy = NULL;
}

/* The size of an instruction as LLVM's inline cost analysis sees it,
 * roughly (InlineCost.cpp: 5 for an instruction that does not fold away,
 * 25 more for a call, 5 per argument of a call or asm statement; free:
 * phis, jumps, constant addresses, casts between pointers and integers,
 * and accesses to allocas, which SROA turns into registers before the
 * inliner runs). */
static long inliner_cost(LLVMValueRef i) {
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMPHI: case LLVMBitCast: case LLVMPtrToInt: case LLVMIntToPtr:
  case LLVMAlloca:
    return 0;
  case LLVMBr:
    return LLVMIsConditional(i) ? 5 : 0;
  case LLVMLoad: /* of a promoted counter: a register after SROA */
    return LLVMIsAAllocaInst(LLVMGetOperand(i, 0)) ? 0 : 5;
  case LLVMStore:
    return LLVMIsAAllocaInst(LLVMGetOperand(i, 1)) ? 0 : 5;
  case LLVMGetElementPtr:
    for (int k = 1; k < LLVMGetNumOperands(i); k++)
      if (!LLVMIsConstant(LLVMGetOperand(i, (unsigned)k)))
        return 5;
    return 0;
  case LLVMCall: {
    LLVMValueRef callee = LLVMGetCalledValue(i);
    long args = 5 * (long)LLVMGetNumArgOperands(i);
    if (LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee))
      return 5;
    if (LLVMIsAInlineAsm(callee))
      return 5 + args;
    return 30 + args;
  }
  default:
    return 5;
  }
}

/* Counters make a function look bigger to the inliner than it is to the
 * program (sqlite3DbNNFreeNN went over the threshold), so collection
 * builds inlined less than the plain build, and paid for the calls.  LLVM raises a
 * callee's threshold by the "call-threshold-bonus" of each call inside it:
 * one empty asm statement at the entry carries the size the
 * instrumentation added, and costs nothing itself ("call-inline-cost").
 * Inlined, it goes along, so a caller's bonus covers its callees'
 * counters as well; once a function has been simplified its bonus is
 * made what its instrumentation costs then (xl_rebase_inline_bonus), and
 * it is removed once inlining is over (plugin.cpp). */
static void add_bonus_mark(LLVMValueRef fn, long bonus) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(fn));
  LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(cx), NULL, 0, 0);
  LLVMValueRef a = LLVMGetInlineAsm(fty, "", 0, "", 0, 1, 0, LLVMInlineAsmDialectATT, 0);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
  LLVMPositionBuilderBefore(b, xl_first_insertion_point(LLVMGetEntryBasicBlock(fn)));
  LLVMValueRef call = LLVMBuildCall2(b, fty, a, NULL, 0, "");
  LLVMDisposeBuilder(b);
  char text[24];
  snprintf(text, sizeof text, "%ld", bonus);
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                           LLVMCreateStringAttribute(cx, XL_INLINE_BONUS, strlen(XL_INLINE_BONUS),
                                                     text, (unsigned)strlen(text)));
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                           LLVMCreateStringAttribute(cx, "call-inline-cost", 16, "0", 1));
  xl_set_inaccessible_mem_only(call);
  xl_add_call_attr(call, "nounwind");
  xl_add_call_attr(call, "willreturn");
}

/* Never inlined (-O0 makes every function both): nothing to tell. */
static int never_inlined(LLVMValueRef fn) {
  return xl_has_fn_attr(fn, "noinline") || xl_has_fn_attr(fn, "optnone");
}

/* Set once this compilation has made a mark: the passes that rebase and
 * drop marks have nothing to look for in the others (use builds). */
static int bonus_marks_made;

static void compensate_inliner(LLVMValueRef fn, long added) {
  if (added > 0 && !never_inlined(fn)) {
    add_bonus_mark(fn, added);
    bonus_marks_made = 1;
  }
}

/* The bonus mark's value, or -1 when i is not a mark. */
static long bonus_of(LLVMValueRef i) {
  if (LLVMGetInstructionOpcode(i) != LLVMCall || !LLVMIsAInlineAsm(LLVMGetCalledValue(i)))
    return -1;
  LLVMAttributeRef a = LLVMGetCallSiteStringAttribute(i, LLVMAttributeFunctionIndex,
                                                      XL_INLINE_BONUS, strlen(XL_INLINE_BONUS));
  if (!a)
    return -1;
  unsigned len;
  const char *v = LLVMGetStringAttributeValue(a, &len);
  char text[24];
  snprintf(text, sizeof text, "%.*s", (int)len, v);
  return strtol(text, NULL, 10);
}

/* Instructions the instrumentation made carry this metadata kind (an
 * empty node), so that their cost can be told from the program's after
 * inlining has mixed them (what optimizations rewrite loses it, and is
 * then counted as the program's). */
#define INSTRUMENTATION_MD "xprof.instr"

static unsigned instrumentation_kind(LLVMValueRef fn) {
  return LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(fn)), INSTRUMENTATION_MD,
                                  strlen(INSTRUMENTATION_MD));
}

static int cmp_ptr(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
  return x < y ? -1 : x > y;
}

/* fn's instructions, sorted by address, for mark_instrumentation
 * (malloc'd; *n their number). */
static LLVMValueRef *instructions_of(LLVMValueRef fn, size_t *n) {
  size_t k = 0, cap = 256;
  LLVMValueRef *v = xl_calloc(cap, sizeof *v);
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (k == cap)
        v = xl_realloc(v, (cap *= 2) * sizeof *v);
      v[k++] = i;
    }
  qsort(v, k, sizeof *v, cmp_ptr);
  *n = k;
  return v;
}

/* Mark the instructions of fn that are not among before[0..n) (the
 * program's, sorted): what instrumenting it added.  Returns their cost to
 * the inliner. */
static long mark_instrumentation(LLVMValueRef fn, LLVMValueRef *before, size_t n) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(fn));
  LLVMValueRef mark = LLVMMetadataAsValue(cx, LLVMMDNodeInContext2(cx, NULL, 0));
  unsigned kind = instrumentation_kind(fn);
  long cost = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
      if (!bsearch(&i, before, n, sizeof *before, cmp_ptr)) {
        LLVMSetMetadata(i, kind, mark);
        cost += inliner_cost(i);
      }
  return cost;
}

/* Remove fn's bonus marks; returns how many there were. */
static unsigned drop_marks(LLVMValueRef fn) {
  unsigned n = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (bonus_of(i) >= 0) {
        LLVMInstructionEraseFromParent(i);
        n++;
      }
    }
  return n;
}

int xl_drop_inline_bonus(LLVMValueRef fn) { return bonus_marks_made && drop_marks(fn) != 0; }

int xl_rebase_inline_bonus(LLVMValueRef fn) {
  if (!bonus_marks_made || never_inlined(fn))
    return 0;
  unsigned kind = instrumentation_kind(fn);
  long cost = 0, marked = 0;
  unsigned n_marks = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      long bonus = bonus_of(i);
      if (bonus >= 0) {
        marked += bonus;
        n_marks++;
      } else if (LLVMGetMetadata(i, kind)) {
        cost += inliner_cost(i);
      }
    }
  if (n_marks == 0 || (n_marks == 1 && cost == marked))
    return 0; /* no bonus (-xprof-inline-bonus=false), or the right one */
  drop_marks(fn);
  if (cost > 0)
    add_bonus_mark(fn, cost);
  return 1;
}

/* A new record for fn with its value-profile sites laid out (their
 * kinds and where each one's state starts), its counters counted (the
 * edges', the selects', then the debug counters) and its comdat key.
 * *n_edge_ctrs and *n_debug get the first two kinds and the last. */
static fn_data *new_fn(ctx *c, LLVMValueRef fn, const struct xl_cfg *g,
                       const LLVMValueRef *calls, uint32_t n_sites, uint32_t *n_edge_ctrs,
                       uint32_t *n_debug) {
  c->fns = xl_grow(c->fns, &c->cap_fns, c->n_fns, sizeof *c->fns);
  fn_data *f = &c->fns[c->n_fns];
  memset(f, 0, sizeof *f);
  f->fn = fn;
  f->name = xl_strdup(xl_function_name(fn));
  f->signature = g->signature;
  f->n_sites = n_sites;
  /* Its shape, for salvaging its counts after an edit (none when out of
   * memory: the function is profiled all the same). */
  xprof_shape shape;
  xl_shape_of(g, calls, n_sites, &shape);
  if (xprof_shape_encode(&shape, &f->shape, &f->shape_size) < 0)
    f->shape = NULL;
  xl_shape_free_sites(&shape);
  f->site_types = xl_malloc(n_sites + 1);
  f->site_kinds = xl_malloc(n_sites + 1);
  f->site_off = xl_malloc((n_sites + 1) * sizeof *f->site_off);
  uint32_t *words = xl_malloc((n_sites + 1) * sizeof *words);
  for (uint32_t s = 0; s < n_sites; s++) {
    f->site_types[s] = (uint8_t)xl_site_vp_type(calls, s);
    f->site_kinds[s] = (uint8_t)xl_site_kind(calls, s);
    f->site_off[s] = f->vp_words;
    words[s] = site_words(c, f->site_kinds[s]);
    f->vp_words += words[s];
  }
  *n_edge_ctrs = (uint32_t)g->n_counters + g->n_select_counters;
  *n_debug = 0;
  for (uint32_t e = 0; c->o->all_edges && e < g->n_edges; e++)
    *n_debug += XPROF_DEBUG_COUNTED(g->edges[e].flags);
  f->n_counters = *n_edge_ctrs + *n_debug;
  /* The key covers every word of a comdat array (collect.cc says why):
   * the first-run word as one more state of one word. */
  words[n_sites] = 1;
  f->comdat_key = xprof_comdat_key(f->signature, g->edges, g->n_edges, *n_debug != 0, words,
                                   n_sites + (c->o->reorder_functions != 0));
  free(words);
  LLVMLinkage l = LLVMGetLinkage(fn);
  /* Only possible indirect-call targets need their address recorded. */
  f->take_address =
      (l != LLVMInternalLinkage && l != LLVMPrivateLinkage && !is_comdat(fn)) ||
      xl_address_taken(fn);
  return f;
}

/* Where f's counters and value-profile states go: a comdat array of its
 * own, or its share of the module's arrays.  Sets *arr and *vp_arr. */
static void place_arrays(ctx *c, fn_data *f, LLVMValueRef *arr, LLVMValueRef *vp_arr) {
  if (is_comdat(f->fn)) {
    f->var = *arr = *vp_arr = comdat_array(c, f);
    f->base = 0;
    f->vp_base = f->n_counters;
    f->first_run = c->o->reorder_functions ? f->n_counters + f->vp_words : XL_NO_FIRST_RUN;
    return;
  }
  f->first_run = c->o->reorder_functions ? c->n_first_runs++ : XL_NO_FIRST_RUN;
  *arr = c->ctr_ph;
  *vp_arr = c->vp_ph;
  f->base = c->n_ctrs;
  f->vp_base = c->n_vp_words;
  c->n_ctrs += f->n_counters;
  for (uint32_t s = 0; s < f->n_sites; s++) {
    c->vp_states = xl_grow(c->vp_states, &c->cap_vp_states, c->n_vp_states,
                           sizeof *c->vp_states);
    c->vp_states[c->n_vp_states++] =
        (struct vp_state){c->n_vp_words + f->site_off[s], site_word0(c, f->site_kinds[s])};
  }
  c->n_vp_words += f->vp_words;
}

/* The increments on the counted edges (and every edge with debug
 * counters): all insertion points are decided before any edge is split.
 * Returns the updates made, *n_updates of them. */
static LLVMValueRef *count_edges(ctx *c, const fn_data *f, struct xl_cfg *g,
                                 LLVMValueRef count_arr, uint32_t n_edge_ctrs,
                                 uint32_t n_debug, uint32_t *n_updates) {
  LLVMValueRef *at = xl_calloc(g->n_edges + 1, sizeof *at);
  for (uint32_t e = 0; e < g->n_edges; e++) {
    int counted = XPROF_HAS_COUNTER(g->counter_of_edge[e]);
    int debug = n_debug && XPROF_DEBUG_COUNTED(g->edges[e].flags);
    if (counted || debug)
      at[e] = insertion_point(c, g, e);
  }
  uint32_t dbg = 0, n = 0;
  LLVMValueRef *updates = xl_calloc(2 * (size_t)g->n_edges + 1, sizeof *updates);
  for (uint32_t e = 0; e < g->n_edges; e++) {
    uint32_t k = g->counter_of_edge[e];
    if (XPROF_HAS_COUNTER(k) && at[e])
      updates[n++] = increment(c, at[e], count_arr, f->base + k);
    if (n_debug && XPROF_DEBUG_COUNTED(g->edges[e].flags)) {
      if (at[e])
        updates[n++] = increment(c, at[e], count_arr, f->base + n_edge_ctrs + dbg);
      dbg++;
    }
  }
  free(at);
  *n_updates = n;
  return updates;
}

/* The code at function entry that finds this thread's copy of the
 * counters (per-thread counters without twins). */
static void thread_entry(ctx *c, const fn_data *f, LLVMValueRef arr) {
  LLVMValueRef word;
  if (f->var) {
    char *name =
        xl_check(xprof_comdat_array_name(XPROF_COMDAT_THREAD_WORD, f->name, f->comdat_key));
    word = thread_word(c, name, 1);
    xprof_free(name);
  } else {
    word = thread_word(c, XPROF_COMDAT_THREAD_WORD, 0);
  }
  emit_thread_entry(c, arr, word);
}

/* Record the values of f's value-profile sites.  The runtime keeps a
 * site's most frequent values in front: the first two are checked and
 * counted inline, a call for the others (a call and a scan of the pairs
 * in the runtime).  Lengths of memory operations vary a lot (sqlite's):
 * a histogram, counted inline. */
static void record_values(ctx *c, const fn_data *f, const LLVMValueRef *calls,
                          LLVMValueRef vp_arr) {
  unsigned inline_pairs = c->o->values_per_site < XPROF_RT_VP_INLINE_PAIRS
                              ? c->o->values_per_site
                              : XPROF_RT_VP_INLINE_PAIRS;
  int atomic = c->o->update != XL_UPDATE_SINGLE;
  for (uint32_t s = 0; s < f->n_sites; s++) {
    LLVMPositionBuilderBefore(c->b, calls[s]);
    LLVMValueRef len = xl_memop_length(calls[s]);
    LLVMValueRef state = elem(c, vp_arr, f->vp_base + f->site_off[s]);
    if (len) {
      xl_count_length(calls[s], state, LLVMBuildZExtOrBitCast(c->b, len, c->i64, ""), atomic);
    } else if (f->site_kinds[s] != XL_SITE_CALL) {
      /* The divisor, or the quotient of a urem (its divisor is not 0
       * wherever the urem is defined); kept as the runtime keeps it: an
       * int sign-extended. */
      LLVMValueRef v = LLVMGetOperand(calls[s], 1);
      if (f->site_kinds[s] == XL_SITE_QUOTIENT)
        v = LLVMBuildUDiv(c->b, LLVMGetOperand(calls[s], 0), v, "xprof.quotient");
      int wide = f->site_types[s] == XPROF_RT_VP_LLONG;
      LLVMValueRef arg = LLVMBuildSExtOrBitCast(c->b, v, wide ? c->i64 : c->i32, "");
      LLVMValueRef value = LLVMBuildSExtOrBitCast(c->b, arg, c->i64, "");
      xl_record_value(calls[s], state, value, vp_int_fn(c, f->site_types[s]), arg, inline_pairs,
                      atomic);
    } else {
      LLVMValueRef arg = LLVMBuildPointerCast(c->b, LLVMGetCalledValue(calls[s]), c->i8p, "");
      LLVMValueRef value = LLVMBuildPtrToInt(c->b, arg, c->i64, "");
      xl_record_value(calls[s], state, value, vp_proc_fn(c), arg, inline_pairs, atomic);
    }
  }
}

/* ---- the coverage table (gcc-plugin/collect.cc writes the same) ------- */

/* The source file of v's debug location (an instruction's, or a
 * function's declaration), its directory and name joined; NULL when it
 * has none. */
static const char *debug_file(ctx *c, LLVMValueRef v) {
  unsigned n_name, n_dir;
  const char *name = LLVMGetDebugLocFilename(v, &n_name);
  const char *dir = LLVMGetDebugLocDirectory(v, &n_dir);
  if (!name || !n_name)
    return NULL;
  if (name == c->file_name && dir == c->file_dir)
    return c->file;
  free(c->file);
  int n = name[0] == '/' || !dir || !n_dir
              ? asprintf(&c->file, "%.*s", (int)n_name, name)
              : asprintf(&c->file, "%.*s/%.*s", (int)n_dir, dir, (int)n_name, name);
  if (n < 0)
    xl_check(NULL);
  c->file_name = name;
  c->file_dir = dir;
  return c->file;
}

/* A direct call (not of an intrinsic) in block k, for xprof_gprof's call
 * arcs. */
static void record_call(ctx *c, uint32_t k, LLVMValueRef i) {
  if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
    return;
  LLVMValueRef callee = LLVMGetCalledValue(i);
  if (!callee || !LLVMIsAFunction(callee) || LLVMGetIntrinsicID(callee))
    return;
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  if (len)
    xprof_linetab_call(c->lines, k, name);
}

/* fn's entry in the coverage table: its graph and the lines of its
 * blocks, as LLVM's gcov instrumentation gives them (the declaration's
 * line in the entry block, then each instruction's). */
static void record_lines(ctx *c, LLVMValueRef fn, const fn_data *f, const struct xl_cfg *g) {
  const char *decl = debug_file(c, fn);
  unsigned decl_line = decl ? LLVMGetDebugLocLine(fn) : 0;
  xprof_linetab_proc(c->lines, f->name, f->signature, g->n_nodes, g->edges, g->n_edges,
                     g->counter_of_edge, (uint32_t)g->n_counters, is_comdat(fn), decl,
                     decl_line);
  if (decl)
    xprof_linetab_line(c->lines, 2, decl, decl_line);
  for (uint32_t k = 2; k < g->n_nodes; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->blocks[k]); i; i = LLVMGetNextInstruction(i)) {
      unsigned line = LLVMIsADbgInfoIntrinsic(i) ? 0 : LLVMGetDebugLocLine(i);
      const char *file = line ? debug_file(c, i) : NULL;
      if (file)
        xprof_linetab_line(c->lines, k, file, line);
      record_call(c, k, i);
    }
}

/* Write the coverage table beside the object file, or into -xprof-tcov-dir
 * under the object's name in the profile (where xprof_tcov looks it up). */
static void write_lines(ctx *c) {
  int asked = c->o->coverage == XPROF_COVERAGE_ASKED;
  const char *dir = c->o->coverage_dir;
  char *name = dir ? xl_object_path(c->m, c->o) : xl_object_file(c->m, c->o);
  if (!name) {
    if (asked)
      xl_warning(c->m, "no coverage table: compiled on another machine");
    xprof_linetab_end(c->lines, NULL, NULL);
    c->lines = NULL;
    return;
  }
  if (asked && !xprof_linetab_has_lines(c->lines))
    xl_warning(c->m, "no line information: the coverage table of %s has none (compile with -g)",
               name);
  xprof_error err;
  if (xprof_linetab_write(c->lines, name, dir, &err) < 0 && (asked || c->o->verbose))
    xl_warning(c->m, "coverage table not written: %s", err.msg);
  c->lines = NULL;
  free(name);
}

/* Instrument fn.  Returns 0, or -1 when its control flow cannot be
 * counted exactly (it is left alone, with a note when verbose). */
static int instrument(ctx *c, LLVMValueRef fn) {
  size_t n_before = 0;
  LLVMValueRef *before = c->o->inline_bonus ? instructions_of(fn, &n_before) : NULL;
  uint32_t n_sites;
  LLVMValueRef *calls = xl_vp_sites(fn, &n_sites);
  struct xl_cfg g;
  if (!xl_cfg_build(fn, calls, n_sites, c->o->values_per_site > 0, c->o->count_selects, &g)) {
    free(calls);
    free(before);
    if (c->o->verbose)
      xl_note(c->m, "%s: not profiled (control flow counters cannot follow exactly)",
              xl_function_name(fn));
    return -1;
  }
  uint32_t n_edge_ctrs, n_debug;
  fn_data *f = new_fn(c, fn, &g, calls, n_sites, &n_edge_ctrs, &n_debug);
  LLVMValueRef arr, vp_arr;
  place_arrays(c, f, &arr, &vp_arr);
  if (c->cfg_dump)
    xprof_cfgdump_proc(c->cfg_dump, f->name, f->signature, g.n_nodes, g.edges, g.n_edges,
                       g.counter_of_edge, n_edge_ctrs, n_debug != 0);
  /* A coroutine may be resumed in another thread than the one that made
   * its frame, and what its code computed at entry (the address of a
   * thread's copy or twin) is kept in the frame: with per-thread
   * counters it counts atomically in the shared array instead. */
  c->shared_atomic = per_thread(c) && is_presplit_coroutine(fn);
  LLVMValueRef count_arr = c->shared_atomic ? arr : counting_array(c, f, arr);
  c->copy = per_thread(c) && !c->twins && !c->shared_atomic && f->n_counters
                ? copy_placeholder(c, fn)
                : NULL;
  if (c->lines)
    record_lines(c, fn, f, &g);
  uint32_t n_updates;
  LLVMValueRef *updates = count_edges(c, f, &g, count_arr, n_edge_ctrs, n_debug, &n_updates);
  count_selects(c, &g, count_arr, f->base + (uint32_t)g.n_counters);
  if (c->copy)
    thread_entry(c, f, arr);
  if (c->o->promote)
    xl_promote_counters(fn, updates, n_updates);
  free(updates);
  record_values(c, f, calls, vp_arr);
  /* The test of the first-run word comes at the end of the optimizer
   * (first_run.c). */
  size_t len;
  if (f->first_run != XL_NO_FIRST_RUN)
    xl_mark_first_run(fn, f->var ? LLVMGetValueName2(f->var, &len) : "__xprof_fr", f->first_run);
  free(calls);
  xl_cfg_free(&g);
  if (before)
    compensate_inliner(fn, mark_instrumentation(fn, before, n_before));
  free(before);
  c->n_fns++;
  return 0;
}

/* Replace a placeholder array by the real one, of its final size. */
static LLVMValueRef finish_array(ctx *c, LLVMValueRef ph, const char *name,
                                 uint32_t n, const struct vp_state *states,
                                 uint32_t n_states) {
  LLVMTypeRef ty = LLVMArrayType(c->i64, n ? n : 1);
  LLVMValueRef g = LLVMAddGlobal(c->m, ty, name);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetAlignment(g, 8);
  if (n_states) {
    LLVMValueRef *init = xl_calloc((size_t)n + 1, sizeof *init);
    for (uint32_t i = 0; i < n; i++)
      init[i] = LLVMConstInt(c->i64, 0, 0);
    for (uint32_t i = 0; i < n_states; i++)
      init[states[i].at] = LLVMConstInt(c->i64, states[i].word0, 0);
    LLVMSetInitializer(g, LLVMConstArray(c->i64, init, n));
    free(init);
  } else {
    LLVMSetInitializer(g, LLVMConstNull(ty));
  }
  LLVMReplaceAllUsesWith(ph, LLVMConstPointerCast(g, LLVMTypeOf(ph)));
  LLVMDeleteGlobal(ph);
  LLVMSetValueName2(g, name, strlen(name));
  return g;
}

/* The module's twin, of its final size, in place of its placeholder. */
static LLVMValueRef finish_twin(ctx *c) {
  LLVMValueRef g = twin_array(c, XPROF_COMDAT_TWIN, c->n_ctrs, 0);
  LLVMReplaceAllUsesWith(c->twin_ph, LLVMConstPointerCast(g, LLVMTypeOf(c->twin_ph)));
  LLVMDeleteGlobal(c->twin_ph);
  return g;
}

/* A private constant of n bytes (then a NUL), as an i8*. */
static LLVMValueRef cbytes(ctx *c, const void *s, size_t n, const char *name) {
  LLVMValueRef str = LLVMConstStringInContext(c->cx, s, (unsigned)n, 0);
  LLVMValueRef g = LLVMAddGlobal(c->m, LLVMTypeOf(str), name);
  LLVMSetInitializer(g, str);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  return LLVMConstPointerCast(g, c->i8p);
}

static LLVMValueRef cstring(ctx *c, const char *s, const char *name) {
  return cbytes(c, s, strlen(s), name);
}

static LLVMValueRef ptr_to(ctx *c, LLVMValueRef arr, uint32_t idx, LLVMTypeRef to) {
  return LLVMConstPointerCast(elem(c, arr, idx), to);
}

/* A descriptor struct, built from its field list in xprof_rt.h. */
typedef struct record {
  const struct xprof_rt_record_desc *d;
  LLVMTypeRef type;
} record;

/* The LLVM type of a field of this kind (xprof_rt.h); site and proc are
 * the types of the records that SITES and PROCS point at. */
static LLVMTypeRef kind_type(const ctx *c, enum xprof_rt_kind kind, LLVMTypeRef site,
                             LLVMTypeRef proc) {
  switch (kind) {
  case XPROF_RT_K_U32:
    return c->i32;
  case XPROF_RT_K_U64:
    return c->i64;
  case XPROF_RT_K_STR:
  case XPROF_RT_K_BYTES:
  case XPROF_RT_K_CODE:
  case XPROF_RT_K_NEXT:
    return c->i8p;
  case XPROF_RT_K_U64P:
    return c->i64p;
  case XPROF_RT_K_SITES:
    return LLVMPointerType(site, 0);
  case XPROF_RT_K_PROCS:
    return LLVMPointerType(proc, 0);
  case XPROF_RT_K_CELL:
    return LLVMPointerType(c->i64p, 0);
  case XPROF_RT_K_RESERVED:
    return LLVMArrayType(c->i64, 2);
  }
  abort();
}

static void build_record(const ctx *c, record *r, LLVMTypeRef site, LLVMTypeRef proc) {
  LLVMTypeRef fields[XPROF_RT_MAX_FIELDS];
  for (unsigned i = 0; i < r->d->n_fields; i++)
    fields[i] = kind_type(c, r->d->kinds[i], site, proc);
  r->type = LLVMStructCreateNamed(c->cx, r->d->name);
  LLVMStructSetBody(r->type, fields, r->d->n_fields, 0);
}

/* One descriptor's initializer from values[], indexed as the field list
 * (XPROF_RT_PROC_name, ...): every field has one but the runtime's own,
 * which stay zero. */
static LLVMValueRef fill(const record *r, LLVMValueRef *values) {
  for (unsigned i = 0; i < r->d->n_fields; i++) {
    if (r->d->kinds[i] == XPROF_RT_K_NEXT || r->d->kinds[i] == XPROF_RT_K_RESERVED) {
      values[i] = LLVMConstNull(LLVMStructGetTypeAtIndex(r->type, i));
    } else if (!values[i]) {
      fprintf(stderr, "xprof: the plugin gives no value to field %s of %s\n", r->d->names[i],
              r->d->name);
      abort();
    }
  }
  return LLVMConstNamedStruct(r->type, values, r->d->n_fields);
}

/* The table of value-profile sites, in procedure order, or NULL. */
static LLVMValueRef emit_sites(ctx *c, const record *site, LLVMValueRef vps) {
  uint32_t n_sites = 0;
  for (uint32_t i = 0; i < c->n_fns; i++)
    n_sites += c->fns[i].n_sites;
  if (!n_sites)
    return NULL;
  LLVMValueRef *sv = xl_malloc((size_t)n_sites * sizeof *sv);
  uint32_t k = 0;
  for (uint32_t i = 0; i < c->n_fns; i++) {
    fn_data *f = &c->fns[i];
    for (uint32_t s = 0; s < f->n_sites; s++) {
      LLVMValueRef v[XPROF_RT_SITE_N_FIELDS] = {0};
      v[XPROF_RT_SITE_type] = LLVMConstInt(c->i32, f->site_types[s], 0);
      v[XPROF_RT_SITE_expr_id] = LLVMConstInt(c->i32, s, 0);
      v[XPROF_RT_SITE_state] =
          ptr_to(c, f->var ? f->var : vps, f->vp_base + f->site_off[s], c->i64p);
      sv[k++] = fill(site, v);
    }
  }
  LLVMValueRef init = LLVMConstArray(site->type, sv, n_sites);
  LLVMValueRef sites = LLVMAddGlobal(c->m, LLVMTypeOf(init), "__xprof_sites");
  LLVMSetInitializer(sites, init);
  LLVMSetLinkage(sites, LLVMInternalLinkage);
  free(sv);
  return sites;
}

/* The procedure table; *objsig gets the object's signature. */
static LLVMValueRef emit_procs(ctx *c, const record *site, const record *proc,
                               LLVMValueRef sites, LLVMValueRef ctrs, LLVMValueRef frs,
                               LLVMValueRef twin, uint64_t *objsig) {
  LLVMValueRef *pv = xl_malloc(((size_t)c->n_fns + 1) * sizeof *pv);
  LLVMTypeRef cell_t = kind_type(c, XPROF_RT_K_CELL, site->type, proc->type);
  uint32_t first = 0;
  *objsig = XPROF_OBJECT_SIGNATURE_INIT;
  for (uint32_t i = 0; i < c->n_fns; i++) {
    fn_data *f = &c->fns[i];
    LLVMValueRef site_ptr = LLVMConstNull(LLVMPointerType(site->type, 0));
    if (f->n_sites) {
      LLVMValueRef ix[2] = {LLVMConstInt(c->i32, 0, 0), LLVMConstInt(c->i32, first, 0)};
      site_ptr = LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(sites), sites, ix, 2);
    }
    LLVMValueRef cell = f->twin_cell ? f->twin_cell
                        : twin && f->n_counters ? c->twin_cell
                                                : NULL;
    LLVMValueRef v[XPROF_RT_PROC_N_FIELDS] = {0};
    v[XPROF_RT_PROC_name] = cstring(c, f->name, "__xprof_name");
    v[XPROF_RT_PROC_signature] = LLVMConstInt(c->i64, f->signature, 0);
    v[XPROF_RT_PROC_id] = LLVMConstInt(c->i32, i, 0);
    v[XPROF_RT_PROC_n_counters] = LLVMConstInt(c->i32, f->n_counters, 0);
    v[XPROF_RT_PROC_counters] = ptr_to(c, f->var ? f->var : ctrs, f->base, c->i64p);
    v[XPROF_RT_PROC_n_vp_sites] = LLVMConstInt(c->i32, f->n_sites, 0);
    v[XPROF_RT_PROC_array_offset] = LLVMConstInt(c->i32, f->base, 0);
    v[XPROF_RT_PROC_vp_sites] = site_ptr;
    v[XPROF_RT_PROC_address] =
        f->take_address ? LLVMConstPointerCast(f->fn, c->i8p) : LLVMConstNull(c->i8p);
    v[XPROF_RT_PROC_tls_array] = cell ? cell : LLVMConstNull(cell_t);
    v[XPROF_RT_PROC_first_run] = f->first_run == XL_NO_FIRST_RUN
                                     ? LLVMConstNull(c->i64p)
                                     : ptr_to(c, f->var ? f->var : frs, f->first_run, c->i64p);
    v[XPROF_RT_PROC_shape] =
        f->shape ? cbytes(c, f->shape, f->shape_size, "__xprof_shape") : LLVMConstNull(c->i8p);
    v[XPROF_RT_PROC_shape_size] = LLVMConstInt(c->i32, f->shape ? f->shape_size : 0, 0);
    pv[i] = fill(proc, v);
    first += f->n_sites;
    *objsig = xprof_object_signature_add(*objsig, f->signature);
  }
  LLVMValueRef pinit = LLVMConstArray(proc->type, pv, c->n_fns);
  LLVMValueRef procs = LLVMAddGlobal(c->m, LLVMTypeOf(pinit), "__xprof_procs");
  LLVMSetInitializer(procs, pinit);
  LLVMSetLinkage(procs, LLVMInternalLinkage);
  free(pv);
  return procs;
}

static void emit_descriptor(ctx *c, LLVMValueRef ctrs, LLVMValueRef vps, LLVMValueRef frs,
                            LLVMValueRef twin) {
  record site = {&xprof_rt_site_record, NULL};
  record proc = {&xprof_rt_proc_record, NULL};
  record objr = {&xprof_rt_object_record, NULL};
  build_record(c, &site, NULL, NULL);
  build_record(c, &proc, site.type, NULL);
  build_record(c, &objr, site.type, proc.type);
  LLVMValueRef sites = emit_sites(c, &site, vps);
  uint64_t objsig;
  LLVMValueRef procs = emit_procs(c, &site, &proc, sites, ctrs, frs, twin, &objsig);

  uint64_t sec;
  uint32_t usec;
  xprof_compile_time(&sec, &usec);
  char *path = xl_object_path(c->m, c->o);
  LLVMValueRef ix[2] = {LLVMConstInt(c->i32, 0, 0), LLVMConstInt(c->i32, 0, 0)};
  LLVMValueRef v[XPROF_RT_OBJECT_N_FIELDS] = {0};
  v[XPROF_RT_OBJECT_abi_version] = LLVMConstInt(c->i32, XPROF_RT_ABI_VERSION, 0);
  v[XPROF_RT_OBJECT_flags] = LLVMConstInt(c->i32,
                                          c->o->update == XL_UPDATE_THREAD ? XPROF_RT_THREAD_COUNTERS
                                          : c->o->update == XL_UPDATE_ATOMIC
                                              ? XPROF_RT_ATOMIC_COUNTERS
                                              : 0,
                                          0);
  v[XPROF_RT_OBJECT_path] = cstring(c, path ? path : "unknown.o", "__xprof_path");
  v[XPROF_RT_OBJECT_tv_sec] = LLVMConstInt(c->i64, sec, 0);
  v[XPROF_RT_OBJECT_tv_usec] = LLVMConstInt(c->i32, usec, 0);
  v[XPROF_RT_OBJECT_n_values_per_vp] = LLVMConstInt(c->i32, c->o->values_per_site, 0);
  v[XPROF_RT_OBJECT_signature] = LLVMConstInt(c->i64, objsig, 0);
  v[XPROF_RT_OBJECT_profile_name] = c->o->profile_name
                                        ? cstring(c, c->o->profile_name, "__xprof_pname")
                                        : LLVMConstNull(c->i8p);
  v[XPROF_RT_OBJECT_n_procs] = LLVMConstInt(c->i32, c->n_fns, 0);
  v[XPROF_RT_OBJECT_n_counters] = LLVMConstInt(c->i32, c->n_ctrs, 0);
  v[XPROF_RT_OBJECT_procs] = LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(procs), procs, ix, 2);
  v[XPROF_RT_OBJECT_counters] = ptr_to(c, ctrs, 0, c->i64p);
  free(path);
  LLVMValueRef obj = LLVMAddGlobal(c->m, objr.type, "__xprof_object");
  LLVMSetInitializer(obj, fill(&objr, v));
  LLVMSetLinkage(obj, LLVMInternalLinkage);

  LLVMTypeRef reg_t = LLVMFunctionType(LLVMVoidTypeInContext(c->cx), &c->i8p, 1, 0);
  const char *names[2] = {"__xprof_register", "__xprof_unregister"};
  for (int d = 0; d < 2; d++) {
    LLVMValueRef callee = LLVMGetNamedFunction(c->m, names[d]);
    if (!callee)
      callee = LLVMAddFunction(c->m, names[d], reg_t);
    LLVMValueRef fn = LLVMAddFunction(c->m, d ? "__xprof_dtor" : "__xprof_ctor",
                                      LLVMFunctionType(LLVMVoidTypeInContext(c->cx), NULL, 0, 0));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(c->cx, fn, "entry");
    LLVMPositionBuilderAtEnd(c->b, bb);
    if (!d) { /* the cells point at the twins first */
      if (twin)
        LLVMBuildStore(c->b, ptr_to(c, twin, 0, c->i64p), c->twin_cell);
      for (uint32_t i = 0; i < c->n_fns; i++)
        if (c->fns[i].twin_cell)
          LLVMBuildStore(c->b, ptr_to(c, c->fns[i].twin, 0, c->i64p), c->fns[i].twin_cell);
    }
    LLVMValueRef arg = LLVMConstPointerCast(obj, c->i8p);
    LLVMBuildCall2(c->b, reg_t, callee, &arg, 1, "");
    LLVMBuildRetVoid(c->b);
    xl_append_global_ctor(c->m, fn, d, XPROF_RT_CDTOR_PRIORITY);
  }
}

int xl_run_collect(LLVMModuleRef m, const struct xl_options *o) {
  xl_take_shipped(m);
  if (LLVMGetNamedGlobal(m, "__xprof_object"))
    return 0; /* instrumented already (a second plugin instance) */
  ctx c = {0};
  c.m = m;
  c.cx = LLVMGetModuleContext(m);
  c.o = o;
  c.i8 = LLVMInt8TypeInContext(c.cx);
  c.i32 = LLVMInt32TypeInContext(c.cx);
  c.i64 = LLVMInt64TypeInContext(c.cx);
  c.i8p = LLVMPointerType(c.i8, 0);
  c.i64p = LLVMPointerType(c.i64, 0);
  c.b = LLVMCreateBuilderInContext(c.cx);
  c.twins = use_twins(&c);
  /* Placeholders of a large size; replaced once the sizes are known. */
  LLVMTypeRef big = LLVMArrayType(c.i64, 1u << 30);
  c.ctr_ph = LLVMAddGlobal(m, big, "__xprof_counters.ph");
  c.vp_ph = LLVMAddGlobal(m, big, "__xprof_vp.ph");
  c.fr_ph = LLVMAddGlobal(m, big, "__xprof_fr.ph");
  if (o->cfg_dump) {
    char *path = xl_object_path(m, o), *name = NULL;
    if (path && asprintf(&name, "%s.xpcfg", path) >= 0)
      c.cfg_dump = fopen(name, "w");
    if (c.cfg_dump)
      xprof_cfgdump_begin(c.cfg_dump);
    else
      xl_warning(m, "cannot write %s", name ? name : "the CFG dump");
    free(path);
    free(name);
  }
  if (o->coverage != XPROF_COVERAGE_OFF)
    c.lines = xprof_linetab_begin(0);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (xl_profiled_function(c.m, fn, o))
      instrument(&c, fn);
  if (c.lines && c.n_fns)
    write_lines(&c);
  else if (c.lines)
    xprof_linetab_end(c.lines, NULL, NULL);
  free(c.file);
  LLVMValueRef ctrs = finish_array(&c, c.ctr_ph, "__xprof_counters", c.n_ctrs, NULL, 0);
  LLVMValueRef vps = finish_array(&c, c.vp_ph, "__xprof_vp", c.n_vp_words,
                                  c.vp_states, c.n_vp_states);
  LLVMValueRef frs = finish_array(&c, c.fr_ph, "__xprof_fr", c.n_first_runs, NULL, 0);
  LLVMValueRef twin = c.twin_ph ? finish_twin(&c) : NULL;
  if (c.cfg_dump)
    fclose(c.cfg_dump);
  if (c.n_fns)
    emit_descriptor(&c, ctrs, vps, frs, twin);
  if (o->verbose) {
    char *path = xl_object_path(m, o);
    uint32_t n[XL_SITE_QUOTIENT + 1] = {0, 0, 0, 0};
    for (uint32_t i = 0; i < c.n_fns; i++)
      for (uint32_t s = 0; s < c.fns[i].n_sites; s++)
        n[c.fns[i].site_kinds[s]]++;
    uint32_t divs = n[XL_SITE_DIVISOR] + n[XL_SITE_QUOTIENT];
    xl_note(m, "%s: %u procedure%s, %u counter%s, %u indirect-call site%s, %u "
               "memory-operation site%s, %u division site%s (%s updates)",
            path ? path : "?", c.n_fns, xprof_plural(c.n_fns), c.n_ctrs,
            xprof_plural(c.n_ctrs), n[XL_SITE_CALL], xprof_plural(n[XL_SITE_CALL]),
            n[XL_SITE_LENGTH], xprof_plural(n[XL_SITE_LENGTH]), divs, xprof_plural(divs),
            o->update == XL_UPDATE_THREAD   ? "per-thread"
            : o->update == XL_UPDATE_ATOMIC ? "atomic"
                                            : "single-threaded");
    free(path);
  }
  for (uint32_t i = 0; i < c.n_fns; i++) {
    free((char *)c.fns[i].name);
    free(c.fns[i].site_types);
    free(c.fns[i].site_kinds);
    xprof_free(c.fns[i].shape);
    free(c.fns[i].site_off);
  }
  free(c.fns);
  free(c.vp_states);
  LLVMDisposeBuilder(c.b);
  return 1;
}
