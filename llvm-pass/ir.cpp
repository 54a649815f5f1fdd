// ir.cpp - the IR operations behind the C core's functions that LLVM-C
// lacks (xprof-llvm.h): attributes, memory-operation lengths, splitting
// blocks and edges, frequencies, recording values, constructors, indirect
// call promotion and the profile summary.
#include "llvm-compat.h"
#include "xprof-llvm.h"
#include "xprof_plan.h"
#include "xprof_abi.h"
#include "shim.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ProfileSummary.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/MD5.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Instrumentation.h"
#include "llvm/Transforms/Utils/CallPromotionUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

extern "C" void xl_set_inaccessible_mem_only(LLVMValueRef call) {
  xl_compat::setInaccessibleMemOnly(cast<CallBase>(unwrap(call)));
}

extern "C" LLVMValueRef xl_memop_length(LLVMValueRef inst) {
  Value *Len = nullptr;
  if (auto *MI = dyn_cast<MemIntrinsic>(unwrap(inst))) {
    if (isa<MemCpyInlineInst>(MI))
      return nullptr; // always expanded inline
    Len = MI->getLength();
  } else if (auto *CI = dyn_cast<CallInst>(unwrap(inst))) {
    const Function *F = CI->getCalledFunction();
    if (F && F->isDeclaration() && CI->arg_size() == 3 &&
        (F->getName() == "memcmp" || F->getName() == "bcmp"))
      Len = CI->getArgOperand(2);
  }
  return Len && !isa<Constant>(Len) && Len->getType()->isIntegerTy() ? wrap(Len)
                                                                      : nullptr;
}

extern "C" unsigned xl_inline_chain(LLVMValueRef inst, struct xl_origin *o, unsigned max) {
  auto *I = dyn_cast<Instruction>(unwrap(inst));
  unsigned n = 0;
  for (const DILocation *L = I ? I->getDebugLoc().get() : nullptr; L && L->getInlinedAt() && n < max;
       L = L->getInlinedAt()) {
    const DISubprogram *SP = L->getScope()->getSubprogram();
    if (!SP)
      break;
    StringRef Name = SP->getLinkageName().empty() ? SP->getName() : SP->getLinkageName();
    StringRef Dir = SP->getDirectory(), File = SP->getFilename();
    o[n++] = {Name.data(), Dir.data(), File.data(), Name.size(),  Dir.size(),
              File.size(), SP->getLine(), L->getInlinedAt()->getLine()};
  }
  return n;
}

// Two functions compiled for the same processor: code inlined from one
// with other target features could use instructions the other's callers
// do not check for (LLVM's own test, TTI's, allows a subset; equal is
// safe without the target's knowledge).
static bool sameTarget(const Function &A, const Function &B) {
  for (const char *K : {"target-cpu", "target-features"})
    if (A.getFnAttribute(K).getValueAsString() != B.getFnAttribute(K).getValueAsString())
      return false;
  return true;
}

extern "C" int xl_inline_call(LLVMValueRef call, unsigned max_insts) {
  auto *CB = dyn_cast<CallBase>(unwrap(call));
  Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  Function *Caller = CB ? CB->getCaller() : nullptr;
  if (!Callee || Callee == Caller || Callee->isDeclaration() || Callee->isIntrinsic() ||
      CB->isNoInline() || CB->isMustTailCall() || Callee->hasOptNone() || Caller->hasOptNone() ||
      Callee->hasFnAttribute(Attribute::Naked) || xl_compat::isPresplitCoroutine(*Callee) ||
      Callee->getFunctionType() != CB->getFunctionType() ||
      Callee->nullPointerIsDefined() != Caller->nullPointerIsDefined() ||
      Callee->getInstructionCount() > max_insts || !sameTarget(*Caller, *Callee) ||
      !AttributeFuncs::areInlineCompatible(*Caller, *Callee) ||
      !isInlineViable(*Callee).isSuccess())
    return 0;
  InlineFunctionInfo IFI;
  return InlineFunction(*CB, IFI).isSuccess();
}

extern "C" int xl_call_returns_twice(LLVMValueRef call) {
  auto *CB = dyn_cast<CallBase>(unwrap(call));
  return CB && CB->hasFnAttr(Attribute::ReturnsTwice);
}

extern "C" void xl_split_after_returns_twice(LLVMValueRef fn) {
  Function *F = cast<Function>(unwrap(fn));
  std::vector<Instruction *> at;
  for (BasicBlock &BB : *F)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (CB->hasFnAttr(Attribute::ReturnsTwice) && !I.getNextNode()->isTerminator())
          at.push_back(I.getNextNode());
  for (Instruction *I : at)
    I->getParent()->splitBasicBlock(I);
}

// The shared pad's landingpad becomes a PHI of the copies in the new
// pads; the unwinder enters each new pad as it entered the shared one.
static void splitLandingPad(BasicBlock *Pad) {
  SmallVector<BasicBlock *, 8> Preds;
  for (BasicBlock *P : predecessors(Pad))
    if (!is_contained(Preds, P))
      Preds.push_back(P);
  if (Preds.size() < 2)
    return;
  LandingPadInst *LP = Pad->getLandingPadInst();
  PHINode *PN = PHINode::Create(LP->getType(), Preds.size(), LP->getName() + ".xp", LP);
  for (BasicBlock *P : Preds) {
    BasicBlock *NB = BasicBlock::Create(Pad->getContext(), Pad->getName() + ".xp",
                                        Pad->getParent(), Pad);
    Instruction *Copy = LP->clone();
    BranchInst *Br = BranchInst::Create(Pad, NB);
    Br->setDebugLoc(LP->getDebugLoc());
    Copy->insertBefore(Br);
    P->getTerminator()->replaceSuccessorWith(Pad, NB);
    Pad->replacePhiUsesWith(P, NB);
    PN->addIncoming(Copy, NB);
  }
  LP->replaceAllUsesWith(PN);
  LP->eraseFromParent();
}

extern "C" void xl_split_landing_pads(LLVMValueRef fn) {
  Function *F = cast<Function>(unwrap(fn));
  std::vector<BasicBlock *> Pads;
  for (BasicBlock &BB : *F)
    if (BB.isLandingPad())
      Pads.push_back(&BB);
  for (BasicBlock *Pad : Pads)
    splitLandingPad(Pad);
}

extern "C" LLVMBasicBlockRef xl_split_edge(LLVMValueRef term, unsigned succ) {
  Instruction *TI = cast<Instruction>(unwrap(term));
  BasicBlock *BB = SplitCriticalEdge(TI, succ, CriticalEdgeSplittingOptions().setMergeIdenticalEdges());
  return BB ? wrap(BB) : nullptr;
}

extern "C" LLVMBasicBlockRef xl_split_block_at_start(LLVMBasicBlockRef bb) {
  BasicBlock *BB = unwrap(bb);
  return wrap(BB->splitBasicBlock(BB->getFirstNonPHI()));
}

extern "C" void xl_move_function_to_front(LLVMValueRef fn) {
  Function *F = unwrap<Function>(fn);
  Module::FunctionListType &L = F->getParent()->getFunctionList();
  L.splice(L.begin(), L, F->getIterator());
}

extern "C" LLVMBasicBlockRef xl_split_block_before(LLVMValueRef inst) {
  Instruction *I = unwrap<Instruction>(inst);
  return wrap(I->getParent()->splitBasicBlock(I));
}

extern "C" LLVMValueRef xl_first_insertion_point(LLVMBasicBlockRef bb) {
  BasicBlock *BB = unwrap(bb);
  auto It = BB->getFirstInsertionPt();
  if (It == BB->end())
    return nullptr;
  return wrap(&*It);
}

extern "C" int xl_is_eh_pad_block(LLVMBasicBlockRef bb) { return unwrap(bb)->isEHPad(); }

extern "C" unsigned xl_mark_cycle_blocks(LLVMValueRef fn, unsigned char *on_cycle) {
  Function &F = *unwrap<Function>(fn);
  DenseMap<const BasicBlock *, unsigned> Index;
  for (const BasicBlock &BB : F) {
    unsigned I = Index.size();
    Index[&BB] = I;
    on_cycle[I] = 0;
  }
  unsigned N = 0;
  // Strongly connected components: a block is on a cycle when its
  // component has one (more than one block, or a branch to itself).
  for (scc_iterator<Function *> C = scc_begin(&F); !C.isAtEnd(); ++C)
    if (C.hasCycle())
      for (const BasicBlock *BB : *C) {
        on_cycle[Index[BB]] = 1;
        N++;
      }
  return N;
}

namespace {
struct Freq {
  DominatorTree DT;
  LoopInfo LI;
  BranchProbabilityInfo BPI;
  BlockFrequencyInfo BFI;
  explicit Freq(Function &F) : DT(F), LI(DT), BPI(F, LI), BFI(F, BPI, LI) {}
};
} // namespace

extern "C" void *xl_freq_open(LLVMValueRef fn) {
  return new Freq(*cast<Function>(unwrap(fn)));
}

extern "C" uint64_t xl_freq_block(void *h, LLVMBasicBlockRef bb) {
  return static_cast<Freq *>(h)->BFI.getBlockFreq(unwrap(bb)).getFrequency();
}

extern "C" uint64_t xl_freq_edge(void *h, LLVMBasicBlockRef src, unsigned succ) {
  Freq *F = static_cast<Freq *>(h);
  BasicBlock *BB = unwrap(src);
  return F->BPI.getEdgeProbability(BB, succ).scale(F->BFI.getBlockFreq(BB).getFrequency());
}

extern "C" void xl_freq_close(void *h) { delete static_cast<Freq *>(h); }


extern "C" void xl_record_value(LLVMValueRef before, LLVMValueRef state, LLVMValueRef value,
                                LLVMValueRef recorder, LLVMValueRef arg, unsigned pairs,
                                int atomic) {
  Instruction *At = cast<Instruction>(unwrap(before));
  Function *F = At->getFunction();
  LLVMContext &Ctx = F->getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Value *State = unwrap(state), *V = unwrap(value);
  BasicBlock *Check = At->getParent();
  BasicBlock *Join = Check->splitBasicBlock(At, "xprof.vp.join");
  Check->getTerminator()->eraseFromParent();
  MDBuilder MDB(Ctx);
  for (unsigned k = 0; k < pairs; k++) {
    IRBuilder<> B(Check);
    Value *Kept = B.CreateLoad(I64, B.CreateConstInBoundsGEP1_64(I64, State, 2 + 2 * k),
                               "xprof.vp.value");
    BasicBlock *Hit = BasicBlock::Create(Ctx, "xprof.vp.hit", F, Join);
    BasicBlock *Next = BasicBlock::Create(Ctx, "xprof.vp.next", F, Join);
    B.CreateCondBr(B.CreateICmpEQ(Kept, V), Hit, Next, MDB.createBranchWeights(4, 1));
    IRBuilder<> H(Hit);
    Value *Count = H.CreateConstInBoundsGEP1_64(I64, State, 3 + 2 * k);
    if (atomic)
      H.CreateAtomicRMW(AtomicRMWInst::Add, Count, ConstantInt::get(I64, 1), MaybeAlign(8),
                        AtomicOrdering::Monotonic);
    else
      H.CreateStore(H.CreateAdd(H.CreateLoad(I64, Count), ConstantInt::get(I64, 1)), Count);
    H.CreateBr(Join);
    Check = Next;
  }
  IRBuilder<> B(Check);
  FunctionCallee Rec(cast<Function>(unwrap(recorder)));
  B.CreateCall(Rec, {State, unwrap(arg)});
  B.CreateBr(Join);
}

extern "C" void xl_count_length(LLVMValueRef before, LLVMValueRef state, LLVMValueRef length,
                                int atomic) {
  Instruction *At = cast<Instruction>(unwrap(before));
  IRBuilder<> B(At);
  Type *I64 = B.getInt64Ty();
  auto K = [&](uint64_t v) { return ConstantInt::get(I64, v); };
  // The bucket is the length, up to the last one for all longer lengths.
  Value *Bucket = B.CreateBinaryIntrinsic(Intrinsic::umin, unwrap(length),
                                          K(XPROF_ABI_VP_HIST_BUCKETS - 1), nullptr,
                                          "xprof.bucket");
  Value *P = B.CreateInBoundsGEP(I64, unwrap(state), B.CreateAdd(Bucket, K(2)));
  if (atomic)
    B.CreateAtomicRMW(AtomicRMWInst::Add, P, K(1), MaybeAlign(8), AtomicOrdering::Monotonic);
  else
    B.CreateStore(B.CreateAdd(B.CreateLoad(I64, P), K(1)), P);
}

extern "C" int xl_address_taken(LLVMValueRef fn) {
  return cast<Function>(unwrap(fn))->hasAddressTaken();
}

extern "C" void xl_append_global_ctor(LLVMModuleRef m, LLVMValueRef fn, int dtor,
                                      int priority) {
  Module *M = unwrap(m);
  Function *F = cast<Function>(unwrap(fn));
  if (dtor)
    appendToGlobalDtors(*M, F, priority);
  else
    appendToGlobalCtors(*M, F, priority);
}

extern "C" uint64_t xl_md5(const char *s) { return MD5Hash(StringRef(s)); }

extern "C" int xl_promote_indirect_call(LLVMValueRef call, LLVMValueRef target,
                                        uint64_t count, uint64_t total) {
  auto *CB = cast<CallBase>(unwrap(call));
  Function *F = cast<Function>(unwrap(target));
  const char *reason = nullptr;
  if (!isLegalToPromote(*CB, F, &reason))
    return 0;
  pgo::promoteIndirectCall(*CB, F, count, total, true, nullptr);
  return 1;
}

extern "C" void xl_set_profile_summary(LLVMModuleRef m, uint64_t total, uint64_t max,
                                       uint64_t num_counts, uint64_t num_functions,
                                       const struct xl_summary_entry *d, unsigned n) {
  Module *M = unwrap(m);
  SummaryEntryVector detail;
  for (unsigned i = 0; i < n; i++)
    detail.push_back(ProfileSummaryEntry(d[i].cutoff, d[i].min_count, d[i].num_counts));
  ProfileSummary PS(ProfileSummary::PSK_Instr, detail, total, max, max, max,
                    (uint32_t)num_counts, (uint32_t)num_functions);
  M->setProfileSummary(PS.getMD(M->getContext()), ProfileSummary::PSK_Instr);
}

extern "C" void *xl_hotness_open(LLVMModuleRef m) {
  return new ProfileSummaryInfo(*unwrap(m));
}

extern "C" int xl_hotness(void *h, uint64_t entry, uint64_t max) {
  auto *PSI = static_cast<ProfileSummaryInfo *>(h);
  if (!PSI->hasProfileSummary())
    return 0;
  if (PSI->isHotCount(entry))
    return 1;
  return PSI->isColdCount(max) ? -1 : 0;
}

extern "C" int xl_hot_count(void *h, uint64_t count) {
  auto *PSI = static_cast<ProfileSummaryInfo *>(h);
  if (!PSI->hasProfileSummary())
    return -1;
  return PSI->isHotCount(count);
}

extern "C" int xl_cold_count(void *h, uint64_t count) {
  auto *PSI = static_cast<ProfileSummaryInfo *>(h);
  return PSI->hasProfileSummary() && PSI->isColdCount(count);
}

extern "C" void xl_hotness_close(void *h) { delete static_cast<ProfileSummaryInfo *>(h); }


extern "C" char *xl_plain_name(LLVMValueRef fn) {
  std::string Name = unwrap<Function>(fn)->getName().str();
  ItaniumPartialDemangler D;
  if (!D.partialDemangle(Name.c_str()))
    if (char *Base = D.getFunctionBaseName(nullptr, nullptr))
      return Base;
  return strdup(Name.c_str());
}
