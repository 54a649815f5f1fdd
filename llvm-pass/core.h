/*
 * core.h - what the C sources of the LLVM pass share.
 */
#ifndef XPROF_LLVM_CORE_H
#define XPROF_LLVM_CORE_H

#include <llvm-c/Core.h>

#include "xprof-llvm.h"
#include "xprof_plan.h"

/* The plugin's allocator, as GCC's xmalloc: memory, or the end of the
 * compilation with a message -- never a pass that goes on with half its
 * data. */
void *xl_malloc(size_t size);
void *xl_calloc(size_t n, size_t size);
void *xl_realloc(void *block, size_t size);
char *xl_strdup(const char *s);
/* block, or the end of the compilation when it is NULL (for memory that
 * another allocator gave, libxprof's). */
void *xl_check(void *block);
/* An array of n elements with room for one more (doubling). */
void *xl_grow(void *array, uint32_t *cap, uint32_t n, size_t elem);

/* A compilation on another machine (distcc): the object path and profile
 * data the driver shipped in the module's asm, taken out of it at the
 * start of a run (cfg.c); xl_object_path then gives the shipped path. */
void xl_take_shipped(LLVMModuleRef m);
/* The shipped "# xprof use data" line of module m and its length, or NULL. */
const char *xl_shipped_data(LLVMModuleRef m, size_t *n);

/* A function's CFG as libxprof sees it (xprof_graph: nodes 0 ENTRY, 1
 * EXIT, then the blocks in function order; one edge per (block,
 * successor block); its sites; its counted selects as side counters),
 * and the IR behind it. */
struct xl_cfg {
  xprof_graph g;
  LLVMBasicBlockRef *blocks; /* by node; [0], [1] NULL */
  uint32_t *succ_slot;       /* per edge: its first successor slot */
  LLVMValueRef *selects;     /* per side counter use: the select */
};

/* A function's places for a match by source line (xprof_use_match; what
 * xl_record_lines records at collect time): each instruction's line in
 * its block, under the functions inlined around it, and the
 * declaration's in the first block.  xl_places_fill is an xprof_places_fn
 * on an xl_places set to the function and its graph; xl_places_free
 * frees what it filled. */
struct xl_places {
  LLVMValueRef fn;
  const struct xl_cfg *cfg;
  const LLVMValueRef *calls; /* fn's value-profile sites (xl_vp_sites) */
  uint32_t n_calls;
  xprof_line_loc *locs, *sites;
  uint32_t n_locs, cap_locs, n_sites, cap_sites;
  xprof_inline_frame *frames;
  uint32_t n_frames, cap_frames;
  char **names; /* the frames' function names and files */
  uint32_t n_names, cap_names;
};
void xl_places_fill(void *ctx, xprof_places *p);
void xl_places_free(struct xl_places *p);
/* The place of instruction i alone in *loc (p's storage, emptied first);
 * 0 when i has no line. */
int xl_place_of(struct xl_places *p, LLVMValueRef i, xprof_line_loc *loc);

/* Prepare fn (split blocks where the graph needs it) and describe it,
 * its counters placed.  sites: its value-profile sites (xl_vp_sites);
 * with measure_calls (the profile keeps values), the edge into each
 * indirect call is measured by the call's site instead of a counter.
 * With count_selects, the selects whose conditions get counters too (see
 * find_selects).  0 when it cannot be counted exactly (c to free either
 * way). */
int xl_cfg_build(LLVMValueRef fn, const LLVMValueRef *sites, uint32_t n_vp_sites,
                 int measure_calls, int count_selects, struct xl_cfg *c);
void xl_cfg_free(struct xl_cfg *c);

/* A mark (bonus.c): an empty asm statement before instruction `before`
 * that carries the string attribute attr=value, costs the inliner
 * nothing and is not speculated; xl_mark_attribute: i's attribute attr
 * if i is a mark, else NULL. */
LLVMValueRef xl_add_mark(LLVMValueRef before, const char *attr, const char *value);
LLVMAttributeRef xl_mark_attribute(LLVMValueRef i, const char *attr);

enum xprof_site_kind xl_site_kind(const LLVMValueRef *sites, uint32_t s);
/* The xprof_vp_type of the records of site s. */
unsigned xl_site_vp_type(const LLVMValueRef *sites, uint32_t s);
/* A record's values and counts, by decreasing count, and their total. */
struct xl_values {
  uint64_t value[64], count[64];
  uint32_t n;
  uint64_t total;
};
/* How a division is specialized (specialize.c): by subtracting (param:
 * how many times), by a constant (param), by a mask; the weights of the
 * compares' outcomes, the fast paths first. */
enum xl_plan_kind { XL_PLAN_SUBTRACT, XL_PLAN_CONSTANT, XL_PLAN_MASK };
struct xl_plan {
  enum xl_plan_kind kind;
  uint64_t param;
  uint64_t weight[3];
};
/* Decide, as GCC's value-profile transformations do, how div
 * (xl_division) pays to be specialized to the values of its divisor and,
 * for a urem, of its quotient (either may be NULL): 1 and *plan, or 0. */
int xl_plan_division(LLVMValueRef div, const struct xl_values *divisor,
                     const struct xl_values *quotient, struct xl_plan *plan);
/* The same for a memory operation (xl_memop_length) and its lengths: the
 * dominant one, if it is at least half of them and at most
 * XPROF_ABI_VP_HIST_LONGEST. */
int xl_plan_length(LLVMValueRef memop, const struct xl_values *lengths, struct xl_plan *plan);
/* Mark the instruction with its plan, for xl_specialize_marked. */
void xl_mark_plan(LLVMValueRef div, const struct xl_plan *plan);

/* The value-profile sites of fn in instruction order (caller frees):
 * indirect calls (their targets), memory operations with a length that
 * is not a constant (see xl_memop_length), and integer divisions and
 * modulos by a divisor that is not a constant (xl_division). */
LLVMValueRef *xl_vp_sites(LLVMValueRef fn, uint32_t *n);
int xl_is_indirect_call(LLVMValueRef inst);
/* !{"branch_weights", w...} on term, the n weights scaled down together
 * to 32 bits (operands are 32-bit); ops: room for n + 1. */
void xl_branch_weights(LLVMValueRef term, const uint64_t *w, unsigned n,
                       LLVMMetadataRef *ops);
/* Is inst an sdiv, udiv, srem or urem of integers of at most 64 bits by
 * a divisor that is not a constant? */
int xl_division(LLVMValueRef inst);

/* Add or test an enum attribute of a function or call site by name.  A
 * name this LLVM does not know (LLVM 16 folded inaccessiblememonly into
 * memory(...)) is not added and never present: kind 0 would make an
 * invalid attribute. */
void xl_add_fn_attr(LLVMValueRef fn, const char *name);
void xl_add_call_attr(LLVMValueRef call, const char *name);
int xl_has_fn_attr(LLVMValueRef fn, const char *name);

/* The inliner bonus (bonus.c): fn's instructions, sorted by address,
 * before it is instrumented (malloc'd; *n their number); after, the
 * bonus of what instrumenting it added. */
LLVMValueRef *xl_instructions_of(LLVMValueRef fn, size_t *n);
void xl_compensate_inliner(LLVMValueRef fn, LLVMValueRef *before, size_t n);

/* Functions the pass handles: defined here, not available_externally,
 * not marked no_profile_instrument_function, not on the skip list. */
int xl_profiled_function(LLVMModuleRef m, LLVMValueRef fn, const xprof_options *o);
/* Name in profiles (a leading \1 removed); static storage. */
const char *xl_function_name(LLVMValueRef fn);
/* fn's source file as its debug information names it (the path the
 * compiler was given), for the line profile to tell static functions of
 * one name apart; NULL without debug information.  The caller frees it. */
char *xl_function_file(LLVMValueRef fn);
/* The symbol a call or invoke instruction calls directly (not an
 * intrinsic), or NULL (lines.c). */
const char *xl_direct_callee(LLVMValueRef inst);
/* The object file this compilation produces (resolved pathname). */
char *xl_object_path(LLVMModuleRef m, const xprof_options *o);
/* The same before the prefix maps: the file the command writes (malloc'd;
 * NULL when compiled on another machine). */
char *xl_object_file(LLVMModuleRef m, const xprof_options *o);

/* Where the core's messages about module m go: its LLVMContext's
 * diagnostics (xl_diagnose), as the options say. */
xprof_diag xl_diag(LLVMModuleRef m, const xprof_options *o);

#endif
