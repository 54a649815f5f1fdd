/*
 * first_run.c - the time profile in collect builds: at the entry of each
 * function, a test of its first-run word and, the first time only, a
 * store there of the next rank of the process (runtime/first_run.c).
 *
 * The collect pass gives each function its word (collect.c) and names it
 * in the function's "xprof-first-run" attribute; the test goes in at the
 * end of the optimizer (xl_first_run_entry), after inlining, so that only
 * the function bodies that remain pay for it: a small function inlined
 * into a hot loop would otherwise test its word on every iteration (a
 * measurable cost in a collect build of an interpreter: bench/history.md).
 * Inlined copies need no rank: what use builds order is the bodies that
 * remain.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define XL_FIRST_RUN_ATTR "xprof-first-run"

void xl_mark_first_run(LLVMValueRef fn, const char *array, uint32_t index) {
  char value[512];
  int n = snprintf(value, sizeof value, "%u:%s", index, array);
  if (n < 0 || (size_t)n >= sizeof value)
    return; /* a name that long: no rank for this function */
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(fn));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(cx, XL_FIRST_RUN_ATTR,
                                                    strlen(XL_FIRST_RUN_ATTR), value,
                                                    (unsigned)n));
}

/* The word the attribute names, or NULL. */
static LLVMValueRef marked_word(LLVMValueRef fn) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                                     XL_FIRST_RUN_ATTR,
                                                     strlen(XL_FIRST_RUN_ATTR));
  if (!a)
    return NULL;
  unsigned len;
  const char *v = LLVMGetStringAttributeValue(a, &len);
  char buf[512];
  if (len >= sizeof buf)
    return NULL;
  memcpy(buf, v, len);
  buf[len] = 0;
  char *colon = strchr(buf, ':');
  if (!colon)
    return NULL;
  LLVMValueRef array = LLVMGetNamedGlobal(LLVMGetGlobalParent(fn), colon + 1);
  if (!array)
    return NULL;
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(fn));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(cx);
  LLVMValueRef ix[2] = {LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, strtoul(buf, NULL, 10), 0)};
  return LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(array), array, ix, 2);
}

/* Threads race to a function's first call, each storing the rank it took
 * (any of them will do): the word is loaded and stored as a relaxed
 * atomic, a plain mov on x86-64 as on most targets, so that
 * ThreadSanitizer, which instruments the program after this pass, takes
 * the race for what it is and does not report it (and make the training
 * run exit with 66). */
static void relaxed(LLVMValueRef access) {
  LLVMSetOrdering(access, LLVMAtomicOrderingMonotonic);
  LLVMSetAlignment(access, 8);
}

/*
 *   entry: (allocas) t = WORD; if (t != 0) goto rest; else goto slow;
 *   slow:  WORD = (atomicrmw add @XPROF_FIRST_RUNS, 1 monotonic) + 1
 *   rest:  the entry block's other instructions
 */
int xl_first_run_entry(LLVMValueRef fn) {
  LLVMValueRef word = marked_word(fn);
  LLVMRemoveStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, XL_FIRST_RUN_ATTR,
                                   strlen(XL_FIRST_RUN_ATTR));
  if (!word || !LLVMGetFirstBasicBlock(fn))
    return 0;
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  LLVMContextRef cx = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(cx), i64 = LLVMInt64TypeInContext(cx);
  LLVMValueRef counter = LLVMGetNamedGlobal(m, XPROF_ABI_STR(XPROF_FIRST_RUNS));
  if (!counter)
    counter = LLVMAddGlobal(m, i64, XPROF_ABI_STR(XPROF_FIRST_RUNS));

  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  LLVMValueRef i = LLVMGetFirstInstruction(entry);
  while (LLVMIsAAllocaInst(i))
    i = LLVMGetNextInstruction(i);
  LLVMBasicBlockRef rest = xl_split_block_before(i);
  LLVMBasicBlockRef slow = LLVMInsertBasicBlockInContext(cx, rest, "xprof.first_run");
  LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(entry));

  LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef t = LLVMBuildLoad2(b, i64, word, "xprof.first_run");
  relaxed(t);
  LLVMValueRef br = LLVMBuildCondBr(b, LLVMBuildIsNotNull(b, t, ""), rest, slow);
  LLVMMetadataRef md[3] = {LLVMMDStringInContext2(cx, "branch_weights", 14),
                           LLVMValueAsMetadata(LLVMConstInt(i32, 2000, 0)),
                           LLVMValueAsMetadata(LLVMConstInt(i32, 1, 0))};
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(cx, "prof", 4),
                  LLVMMetadataAsValue(cx, LLVMMDNodeInContext2(cx, md, 3)));
  LLVMPositionBuilderAtEnd(b, slow);
  LLVMValueRef one = LLVMConstInt(i64, 1, 0);
  LLVMValueRef before =
      LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpAdd, counter, one, LLVMAtomicOrderingMonotonic, 0);
  relaxed(LLVMBuildStore(b, LLVMBuildAdd(b, before, one, "xprof.rank"), word));
  LLVMBuildBr(b, rest);
  LLVMDisposeBuilder(b);
  return 1;
}
