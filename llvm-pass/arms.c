/*
 * arms.c - the source's small if-arms kept as blocks until they are
 * counted.
 *
 * clang's early clean-up, which runs before the xprof pass (where LLVM's
 * own instrumentation runs), speculates a small arm -- `if (k < 0) k +=
 * n;` -- into its test's block and makes the join a select.  The arm's
 * code then runs every time, and no count says how often the source's
 * branch went that way: not in this compiler's use build, where the
 * select gets no weights inside loops, and not for another compiler
 * that keeps the branch (a line profile's arm column has its test's
 * count).  GCC counts before it if-converts.
 *
 * So at the start of the pipeline every arm that the clean-up could
 * speculate gets a mark: an empty asm statement, which is not
 * speculated and costs the inliner nothing.  The xprof pass removes the
 * marks before it reads the graphs, in both modes, so that collect and
 * use builds see the same blocks; the optimizer's later clean-up then
 * speculates an arm or not with the branch's measured weights (a
 * predictable branch stays a branch, as with GCC's profile).
 */
#include <stdio.h>

#include "core.h"

#define ARM_MARK "xprof-arm"

/* Instructions an arm may have and still be marked: the clean-up
 * speculates a few after SROA, and before it an arm also loads and
 * stores its variables. */
enum { LARGEST_ARM = 16 };

/* The only block that jumps to b, or NULL. */
static LLVMBasicBlockRef only_predecessor(LLVMBasicBlockRef b) {
  LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(b));
  if (!u || LLVMGetNextUse(u))
    return NULL;
  LLVMValueRef t = LLVMGetUser(u);
  return LLVMIsAInstruction(t) && LLVMIsATerminatorInst(t) ? LLVMGetInstructionParent(t) : NULL;
}

/* Where arm s (a successor of b's conditional branch) goes when it is
 * small code that the clean-up could speculate into b: the join; else
 * NULL. */
static LLVMBasicBlockRef small_arm_join(LLVMBasicBlockRef b, LLVMBasicBlockRef s) {
  if (s == b || only_predecessor(s) != b)
    return NULL;
  LLVMValueRef t = LLVMGetBasicBlockTerminator(s);
  if (!t || LLVMGetInstructionOpcode(t) != LLVMBr || LLVMIsConditional(t))
    return NULL;
  unsigned n = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(s); i != t; i = LLVMGetNextInstruction(i)) {
    if (LLVMIsADbgInfoIntrinsic(i))
      continue;
    if ((LLVMIsACallInst(i) && !LLVMIsAIntrinsicInst(i)) || ++n > LARGEST_ARM)
      return NULL; /* a call is not speculated; a large arm is not either */
  }
  return LLVMGetSuccessor(t, 0);
}

/* Put mark number `serial` in arm s (distinct marks: the clean-up must
 * not take the two arms' marks for one instruction). */
static void mark(LLVMBasicBlockRef s, unsigned serial) {
  char text[16];
  snprintf(text, sizeof text, "%u", serial);
  xl_add_mark(LLVMGetBasicBlockTerminator(s), ARM_MARK, text);
}

/* Mark the arms of b's conditional branch that the clean-up could
 * speculate: one arm that joins the other successor, or two that join
 * one block.  Returns the next serial. */
static unsigned mark_arms(LLVMBasicBlockRef b, unsigned serial) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
  if (!t || LLVMGetInstructionOpcode(t) != LLVMBr || !LLVMIsConditional(t))
    return serial;
  LLVMBasicBlockRef s0 = LLVMGetSuccessor(t, 0), s1 = LLVMGetSuccessor(t, 1);
  if (s0 == s1)
    return serial;
  LLVMBasicBlockRef j0 = small_arm_join(b, s0), j1 = small_arm_join(b, s1);
  int diamond = j0 && j0 == j1;
  if (j0 && (j0 == s1 || diamond))
    mark(s0, serial++);
  if (j1 && (j1 == s0 || diamond))
    mark(s1, serial++);
  return serial;
}

void xl_mark_arms(LLVMModuleRef m) {
  unsigned serial = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    /* Blocks made by marking are not visited: the arms only get a call. */
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
      serial = mark_arms(b, serial);
  }
}

void xl_drop_arm_marks(LLVMModuleRef m) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (xl_mark_attribute(i, ARM_MARK))
          LLVMInstructionEraseFromParent(i);
      }
}
