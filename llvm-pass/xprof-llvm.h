/*
 * xprof-llvm.h - the C interface between the pass core (cfg.c, collect.c,
 * use.c, on the LLVM-C API) and the C++ sources for what LLVM-C lacks:
 * plugin.cpp (registration, options, the passes), returning.cpp (which
 * calls surely return), promote.cpp (counters in registers through
 * loops) and ir.cpp (splitting blocks and edges, attributes, recording
 * values, call promotion, the profile summary, MD5, constructors).
 */
#ifndef XPROF_LLVM_H
#define XPROF_LLVM_H

#include <llvm-c/Core.h>
#include <stdint.h>

#include "xprof_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run a mode over a module; returns nonzero when the module changed. */
int xl_run_collect(LLVMModuleRef m, const xprof_options *o);
int xl_run_use(LLVMModuleRef m, const xprof_options *o);
/* Use builds, before the clean-up ahead of the xprof pass: each
 * function's own lines as the front end gave them, for the match by
 * source line (lines.c). */
void xl_note_source_lines(LLVMModuleRef m);
/* Before the clean-up ahead of the xprof pass: mark the small if-arms it
 * could speculate, so that both modes count them as branches; the xprof
 * pass drops the marks before it reads the graphs (arms.c). */
void xl_mark_arms(LLVMModuleRef m);
void xl_drop_arm_marks(LLVMModuleRef m);
/* Once fn has been simplified (after inlining into it): make the inliner
 * bonus it carries what its instrumentation costs now, not the sum of
 * the bonuses its own and its inlined callees' counters had before
 * constant arguments and dead blocks took some of them away (collect.c).
 * Returns nonzero when fn changed. */
int xl_rebase_inline_bonus(LLVMValueRef fn);
/* Inlining is over: remove fn's bonus marks.  Returns nonzero when fn
 * changed. */
int xl_drop_inline_bonus(LLVMValueRef fn);
/* A message for the module's LLVMContext (clang's diagnostics: -w,
 * -Werror and -Wno-backend-plugin govern it), of libxprof's kind. */
void xl_diagnose(LLVMModuleRef m, int kind, const char *text);

/* ---- helpers implemented in C++ ---- */

/* The call-site attribute that marks the empty asm statement carrying a
 * function's inliner bonus (collect.c), removed once inlining is over
 * (plugin.cpp). */
#define XL_INLINE_BONUS "call-threshold-bonus"

/* The function attribute of a function that had hot code in training,
 * whose own section (-xprofile_order) OwnSectionPass names after
 * inlining (use.c, plugin.cpp). */
#define XL_OWN_SECTION "xprof-own-section"

/* Split blocks after calls that may return twice (setjmp), so that their
 * continuation, entered again from nowhere, starts a block. */
void xl_split_after_returns_twice(LLVMValueRef fn);
/* Give each invoke its own landing pad, which branches to the shared one:
 * the unwind edge into a pad cannot be split later, and an invoke whose
 * callee may exit has two edges out besides its normal one (unwind and
 * fake) that flow conservation cannot tell apart. */
void xl_split_landing_pads(LLVMValueRef fn);
int xl_call_risk(LLVMValueRef call); /* 0, 1 or 2: see returning.cpp */
/* fn's name in the source: a C++ function's without its scope and
 * parameters (as GCC's decl_printable_name), a C function's symbol;
 * malloc'd. */
char *xl_plain_name(LLVMValueRef fn);
uint64_t xl_uncertain_blocks(LLVMModuleRef m, const LLVMValueRef *bad, unsigned n_bad);
/* Mark the call as touching only memory the module cannot see
 * (inaccessiblememonly; memory(inaccessiblemem: readwrite) from LLVM 16). */
void xl_set_inaccessible_mem_only(LLVMValueRef call);
int xl_call_returns_twice(LLVMValueRef call);
/* The length operand of memcpy, memmove, memset (the intrinsics), memcmp
 * or bcmp when it is not a constant: a value-profile site whose common
 * lengths LLVM's memop optimization specializes; else NULL. */
LLVMValueRef xl_memop_length(LLVMValueRef inst);
/* The functions inlined around instruction inst, innermost first (its
 * debug location's inline chain): each one's subprogram and the line of
 * the call it replaced; at most max.  Returns how many (0: the function's
 * own code, or no debug location).  LLVM-C cannot walk a scope up to its
 * subprogram. */
struct xl_origin {
  const char *name, *dir, *file; /* name: the linkage name, else the name */
  size_t name_len, dir_len, file_len;
  unsigned line;                 /* of its declaration */
  unsigned call_line;
};
unsigned xl_inline_chain(LLVMValueRef inst, struct xl_origin *o, unsigned max);
/* Inline the direct call `call` when its callee is defined here, is not
 * the caller, may be inlined (LLVM's isInlineViable, no noinline or
 * optnone, compatible attributes) and has at most max_insts
 * instructions.  1 when inlined, else 0.  LLVM-C has no inliner. */
int xl_inline_call(LLVMValueRef call, unsigned max_insts);
/* Split the edge from `term`'s successor `succ` (merging identical switch
 * slots); returns the new block, or NULL when it cannot be split. */
LLVMBasicBlockRef xl_split_edge(LLVMValueRef term, unsigned succ);
/* Split a block before its first non-PHI instruction; returns the new,
 * second block. */
LLVMBasicBlockRef xl_split_block_at_start(LLVMBasicBlockRef bb);
/* Split a block before an instruction; returns the new, second block. */
LLVMBasicBlockRef xl_split_block_before(LLVMValueRef inst);
/* Make fn the module's first function (codegen emits them in order). */
void xl_move_function_to_front(LLVMValueRef fn);
/* The first instruction before which code may be inserted, or NULL when
 * none can (a catchswitch block). */
LLVMValueRef xl_first_insertion_point(LLVMBasicBlockRef bb);
int xl_is_eh_pad_block(LLVMBasicBlockRef bb);
/* Mark in on_cycle[i] (one byte per block, in function order) whether
 * the i-th block lies on a cycle of the CFG (a loop, reducible or not);
 * returns how many do. */
unsigned xl_mark_cycle_blocks(LLVMValueRef fn, unsigned char *on_cycle);
/* Static edge frequencies (LLVM's BranchProbability and BlockFrequency
 * analyses) for the spanning tree: open, query, close. */
void *xl_freq_open(LLVMValueRef fn);
uint64_t xl_freq_edge(void *h, LLVMBasicBlockRef src, unsigned succ);
uint64_t xl_freq_block(void *h, LLVMBasicBlockRef bb);
void xl_freq_close(void *h);
/* Counter updates (the store of a load/add/store, or an atomicrmw) in
 * loops without calls: counted in a local and added to memory once at
 * each loop exit (mem2reg later keeps the local in a register).  Loops
 * that may leave the function other than through their exits are left
 * alone, so counts stay exact. */
void xl_promote_counters(LLVMValueRef fn, LLVMValueRef *updates, unsigned n);
/* Before `before`, record the i64 `value` in a value-profile site: the
 * first `pairs` values kept in `state` are compared and counted inline
 * (atomically if asked), any other value goes to recorder(state, arg). */
void xl_record_value(LLVMValueRef before, LLVMValueRef state, LLVMValueRef value,
                     LLVMValueRef recorder, LLVMValueRef arg, unsigned pairs, int atomic);
/* Before `before`, add 1 to the histogram bucket of the i64 `length` in
 * the length histogram `state` (xprof_abi.h, XPROF_ABI_VP_HISTOGRAM). */
void xl_count_length(LLVMValueRef before, LLVMValueRef state, LLVMValueRef length, int atomic);
/* Is the function's address used other than by direct calls? */
int xl_address_taken(LLVMValueRef fn);
void xl_append_global_ctor(LLVMModuleRef m, LLVMValueRef fn, int dtor, int priority);
uint64_t xl_md5(const char *s);
/* Promote `call` to a guarded direct call of `target`; 0 when illegal. */
int xl_promote_indirect_call(LLVMValueRef call, LLVMValueRef target,
                             uint64_t count, uint64_t total);
/* Set the module's profile summary (PSK_Instr) and refresh the analysis. */
struct xl_summary_entry {
  uint32_t cutoff; /* parts per million */
  uint64_t min_count, num_counts;
};
void xl_set_profile_summary(LLVMModuleRef m, uint64_t total, uint64_t max,
                            uint64_t num_counts, uint64_t num_functions,
                            const struct xl_summary_entry *d, unsigned n);
/* Hot or cold as LLVM's own profile use judges a function, from the
 * module's ProfileSummary (set it first): 1 if its entry count is hot,
 * -1 if its largest count is cold, else 0. */
void *xl_hotness_open(LLVMModuleRef m);
int xl_hotness(void *h, uint64_t entry, uint64_t max);
/* Is count hot by the summary (1), not (0), or is there none (-1)? */
int xl_hot_count(void *h, uint64_t count);
/* The time profile in collect builds (first_run.c): name the word at
 * index of array as fn's first-run word, and, at the end of the
 * optimizer, test it at the entry of each function so marked (returns
 * whether it did). */
void xl_mark_first_run(LLVMValueRef fn, const char *array, uint32_t index);
int xl_first_run_entry(LLVMValueRef fn);
/* Specialize fn's divisions that the use pass marked (specialize.c), at
 * the end of the optimizer; returns how many. */
unsigned xl_specialize_marked(LLVMValueRef fn);
/* Is count cold by the summary (there is one and it says so)? */
int xl_cold_count(void *h, uint64_t count);
void xl_hotness_close(void *h);

#ifdef __cplusplus
}
#endif
#endif
