/*
 * bonus.c - what a function's counters cost the inliner, given back;
 * and the marks it carries that in (empty asm statements with an
 * attribute, which arms.c uses too).
 *
 * Counters make a function look bigger to the inliner than it is to the
 * program, so collection builds would inline less than the plain build,
 * and pay for the calls.  LLVM raises a callee's threshold by the
 * "call-threshold-bonus" of each call inside it: one empty asm statement
 * at the entry carries the size the instrumentation added, and costs
 * nothing itself ("call-inline-cost").  Inlined, it goes along, so a
 * caller's bonus covers its callees' counters as well; once a function
 * has been simplified its bonus is made what its instrumentation costs
 * then (xl_rebase_inline_bonus), and it is removed once inlining is over
 * (plugin.cpp).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

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
  char text[24];
  snprintf(text, sizeof text, "%ld", bonus);
  xl_add_mark(xl_first_insertion_point(LLVMGetEntryBasicBlock(fn)), XL_INLINE_BONUS, text);
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
  LLVMAttributeRef a = xl_mark_attribute(i, XL_INLINE_BONUS);
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

LLVMValueRef *xl_instructions_of(LLVMValueRef fn, size_t *n) {
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

void xl_compensate_inliner(LLVMValueRef fn, LLVMValueRef *before, size_t n) {
  compensate_inliner(fn, mark_instrumentation(fn, before, n));
}

/* ---- marks: empty asm statements that carry an attribute ---------------- */

LLVMValueRef xl_add_mark(LLVMValueRef before, const char *attr, const char *value) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(before));
  LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(cx), NULL, 0, 0);
  LLVMValueRef a = LLVMGetInlineAsm(fty, "", 0, "", 0, 1, 0, LLVMInlineAsmDialectATT, 0);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
  LLVMPositionBuilderBefore(b, before);
  LLVMValueRef call = LLVMBuildCall2(b, fty, a, NULL, 0, "");
  LLVMDisposeBuilder(b);
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                           LLVMCreateStringAttribute(cx, attr, (unsigned)strlen(attr), value,
                                                     (unsigned)strlen(value)));
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                           LLVMCreateStringAttribute(cx, "call-inline-cost", 16, "0", 1));
  xl_set_inaccessible_mem_only(call);
  xl_add_call_attr(call, "nounwind");
  xl_add_call_attr(call, "willreturn");
  return call;
}

LLVMAttributeRef xl_mark_attribute(LLVMValueRef i, const char *attr) {
  if (LLVMGetInstructionOpcode(i) != LLVMCall || !LLVMIsAInlineAsm(LLVMGetCalledValue(i)))
    return NULL;
  return LLVMGetCallSiteStringAttribute(i, LLVMAttributeFunctionIndex, attr,
                                        (unsigned)strlen(attr));
}
