/*
 * specialize.c - integer divisions and modulos specialized to the values
 * training saw, as GCC's value-profile transformations make them
 * (value-prof.cc) and LLVM's own profile use does not:
 *
 *   a urem b whose quotient is mostly 0 (or 0 or 1):
 *       a < b ? a : (a - b < b ? a - b : a urem b)
 *   a op b whose divisor is at least half the time the constant C:
 *       b == C ? a op C : a op b         (op C then becomes a multiply)
 *   a memory operation whose length is at least half the time C:
 *       n == C ? memcpy(d, s, C) : memcpy(d, s, n)   (inline moves)
 *   a urem b whose divisor is mostly a power of two:
 *       (b & (b - 1)) == 0 ? a & (b - 1) : a urem b
 *
 * tried in that order, each guarded by a compare weighed with the
 * profile, so the result is the same whatever the values.
 *
 * The use pass decides, with the profile (xl_plan_division), and marks
 * the division with its plan; the code is made at the end of the
 * optimizer (xl_specialize_marked).  Made early, it would not last:
 * InstCombine folds the phi of `a op C` and `a op b` into `a op phi(C,
 * b)`, which is `a op b` again -- as it does to the constant-length
 * copies LLVM's own memop optimization makes early, unless they become
 * loads and stores first (lengths 1, 2, 4, 8), so the dominant length
 * of a memory operation is made here too.  The mark travels with the
 * instruction into every copy the inliner makes.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core.h"
#include "xprof_abi.h"

static void weigh(LLVMValueRef br, uint64_t yes, uint64_t no) {
  uint64_t w[2] = {yes, no};
  LLVMMetadataRef ops[3];
  xl_branch_weights(br, w, 2, ops);
}

/* The instruction in a block of its own between `head` (which ends in a
 * branch to it, to be replaced) and `join`, whose first instruction is
 * a phi that takes the instruction's place (NULL for a call without a
 * result).  Returns the phi. */
static LLVMValueRef isolate(LLVMBuilderRef b, LLVMValueRef div, LLVMBasicBlockRef *head,
                            LLVMBasicBlockRef *join) {
  *head = LLVMGetInstructionParent(div);
  LLVMBasicBlockRef slow = xl_split_block_before(div);
  *join = xl_split_block_before(LLVMGetNextInstruction(div));
  LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(*head));
  if (LLVMGetTypeKind(LLVMTypeOf(div)) == LLVMVoidTypeKind)
    return NULL;
  LLVMPositionBuilder(b, *join, LLVMGetFirstInstruction(*join));
  LLVMValueRef phi = LLVMBuildPhi(b, LLVMTypeOf(div), "xprof.value");
  LLVMReplaceAllUsesWith(div, phi);
  LLVMAddIncoming(phi, &div, &slow, 1);
  return phi;
}

/* The bits of a value of integer type t (records keep it sign-extended). */
static uint64_t in_type(uint64_t v, LLVMTypeRef t) {
  unsigned w = LLVMGetIntTypeWidth(t);
  return w >= 64 ? v : v & ((1ull << w) - 1);
}

/* A new block before div's, the builder at its end: the caller computes
 * the fast path's value there, and finish_fast ends it. */
static LLVMBasicBlockRef fast_block(LLVMBuilderRef b, LLVMValueRef div) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(div));
  LLVMBasicBlockRef fast =
      LLVMInsertBasicBlockInContext(cx, LLVMGetInstructionParent(div), "xprof.fast");
  LLVMPositionBuilderAtEnd(b, fast);
  return fast;
}

/* End the fast path: to join, its value v into phi. */
static void finish_fast(LLVMBuilderRef b, LLVMValueRef phi, LLVMValueRef v,
                        LLVMBasicBlockRef fast, LLVMBasicBlockRef join) {
  LLVMPositionBuilderAtEnd(b, fast);
  LLVMBuildBr(b, join);
  if (phi)
    LLVMAddIncoming(phi, &v, &fast, 1);
}

/* The mark: !{kind, constant or steps, weight, weight, weight}. */
#define XL_MARK "xprof.specialize"

/* Unsigned a urem b by at most two subtractions (plan->steps). */
static void by_subtraction(LLVMBuilderRef b, LLVMValueRef div, const struct xl_plan *plan) {
  LLVMBasicBlockRef head, join;
  LLVMValueRef phi = isolate(b, div, &head, &join);
  LLVMBasicBlockRef slow = LLVMGetInstructionParent(div);
  LLVMValueRef a = LLVMGetOperand(div, 0), d = LLVMGetOperand(div, 1);
  uint64_t left = plan->weight[0] + plan->weight[1] + plan->weight[2];
  LLVMBasicBlockRef at = head;
  LLVMValueRef r = a;
  for (unsigned i = 0; i < plan->param; i++) {
    LLVMPositionBuilderAtEnd(b, at);
    if (i)
      r = LLVMBuildSub(b, r, d, "xprof.less");
    LLVMValueRef done = LLVMBuildICmp(b, LLVMIntULT, r, d, "");
    LLVMBasicBlockRef fast = fast_block(b, div);
    LLVMBasicBlockRef next =
        i + 1 < plan->param
            ? LLVMInsertBasicBlockInContext(LLVMGetTypeContext(LLVMTypeOf(div)), slow, "xprof.next")
            : slow;
    LLVMPositionBuilderAtEnd(b, at);
    weigh(LLVMBuildCondBr(b, done, fast, next), plan->weight[i], left - plan->weight[i]);
    finish_fast(b, phi, r, fast, join);
    left -= plan->weight[i];
    at = next;
  }
}

/* The operand a plan specializes: a memory operation's length (operand
 * 2 of memcpy, memmove, memset, memcmp and bcmp), a division's divisor. */
static unsigned specialized_operand(LLVMValueRef inst) { return xl_memop_length(inst) ? 2 : 1; }

/* a op b as a op C where b == C (b: the specialized operand). */
static void by_constant(LLVMBuilderRef b, LLVMValueRef div, const struct xl_plan *plan) {
  unsigned k = specialized_operand(div);
  LLVMValueRef var = LLVMGetOperand(div, k);
  LLVMValueRef c = LLVMConstInt(LLVMTypeOf(var), plan->param, 0);
  LLVMBasicBlockRef head, join;
  LLVMValueRef phi = isolate(b, div, &head, &join);
  LLVMBasicBlockRef fast = fast_block(b, div);
  LLVMValueRef copy = LLVMInstructionClone(div);
  LLVMInsertIntoBuilderWithName(b, copy, phi ? "xprof.byconst" : "");
  LLVMSetOperand(copy, k, c);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef is = LLVMBuildICmp(b, LLVMIntEQ, var, c, "");
  weigh(LLVMBuildCondBr(b, is, fast, LLVMGetInstructionParent(div)), plan->weight[0],
        plan->weight[1]);
  finish_fast(b, phi, copy, fast, join);
}

/* Unsigned a urem b as a & (b - 1) where b is a power of two. */
static void by_mask(LLVMBuilderRef b, LLVMValueRef div, const struct xl_plan *plan) {
  LLVMTypeRef t = LLVMTypeOf(div);
  LLVMBasicBlockRef head, join;
  LLVMValueRef phi = isolate(b, div, &head, &join);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef den = LLVMGetOperand(div, 1);
  LLVMValueRef mask = LLVMBuildAdd(b, den, LLVMConstAllOnes(t), "xprof.mask");
  LLVMValueRef is = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, mask, den, ""),
                                  LLVMConstNull(t), "");
  LLVMBasicBlockRef fast = fast_block(b, div);
  LLVMValueRef r = LLVMBuildAnd(b, LLVMGetOperand(div, 0), mask, "xprof.masked");
  LLVMPositionBuilderAtEnd(b, head);
  weigh(LLVMBuildCondBr(b, is, fast, LLVMGetInstructionParent(div)), plan->weight[0],
        plan->weight[1]);
  finish_fast(b, phi, r, fast, join);
}

/* GCC's INTERVAL rule: at most two subtractions, if they give the result
 * at least half the time. */
static int plan_subtraction(LLVMValueRef div, const struct xl_values *q, struct xl_plan *plan) {
  uint64_t c[2] = {0, 0};
  for (uint32_t k = 0; k < q->n; k++) {
    uint64_t v = in_type(q->value[k], LLVMTypeOf(div));
    if (v < 2)
      c[v] += q->count[k];
  }
  unsigned steps = 2 * c[0] >= q->total ? 1 : 2 * (c[0] + c[1]) >= q->total ? 2 : 0;
  *plan = (struct xl_plan){XL_PLAN_SUBTRACT, steps, {c[0], steps > 1 ? c[1] : 0, 0}};
  plan->weight[2] = q->total - plan->weight[0] - plan->weight[1];
  return steps > 0;
}

/* GCC's TOPN rule: the most frequent value at least half the time (a
 * length a memory operation takes, or a divisor other than 0). */
static int plan_constant(LLVMValueRef inst, const struct xl_values *d, struct xl_plan *plan) {
  LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(inst, specialized_operand(inst)));
  uint64_t v = d->n ? in_type(d->value[0], t) : 0;
  *plan = (struct xl_plan){XL_PLAN_CONSTANT, v, {d->n ? d->count[0] : 0, 0, 0}};
  plan->weight[1] = d->total - plan->weight[0];
  if (xl_memop_length(inst))
    return d->n && 2 * d->count[0] >= d->total && d->value[0] <= XPROF_ABI_VP_HIST_LONGEST;
  return d->n && 2 * d->count[0] >= d->total && v != 0;
}

/* GCC's POW2 rule: a power of two at least half the time. */
static int plan_mask(LLVMValueRef div, const struct xl_values *d, struct xl_plan *plan) {
  uint64_t pow2 = 0;
  for (uint32_t k = 0; k < d->n; k++) {
    uint64_t v = in_type(d->value[k], LLVMTypeOf(div));
    if (v && !(v & (v - 1)))
      pow2 += d->count[k];
  }
  *plan = (struct xl_plan){XL_PLAN_MASK, 0, {pow2, d->total - pow2, 0}};
  return pow2 >= d->total - pow2;
}

int xl_plan_length(LLVMValueRef memop, const struct xl_values *lengths, struct xl_plan *plan) {
  return lengths->total && plan_constant(memop, lengths, plan);
}

int xl_plan_division(LLVMValueRef div, const struct xl_values *divisor,
                     const struct xl_values *quotient, struct xl_plan *plan) {
  int urem = LLVMGetInstructionOpcode(div) == LLVMURem;
  return (urem && quotient && quotient->total && plan_subtraction(div, quotient, plan)) ||
         (divisor && divisor->total && plan_constant(div, divisor, plan)) ||
         (urem && divisor && divisor->total && plan_mask(div, divisor, plan));
}

void xl_mark_plan(LLVMValueRef div, const struct xl_plan *plan) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(div));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(cx);
  uint64_t f[5] = {plan->kind, plan->param, plan->weight[0], plan->weight[1], plan->weight[2]};
  LLVMMetadataRef ops[5];
  for (int i = 0; i < 5; i++)
    ops[i] = LLVMValueAsMetadata(LLVMConstInt(i64, f[i], 0));
  LLVMSetMetadata(div, LLVMGetMDKindIDInContext(cx, XL_MARK, sizeof XL_MARK - 1),
                  LLVMMetadataAsValue(cx, LLVMMDNodeInContext2(cx, ops, 5)));
}

/* The plan of a marked division that is still one the plan fits. */
static int read_mark(LLVMValueRef inst, unsigned kind_id, struct xl_plan *plan) {
  LLVMValueRef md = LLVMGetMetadata(inst, kind_id);
  if (!md || !(xl_division(inst) || xl_memop_length(inst)) ||
      LLVMGetMDNodeNumOperands(md) != 5)
    return 0;
  LLVMValueRef ops[5];
  LLVMGetMDNodeOperands(md, ops);
  uint64_t f[5];
  for (int i = 0; i < 5; i++) {
    if (!LLVMIsAConstantInt(ops[i]))
      return 0;
    f[i] = LLVMConstIntGetZExtValue(ops[i]);
  }
  *plan = (struct xl_plan){(enum xl_plan_kind)f[0], f[1], {f[2], f[3], f[4]}};
  int urem = xl_division(inst) && LLVMGetInstructionOpcode(inst) == LLVMURem;
  return plan->kind == XL_PLAN_CONSTANT || (urem && plan->kind <= XL_PLAN_MASK);
}

unsigned xl_specialize_marked(LLVMValueRef fn) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(fn));
  unsigned kind_id = LLVMGetMDKindIDInContext(cx, XL_MARK, sizeof XL_MARK - 1);
  LLVMValueRef *marked = NULL;
  uint32_t n = 0, cap = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMGetMetadata(i, kind_id)) {
        marked = xl_grow(marked, &cap, n, sizeof *marked);
        marked[n++] = i;
      }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
  unsigned done = 0;
  for (uint32_t k = 0; k < n; k++) {
    struct xl_plan plan;
    int ok = read_mark(marked[k], kind_id, &plan);
    LLVMSetMetadata(marked[k], kind_id, NULL);
    if (!ok)
      continue;
    if (plan.kind == XL_PLAN_SUBTRACT)
      by_subtraction(b, marked[k], &plan);
    else if (plan.kind == XL_PLAN_CONSTANT)
      by_constant(b, marked[k], &plan);
    else
      by_mask(b, marked[k], &plan);
    done++;
  }
  LLVMDisposeBuilder(b);
  free(marked);
  return done;
}
