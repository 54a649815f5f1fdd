/*
 * collect.c - -xprofile=collect on LLVM IR: counters on the edges off a
 * spanning tree, value-profile calls before indirect calls, and the
 * object file's descriptor (abi/xprof_abi.h) with a constructor and a
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

#include "collect.h"

/* Is the code for an executable, whose TLS is static: not
 * position-independent, or position-independent for an executable? */
static int for_executable(LLVMModuleRef m) {
  return !LLVMGetModuleFlag(m, "PIC Level", 9) || LLVMGetModuleFlag(m, "PIE Level", 9);
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

/* Whether fn resolves one of the module's ifuncs. */
static int is_ifunc_resolver(LLVMModuleRef m, LLVMValueRef fn) {
  for (LLVMValueRef i = LLVMGetFirstGlobalIFunc(m); i; i = LLVMGetNextGlobalIFunc(i)) {
    LLVMValueRef r = LLVMGetGlobalIFuncResolver(i);
    while (r && LLVMIsAConstantExpr(r)) /* a cast of the function (typed pointers) */
      r = LLVMGetOperand(r, 0);
    if (r == fn)
      return 1;
  }
  return 0;
}

static int is_comdat(LLVMValueRef fn) {
  LLVMLinkage l = LLVMGetLinkage(fn);
  return l == LLVMLinkOnceODRLinkage || l == LLVMLinkOnceAnyLinkage ||
         l == LLVMWeakODRLinkage || l == LLVMWeakAnyLinkage;
}

LLVMValueRef xl_elem(const xl_collect *c, LLVMValueRef arr, uint32_t idx) {
  LLVMValueRef ix[2] = {LLVMConstInt(c->i32, 0, 0), LLVMConstInt(c->i32, idx, 0)};
  return LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(arr), arr, ix, 2);
}

/* A type-based alias analysis tag for the counters: a type of its own under
 * clang's C/C++ root, so that LLVM knows that no access of the program to
 * an int, a pointer or a double reads or writes a counter (only char
 * accesses may still alias: they alias everything).  Without it a counter
 * update is a store through memory whose address escaped (to the
 * registration), which keeps loads of the program from being reused or
 * hoisted across it. */
static LLVMValueRef counter_tbaa(xl_collect *c) {
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

static LLVMValueRef tag_counter_access(xl_collect *c, LLVMValueRef access) {
  LLVMSetMetadata(access, LLVMGetMDKindIDInContext(c->cx, "tbaa", 4), counter_tbaa(c));
  return access;
}

/* Add step (an i64, NULL for 1) to counter idx before `before`.  Returns
 * the update (the store, or the atomicrmw). */
static LLVMValueRef add_to_counter(xl_collect *c, LLVMValueRef before, LLVMValueRef arr,
                                   uint32_t idx, LLVMValueRef step) {
  LLVMPositionBuilderBefore(c->b, before);
  LLVMValueRef p = xl_elem(c, arr, idx);
  LLVMValueRef one = step ? step : LLVMConstInt(c->i64, 1, 0);
  if (c->copy) { /* the thread's copy: ARRAY + d, computed once */
    LLVMValueRef i = LLVMConstInt(c->i64, idx, 0);
    p = LLVMBuildGEP2(c->b, c->i64, c->copy, &i, 1, "xprof.at");
  }
  if (c->atomic) {
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

static LLVMValueRef increment(xl_collect *c, LLVMValueRef before, LLVMValueRef arr, uint32_t idx) {
  return add_to_counter(c, before, arr, idx, NULL);
}

/* Count how often each counted select's condition holds: a select's
 * other way is its block's count less that (use.c). */
static void count_selects(xl_collect *c, const struct xl_cfg *cfg, LLVMValueRef arr,
                          uint32_t base) {
  const xprof_graph *g = &cfg->g;
  /* Counters are numbered in the order of their first selects. */
  for (uint32_t i = 0, next = 0; i < g->n_side; i++) {
    if (g->side_slot[i] != next)
      continue; /* shares the counter of an earlier select */
    next++;
    LLVMValueRef sel = cfg->selects[i];
    LLVMPositionBuilderBefore(c->b, sel);
    LLVMValueRef step = LLVMBuildZExt(c->b, LLVMGetOperand(sel, 0), c->i64, "xprof.held");
    add_to_counter(c, sel, arr, base + g->side_counter[i], step);
  }
}

/* Where a counter for edge e goes (an instruction to insert before). */
static LLVMValueRef insertion_point(xl_collect *c, struct xl_cfg *g, uint32_t e) {
  const xprof_edge *x = &g->g.edges[e];
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
static LLVMValueRef vp_proc_fn(xl_collect *c) {
  const char *name = c->o->update == XPROF_UPDATE_SINGLE ? XPROF_ABI_STR(XPROF_RECORD_PROC_SINGLE)
                                                         : XPROF_ABI_STR(XPROF_RECORD_PROC);
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
static LLVMValueRef vp_int_fn(xl_collect *c, unsigned vp_type) {
  int wide = vp_type == XPROF_VP_LLONG;
  const char *name = wide ? XPROF_ABI_STR(XPROF_RECORD_LLONG) : XPROF_ABI_STR(XPROF_RECORD_INT);
  LLVMValueRef f = LLVMGetNamedFunction(c->m, name);
  if (!f) {
    LLVMTypeRef args[2] = {c->i64p, wide ? c->i64 : c->i32};
    f = LLVMAddFunction(c->m, name, LLVMFunctionType(LLVMVoidTypeInContext(c->cx), args, 2, 0));
    xl_add_fn_attr(f, "nounwind");
  }
  return f;
}

/* A comdat function's own array: its counters, its sites' states and its
 * first-run word, named alike in every module that has a copy of the
 * function (xprof_plan_array_name). */
static LLVMValueRef comdat_array(xl_collect *c, const xprof_plan_fn *f) {
  uint32_t total = xprof_plan_fn_words(&c->plan, f);
  char *name = xl_check(xprof_plan_array_name(f, XPROF_ARRAY_COUNTERS));
  LLVMTypeRef ty = LLVMArrayType(c->i64, total ? total : 1);
  LLVMValueRef g = LLVMGetNamedGlobal(c->m, name);
  if (!g) {
    g = LLVMAddGlobal(c->m, ty, name);
    LLVMValueRef *init = xl_calloc(total + 1, sizeof *init);
    for (uint32_t i = 0; i < total + 1; i++)
      init[i] = LLVMConstInt(c->i64, 0, 0);
    for (uint32_t s = 0; s < f->n_sites; s++)
      init[f->vp_base + f->sites[s].offset] = LLVMConstInt(c->i64, f->sites[s].word0, 0);
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

static void make_comdat(xl_collect *c, LLVMValueRef g, const char *name) {
  LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
  LLVMSetVisibility(g, LLVMHiddenVisibility);
  LLVMSetComdat(g, LLVMGetOrInsertComdat(c->m, name));
}

/* A zero-initialized word or array of the module, made once: private to
 * the module, or one per program (comdat). */
static LLVMValueRef module_global(xl_collect *c, const char *name, LLVMTypeRef ty, int comdat) {
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

LLVMValueRef xl_twin_array(xl_collect *c, const char *name, uint32_t n, int comdat) {
  LLVMValueRef g = module_global(c, name, LLVMArrayType(c->i64, n ? n : 1), comdat);
  LLVMSetThreadLocal(g, 1);
  LLVMSetThreadLocalMode(g, LLVMLocalExecTLSModel);
  return g;
}

/* The word the constructor points at a twin in the registering thread. */
static LLVMValueRef twin_cell(xl_collect *c, const char *name, int comdat) {
  return module_global(c, name, c->i64p, comdat);
}

/* The array f's counters are added to: its twin (made here) or arr. */
static LLVMValueRef counting_array(xl_collect *c, const xprof_plan_fn *f, struct xl_fn_ir *ir,
                                   LLVMValueRef arr) {
  if (!xprof_plan_in_twin(&c->plan, f))
    return arr;
  if (!f->comdat) {
    if (!c->twin_ph) { /* sized at the end, as the module's array */
      c->twin_ph = xl_twin_array(c, XPROF_ABI_STR(XPROF_TWIN_VAR) ".ph", 1u << 30, 0);
      c->twin_cell = twin_cell(c, XPROF_ABI_STR(XPROF_TWIN_CELL_VAR), 0);
    }
    return c->twin_ph;
  }
  char *name = xl_check(xprof_plan_array_name(f, XPROF_ARRAY_TWIN));
  char *cell = xl_check(xprof_plan_array_name(f, XPROF_ARRAY_TWIN_CELL));
  ir->twin = xl_twin_array(c, name, f->n_counters, 1);
  ir->twin_cell = twin_cell(c, cell, 1);
  xprof_free(name);
  xprof_free(cell);
  return ir->twin;
}

/* ---- per-thread counters: the code at function entry ------------------- */

static LLVMValueRef named_decl(xl_collect *c, const char *name, LLVMTypeRef ty) {
  LLVMValueRef f = LLVMGetNamedFunction(c->m, name);
  if (!f)
    f = LLVMAddFunction(c->m, name, ty);
  return f;
}

static void likely_true(xl_collect *c, LLVMValueRef br) {
  LLVMMetadataRef md[3] = {LLVMMDStringInContext2(c->cx, "branch_weights", 14),
                           LLVMValueAsMetadata(LLVMConstInt(c->i32, 2000, 0)),
                           LLVMValueAsMetadata(LLVMConstInt(c->i32, 1, 0))};
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c->cx, "prof", 4),
                  LLVMMetadataAsValue(c->cx, LLVMMDNodeInContext2(c->cx, md, 3)));
}

/* A placeholder for the address of the thread's copy at the top of the
 * entry block (after its allocas), used by the increments until the real
 * value exists. */
static LLVMValueRef copy_placeholder(xl_collect *c, LLVMValueRef fn) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  LLVMValueRef i = LLVMGetFirstInstruction(entry);
  while (i && LLVMIsAAllocaInst(i))
    i = LLVMGetNextInstruction(i);
  LLVMPositionBuilderBefore(c->b, i);
  return LLVMBuildFreeze(c->b, LLVMGetUndef(c->i64p), "xprof.copy.ph");
}

/* The thread-local word of an array: the distance to this thread's copy
 * (local-exec in executables: one load from the thread pointer). */
static LLVMValueRef thread_word(xl_collect *c, const char *name, int comdat) {
  LLVMValueRef g = module_global(c, name, c->i64, comdat);
  LLVMSetThreadLocal(g, 1);
  return g;
}

/* Replace the placeholder:
 *
 *   entry: (allocas) d1 = load D; br d1 != 0, rest, slow
 *   slow:  d2 = call @XPROF_THREAD_COUNTERS(ARRAY, D); br rest
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
static LLVMValueRef slow_path_asm(xl_collect *c, LLVMValueRef array, LLVMValueRef word) {
  LLVMTypeRef params[2] = {c->i64p, c->i64p};
  LLVMTypeRef fty = LLVMFunctionType(c->i64, params, 2, 0);
  char text[] = "lea -128(%rsp), %rsp\n\t"
                "call *" XPROF_ABI_STR(XPROF_THREAD_COUNTERS_ASM_R10) "@GOTPCREL(%rip)\n\t"
                "lea 128(%rsp), %rsp";
  char constraints[] = "={rax},{r10},{r11},~{dirflag},~{fpsr},~{flags},~{memory}";
  LLVMValueRef a = LLVMGetInlineAsm(fty, text, strlen(text), constraints,
                                    strlen(constraints), 1, 0,
                                    LLVMInlineAsmDialectATT, 0);
  LLVMValueRef args[2] = {array, word};
  return LLVMBuildCall2(c->b, fty, a, args, 2, "xprof.delta");
}

static void emit_thread_entry(xl_collect *c, LLVMValueRef arr, LLVMValueRef word) {
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
  LLVMValueRef args[2] = {LLVMConstPointerCast(xl_elem(c, arr, 0), c->i64p), word};
  LLVMValueRef d2;
  if (x86_64 && !has_wide_vector_args(LLVMGetBasicBlockParent(entry))) {
    d2 = slow_path_asm(c, args[0], args[1]);
  } else {
    LLVMValueRef callee = named_decl(c, XPROF_ABI_STR(XPROF_THREAD_COUNTERS), fty);
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

/* fn in the plan, and its IR record: its arrays are its own (comdat) or
 * its share of the module's (*arr and *vp_arr). */
static const xprof_plan_fn *plan_function(xl_collect *c, LLVMValueRef fn, const struct xl_cfg *g,
                                          LLVMValueRef *arr, LLVMValueRef *vp_arr) {
  LLVMLinkage l = LLVMGetLinkage(fn);
  int comdat = is_comdat(fn);
  /* Only possible indirect-call targets need their address recorded. */
  int address = (l != LLVMInternalLinkage && l != LLVMPrivateLinkage && !comdat) ||
                xl_address_taken(fn);
  /* A coroutine keeps what its entry computed (the address of a thread's
   * copy or twin) in its frame, and may be resumed in another thread: the
   * plan has it count in the shared array (XPROF_FN_COROUTINE). */
  unsigned flags = (comdat ? XPROF_FN_COMDAT : 0) | (address ? XPROF_FN_ADDRESS : 0) |
                   (is_presplit_coroutine(fn) ? XPROF_FN_COROUTINE : 0) |
                   (is_ifunc_resolver(LLVMGetGlobalParent(fn), fn) ? XPROF_FN_RESOLVER : 0);
  const xprof_plan_fn *f = xl_check(xprof_plan_add(&c->plan, xl_function_name(fn), &g->g, flags));
  c->fns = xl_realloc(c->fns, c->plan.n_fns * sizeof *c->fns);
  struct xl_fn_ir *ir = &c->fns[c->plan.n_fns - 1];
  memset(ir, 0, sizeof *ir);
  ir->fn = fn;
  if (comdat) {
    ir->var = *arr = *vp_arr = comdat_array(c, f);
  } else {
    *arr = c->ctr_ph;
    *vp_arr = c->vp_ph;
  }
  return f;
}

/* The increments on the counted edges (and every edge with debug
 * counters): all insertion points are decided before any edge is split.
 * Returns the updates made, *n_updates of them. */
static LLVMValueRef *count_edges(xl_collect *c, const xprof_plan_fn *f, struct xl_cfg *cfg,
                                 LLVMValueRef count_arr, uint32_t *n_updates) {
  const xprof_graph *g = &cfg->g;
  LLVMValueRef *at = xl_calloc(g->n_edges + 1, sizeof *at);
  for (uint32_t e = 0; e < g->n_edges; e++) {
    int counted = XPROF_HAS_COUNTER(g->counter_of_edge[e]);
    int debug = f->n_debug && XPROF_DEBUG_COUNTED(g->edges[e].flags);
    if (counted || debug)
      at[e] = insertion_point(c, cfg, e);
  }
  uint32_t dbg = f->n_edge_counters + f->n_side_counters, n = 0;
  LLVMValueRef *updates = xl_calloc(2 * (size_t)g->n_edges + 1, sizeof *updates);
  for (uint32_t e = 0; e < g->n_edges; e++) {
    uint32_t k = g->counter_of_edge[e];
    if (XPROF_HAS_COUNTER(k) && at[e])
      updates[n++] = increment(c, at[e], count_arr, f->base + k);
    if (f->n_debug && XPROF_DEBUG_COUNTED(g->edges[e].flags)) {
      if (at[e])
        updates[n++] = increment(c, at[e], count_arr, f->base + dbg);
      dbg++;
    }
  }
  free(at);
  *n_updates = n;
  return updates;
}

/* The code at function entry that finds this thread's copy of the
 * counters (per-thread counters without twins). */
static void thread_entry(xl_collect *c, const xprof_plan_fn *f, LLVMValueRef arr) {
  char *name = xl_check(xprof_plan_array_name(f, XPROF_ARRAY_THREAD_WORD));
  LLVMValueRef word = thread_word(c, name, f->comdat);
  xprof_free(name);
  emit_thread_entry(c, arr, word);
}

/* Record the values of f's value-profile sites.  The runtime keeps a
 * site's most frequent values in front: the first two are checked and
 * counted inline, a call for the others (a call and a scan of the pairs
 * in the runtime).  Lengths of memory operations vary a lot (sqlite's):
 * a histogram, counted inline. */
static void record_values(xl_collect *c, const xprof_plan_fn *f, const LLVMValueRef *calls,
                          LLVMValueRef vp_arr) {
  unsigned inline_pairs = c->o->values_per_site < XPROF_ABI_VP_INLINE_PAIRS
                              ? c->o->values_per_site
                              : XPROF_ABI_VP_INLINE_PAIRS;
  int atomic = c->o->update != XPROF_UPDATE_SINGLE;
  for (uint32_t s = 0; xprof_plan_records_values(&c->plan) && s < f->n_sites; s++) {
    LLVMPositionBuilderBefore(c->b, calls[s]);
    LLVMValueRef len = xl_memop_length(calls[s]);
    LLVMValueRef state = xl_elem(c, vp_arr, f->vp_base + f->sites[s].offset);
    if (len) {
      xl_count_length(calls[s], state, LLVMBuildZExtOrBitCast(c->b, len, c->i64, ""), atomic);
    } else if (f->sites[s].kind != XPROF_SITE_CALL) {
      /* The divisor, or the quotient of a urem (its divisor is not 0
       * wherever the urem is defined); kept as the runtime keeps it: an
       * int sign-extended. */
      LLVMValueRef v = LLVMGetOperand(calls[s], 1);
      if (f->sites[s].kind == XPROF_SITE_QUOTIENT)
        v = LLVMBuildUDiv(c->b, LLVMGetOperand(calls[s], 0), v, "xprof.quotient");
      int wide = f->sites[s].type == XPROF_VP_LLONG;
      LLVMValueRef arg = LLVMBuildSExtOrBitCast(c->b, v, wide ? c->i64 : c->i32, "");
      LLVMValueRef value = LLVMBuildSExtOrBitCast(c->b, arg, c->i64, "");
      xl_record_value(calls[s], state, value, vp_int_fn(c, f->sites[s].type), arg, inline_pairs,
                      atomic);
    } else {
      LLVMValueRef arg = LLVMBuildPointerCast(c->b, LLVMGetCalledValue(calls[s]), c->i8p, "");
      LLVMValueRef value = LLVMBuildPtrToInt(c->b, arg, c->i64, "");
      xl_record_value(calls[s], state, value, vp_proc_fn(c), arg, inline_pairs, atomic);
    }
  }
}

/* Instrument fn.  Returns 0, or -1 when its control flow cannot be
 * counted exactly (it is left alone, with a note when verbose). */
static int instrument(xl_collect *c, LLVMValueRef fn) {
  size_t n_before = 0;
  LLVMValueRef *before = c->o->llvm.inline_bonus ? xl_instructions_of(fn, &n_before) : NULL;
  uint32_t n_sites;
  LLVMValueRef *calls = xl_vp_sites(fn, &n_sites);
  struct xl_cfg g;
  if (!xl_cfg_build(fn, calls, n_sites, xprof_plan_records_values(&c->plan), c->o->llvm.selects,
                    &g)) {
    xl_cfg_free(&g);
    free(calls);
    free(before);
    xprof_verbose(&c->d, "%s: not profiled (control flow counters cannot follow exactly)",
                  xl_function_name(fn));
    return -1;
  }
  LLVMValueRef arr, vp_arr;
  const xprof_plan_fn *f = plan_function(c, fn, &g, &arr, &vp_arr);
  struct xl_fn_ir *ir = &c->fns[c->plan.n_fns - 1];
  if (c->cfg_dump)
    xprof_cfgdump_proc(c->cfg_dump, f->name, f->signature, g.g.n_nodes, g.g.edges, g.g.n_edges,
                       g.g.counter_of_edge, f->n_edge_counters + f->n_side_counters,
                       f->n_debug != 0);
  c->atomic = xprof_plan_atomic(&c->plan, f);
  LLVMValueRef count_arr = f->shared_atomic ? arr : counting_array(c, f, ir, arr);
  c->copy = xprof_plan_finds_copy(&c->plan, f) ? copy_placeholder(c, fn) : NULL;
  if (c->lines)
    xl_record_lines(c, fn, f, &g, calls, n_sites);
  uint32_t n_updates;
  LLVMValueRef *updates = count_edges(c, f, &g, count_arr, &n_updates);
  count_selects(c, &g, count_arr, f->base);
  if (c->copy)
    thread_entry(c, f, arr);
  if (c->o->llvm.promote)
    xl_promote_counters(fn, updates, n_updates);
  free(updates);
  record_values(c, f, calls, vp_arr);
  /* The test of the first-run word comes at the end of the optimizer
   * (first_run.c). */
  size_t len;
  if (f->first_run != XPROF_NO_FIRST_RUN)
    xl_mark_first_run(fn, ir->var ? LLVMGetValueName2(ir->var, &len)
                                  : XPROF_ABI_STR(XPROF_FIRST_RUN_VAR),
                      f->first_run);
  free(calls);
  xl_cfg_free(&g);
  if (before)
    xl_compensate_inliner(fn, before, n_before);
  free(before);
  return 0;
}

int xl_run_collect(LLVMModuleRef m, const xprof_options *o) {
  xl_take_shipped(m);
  if (LLVMGetNamedGlobal(m, XPROF_ABI_STR(XPROF_OBJECT_VAR)))
    return 0; /* instrumented already (a second plugin instance) */
  xl_collect c = {0};
  c.m = m;
  c.cx = LLVMGetModuleContext(m);
  c.o = o;
  c.d = xl_diag(m, o);
  xprof_plan_init(&c.plan, o, for_executable(m));
  c.i8 = LLVMInt8TypeInContext(c.cx);
  c.i32 = LLVMInt32TypeInContext(c.cx);
  c.i64 = LLVMInt64TypeInContext(c.cx);
  c.i8p = LLVMPointerType(c.i8, 0);
  c.i64p = LLVMPointerType(c.i64, 0);
  c.b = LLVMCreateBuilderInContext(c.cx);
  /* Placeholders of a large size; replaced once the sizes are known. */
  LLVMTypeRef big = LLVMArrayType(c.i64, 1u << 30);
  c.ctr_ph = LLVMAddGlobal(m, big, XPROF_ABI_STR(XPROF_COUNTERS_VAR) ".ph");
  c.vp_ph = LLVMAddGlobal(m, big, XPROF_ABI_STR(XPROF_VP_VAR) ".ph");
  c.fr_ph = LLVMAddGlobal(m, big, XPROF_ABI_STR(XPROF_FIRST_RUN_VAR) ".ph");
  char *path = xl_object_path(m, o);
  if (o->cfg_dump)
    c.cfg_dump = xprof_plan_cfg_dump(path, &c.d);
  if (o->coverage != XPROF_COVERAGE_OFF)
    c.lines = xprof_linetab_begin(0);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (xl_profiled_function(c.m, fn, o))
      instrument(&c, fn);
  if (c.lines && c.plan.n_fns) {
    char *file = xl_object_file(m, o);
    char *a = xprof_plan_write_coverage(c.lines, o, file, path, &c.d);
    if (a)
      LLVMAppendModuleInlineAsm(m, a, strlen(a));
    xprof_free(a);
    free(file);
  } else if (c.lines) {
    xprof_linetab_end(c.lines, NULL, NULL);
  }
  free(c.file);
  if (c.cfg_dump)
    fclose(c.cfg_dump);
  xl_emit_descriptor(&c);
  xprof_plan_note(&c.plan, path, &c.d);
  free(path);
  free(c.fns);
  xprof_plan_free(&c.plan);
  LLVMDisposeBuilder(c.b);
  return 1;
}
