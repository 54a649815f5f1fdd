/*
 * collect.h - what instrumenting one module builds up (collect.c), for
 * its descriptor (descriptor.c) and its coverage table (lines.c):
 * libxprof's plan, and the IR of each planned function and of the
 * module's arrays.
 */
#ifndef XPROF_LLVM_COLLECT_H
#define XPROF_LLVM_COLLECT_H

#include <stdio.h>

#include "core.h"

/* A planned function's IR. */
struct xl_fn_ir {
  LLVMValueRef fn;
  LLVMValueRef var;             /* its own array (comdat) or NULL: the module's */
  LLVMValueRef twin, twin_cell; /* its own twin and its cell (comdat), or NULL */
};

typedef struct xl_collect {
  LLVMModuleRef m;
  LLVMContextRef cx;
  const xprof_options *o;
  xprof_diag d;
  xprof_plan plan;
  struct xl_fn_ir *fns; /* as plan.fns */
  LLVMTypeRef i8, i32, i64, i8p, i64p;
  LLVMBuilderRef b;
  /* Placeholders while the sizes are not known: one global per array,
   * replaced at the end (descriptor.c). */
  LLVMValueRef ctr_ph, vp_ph, twin_ph, fr_ph;
  LLVMValueRef twin_cell; /* of the module's twin */
  /* The function being instrumented: the placeholder of the address of
   * the thread's copy (per-thread counters without twins), whether it
   * counts atomically. */
  LLVMValueRef copy;
  int atomic;
  LLVMValueRef tbaa; /* access tag of the counters, made on first use */
  FILE *cfg_dump;
  xprof_linetab *lines; /* the coverage table */
  const char *file_name, *file_dir; /* lines.c's last debug file, and its result */
  char *file;
} xl_collect;

/* Address of element idx of an i64 array global (placeholder or real). */
LLVMValueRef xl_elem(const xl_collect *c, LLVMValueRef arr, uint32_t idx);
/* A thread-local twin of n counters (local-exec: only in executables),
 * private to the module or one per program (comdat). */
LLVMValueRef xl_twin_array(xl_collect *c, const char *name, uint32_t n, int comdat);
/* The module's arrays of their final sizes, the descriptor, and the
 * constructor and destructor that register it (descriptor.c). */
void xl_emit_descriptor(xl_collect *c);
/* fn's entry in the coverage table (lines.c). */
void xl_record_lines(xl_collect *c, LLVMValueRef fn, const xprof_plan_fn *f,
                     const struct xl_cfg *g, const LLVMValueRef *sites, uint32_t n_sites);

#endif
