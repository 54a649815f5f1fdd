// promote.cpp - counters kept in registers through loops and stored at
// the loops' exits (xl_promote_counters).
#include "llvm-compat.h"
#include "xprof-llvm.h"
#include "xprof_plan.h"
#include "xprof_abi.h"
#include "shim.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"

using namespace llvm;

// By default only for atomic updates, where it saves a locked add per
// iteration.  A per-thread or single-threaded update is one plain add
// either way; kept in a register it costs a set-up and a flush per pass
// through the loop and registers that big loops then spill: all four
// benchmark programs ran fewer instructions with it off
// (bench/history.md).

// A loop whose counts can wait for its exits: nothing in it leaves the
// function another way (calls that may exit or longjmp, returns,
// unreachable); given a preheader to start from and exits reached only
// from inside it (made as LoopSimplify makes them).  Loops with calls
// that surely return were tried too: the counters then live across the
// calls, and collection got slower.
static bool promotable(Loop *L, DominatorTree &DT, LoopInfo &LI) {
  for (const BasicBlock *BB : L->blocks()) {
    if (succ_empty(BB))
      return false;
    for (const Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (!isa<IntrinsicInst>(CB) || CB->isInlineAsm())
          return false;
  }
  SmallVector<BasicBlock *, 8> Exits;
  L->getUniqueExitBlocks(Exits);
  for (const BasicBlock *E : Exits)
    if (E->isEHPad())
      return false;
  if (Exits.empty())
    return false;
  if (!L->getLoopPreheader() && !InsertPreheaderForLoop(L, &DT, &LI, nullptr, false))
    return false;
  if (!L->hasDedicatedExits())
    formDedicatedExitBlocks(L, &DT, &LI, nullptr, false);
  return L->getLoopPreheader() && L->hasDedicatedExits();
}

// The counter's address, usable at `Before`: a constant, or a copy of the
// GEP from the thread's copy (defined at function entry).
static Value *addressAt(Value *P, Instruction *Before) {
  auto *G = dyn_cast<GetElementPtrInst>(P);
  if (!G)
    return P;
  Instruction *C = G->clone();
  C->insertBefore(Before);
  return C;
}

extern "C" void xl_promote_counters(LLVMValueRef fn, LLVMValueRef *updates, unsigned n) {
  Function &F = *cast<Function>(unwrap(fn));
  if (F.hasOptNone() || n == 0)
    return;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  if (LI.empty())
    return;
  Type *I64 = Type::getInt64Ty(F.getContext());
  DenseMap<const Loop *, bool> Ok;
  Instruction *AllocaAt = &*F.getEntryBlock().getFirstInsertionPt();
  for (unsigned i = 0; i < n; i++) {
    Instruction *U = unwrap<Instruction>(updates[i]);
    Loop *L = LI.getLoopFor(U->getParent());
    if (!L)
      continue;
    auto It = Ok.find(L);
    if (It == Ok.end())
      It = Ok.insert({L, promotable(L, DT, LI)}).first;
    if (!It->second)
      continue;
    auto *RMW = dyn_cast<AtomicRMWInst>(U);
    auto *St = dyn_cast<StoreInst>(U);
    Value *P = RMW ? RMW->getPointerOperand() : St->getPointerOperand();
    auto *Ld = St ? dyn_cast<LoadInst>(cast<Instruction>(St->getValueOperand())->getOperand(0))
                  : nullptr;
    if (St && (!Ld || Ld->getPointerOperand() != P))
      continue; // not the shape we emitted
    MDNode *Tag = U->getMetadata(LLVMContext::MD_tbaa);
    AllocaInst *A = new AllocaInst(I64, 0, "xprof.local", AllocaAt);
    new StoreInst(ConstantInt::get(I64, 0), A, L->getLoopPreheader()->getTerminator());
    if (RMW) {
      IRBuilder<> B(RMW);
      B.CreateStore(B.CreateAdd(B.CreateLoad(I64, A), RMW->getValOperand()), A);
      RMW->eraseFromParent();
    } else {
      Ld->setOperand(0, A); // a register after SROA: no longer volatile
      St->setOperand(1, A);
      Ld->setVolatile(false);
      St->setVolatile(false);
    }
    SmallVector<BasicBlock *, 8> Exits;
    L->getUniqueExitBlocks(Exits);
    for (BasicBlock *E : Exits) {
      IRBuilder<> B(&*E->getFirstInsertionPt());
      Value *V = B.CreateLoad(I64, A, "xprof.pending");
      Value *Q = addressAt(P, &*B.GetInsertPoint());
      if (RMW) {
        B.CreateAtomicRMW(AtomicRMWInst::Add, Q, V, MaybeAlign(8), AtomicOrdering::Monotonic)
            ->setMetadata(LLVMContext::MD_tbaa, Tag);
      } else {
        LoadInst *Old = B.CreateLoad(I64, Q, "xprof.ctr");
        Old->setMetadata(LLVMContext::MD_tbaa, Tag);
        B.CreateStore(B.CreateAdd(Old, V), Q)->setMetadata(LLVMContext::MD_tbaa, Tag);
      }
    }
    if (auto *G = dyn_cast<GetElementPtrInst>(P))
      if (G->use_empty())
        G->eraseFromParent();
  }
}

