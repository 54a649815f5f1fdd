// returning.cpp - which calls surely return to their caller, so that
// their blocks need no fake edge: the functions of the module that surely
// return (or only return or throw), found once per module before any
// function changes, and the risk of each call (xl_call_risk).
#include "llvm-compat.h"
#include "xprof-llvm.h"
#include "xprof_plan.h"
#include "xprof_abi.h"
#include "shim.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

// The options of the analysis (xl_find_returning): -xprof-calls-return,
// -xprof-pointer-calls-return.
static bool OptCallsReturn, OptPointerCallsReturn;

// Functions of the module that surely return to their caller: no exit,
// longjmp or exception out of them (see findReturning).
static DenseSet<const Function *> Returning;
// Functions of the module that leave only by returning or by throwing: no
// exit or longjmp out of them.  An invoke's unwind edge covers the throw.
static DenseSet<const Function *> ReturnsOrThrows;
// C library functions (known to LLVM by name and prototype) that return
// to their caller: none of them calls back into the program.
static DenseSet<const Function *> LibReturning;
// The first two as they are when calls through pointers are taken to
// return (RelaxPointerCalls): see xl_call_risk.
static DenseSet<const Function *> RelaxedReturning, RelaxedReturnsOrThrows;
static bool RelaxPointerCalls;

// While one lives, the questions below are asked with calls through
// pointers taken to return: the relaxed sets stand in for the others.
namespace {
struct RelaxedView {
  RelaxedView() { flip(); }
  ~RelaxedView() { flip(); }
  static void flip() {
    std::swap(Returning, RelaxedReturning);
    std::swap(ReturnsOrThrows, RelaxedReturnsOrThrows);
    RelaxPointerCalls = !RelaxPointerCalls;
  }
};
} // namespace


// The C++ runtime's functions that never return but always throw.
static bool onlyThrows(const Function *F) {
  if (!F || !F->isDeclaration())
    return false;
  StringRef N = F->getName();
  return N == "__cxa_throw" || N == "__cxa_rethrow" || N == "_Unwind_Resume" ||
         N == "__cxa_bad_cast" || N == "__cxa_bad_typeid" ||
         N == "__cxa_throw_bad_array_new_length" ||
         (N.startswith("_ZSt") && N.contains("__throw_")); // std::__throw_*
}

static bool endsWithoutProfile(const CallBase *CB);

// May the call leave by exit or longjmp, abandoning the caller's frame?
// (Throwing is not asked about here.)
static bool mayExitOrJump(const CallBase *CB) {
  const Function *F = CB->getCalledFunction();
  if (RelaxPointerCalls && CB->isIndirectCall())
    return false;
  if (F && ReturnsOrThrows.count(F))
    return false;
  if (CB->doesNotReturn())
    return !onlyThrows(F) && !endsWithoutProfile(CB);
  if (F && LibReturning.count(F) && !CB->getFunction()->hasFnAttribute("no-builtins"))
    return false;
  if (CB->hasFnAttr(Attribute::WillReturn))
    return false;
  if (F && (F->hasFnAttribute(Attribute::WillReturn) ||
            (F->onlyReadsMemory() && F->mustProgress())))
    return false;
  return true;
}

// Can an exception pass this invoke's landing pad without entering it?
// The unwinder skips a pad with no cleanup when no clause takes the
// exception: only a catch-all or an empty filter takes every one.
static bool padMaySkip(const InvokeInst *II) {
  const auto *LP = dyn_cast<LandingPadInst>(II->getUnwindDest()->getFirstNonPHI());
  if (!LP)
    return true; // funclet EH (not on Linux): assume the worst
  if (LP->isCleanup())
    return false;
  for (unsigned i = 0; i < LP->getNumClauses(); i++) {
    const Constant *C = LP->getClause(i);
    if (LP->isCatch(i) && C->isNullValue())
      return false;
    if (LP->isFilter(i) && cast<ArrayType>(C->getType())->getNumElements() == 0)
      return false;
  }
  return true;
}

// An invoke leaves the calling function other than by its two edges when
// an exception passes its landing pad by, or when the callee exits or
// longjmps.
static bool invokeMayNotReturn(const InvokeInst *II) {
  if (!II->doesNotThrow() && padMaySkip(II))
    return true;
  if (OptCallsReturn)
    return false; // the user traded exactness across exit/longjmp for speed
  return mayExitOrJump(II);
}

// Does the call possibly leave the calling function other than by
// returning to it (exit, longjmp, an exception the caller does not
// catch)?  Then its block gets a fake edge to EXIT.
static bool mayNotReturn(const CallBase *CB) {
  // A coroutine's resume and destroy functions return at llvm.coro.end
  // (CoroSplit makes it a ret there); only the ramp goes on past it.
  // coro.resume and coro.destroy (calls, after CoroEarly) run the
  // coroutine's code, which may throw or exit.
  if (const auto *II = dyn_cast<IntrinsicInst>(CB)) {
    Intrinsic::ID ID = II->getIntrinsicID();
    return ID == Intrinsic::coro_end || ID == Intrinsic::coro_resume ||
           ID == Intrinsic::coro_destroy;
  }
  if (CB->isInlineAsm())
    return false;
  if (const auto *II = dyn_cast<InvokeInst>(CB))
    return invokeMayNotReturn(II);
  if (OptCallsReturn && CB->doesNotThrow())
    return false; // the user traded exactness across exit/longjmp for speed
  if (CB->doesNotReturn())
    return false; // followed by unreachable: that is its exit edge
  const Function *F = CB->getCalledFunction();
  if (F && Returning.count(F))
    return false;
  if (!CB->doesNotThrow())
    return true; // willreturn allows unwinding
  return mayExitOrJump(CB);
}

// Noreturn calls that end the process without atexit handlers, so
// without a profile to get wrong.
static bool endsWithoutProfile(const CallBase *CB) {
  if (auto *II = dyn_cast<IntrinsicInst>(CB))
    return II->getIntrinsicID() == Intrinsic::trap ||
           II->getIntrinsicID() == Intrinsic::ubsantrap;
  const Function *F = CB->getCalledFunction();
  if (!F || !F->isDeclaration()) // the C library's, not one of the program's
    return false;
  return xprof_ends_without_profile(F->getName().str().c_str());
}

// Given the current set, does F surely return?  Noreturn calls count
// against it but for those that end the process without a profile.
static bool functionReturns(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isa<ResumeInst>(I) || isa<CleanupReturnInst>(I) ||
          isa<CatchSwitchInst>(I))
        return false; // may unwind to the caller
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (CB->doesNotReturn()) {
        if (!endsWithoutProfile(CB))
          return false;
      } else if (!isa<InvokeInst>(CB) && mayNotReturn(CB)) {
        return false;
      } else if (auto *II = dyn_cast<InvokeInst>(CB)) {
        const Function *G = II->getCalledFunction();
        if (!G || !Returning.count(G))
          return false; // its landing pad may rethrow
      }
    }
  return true;
}

// Given the current set, does F surely leave by returning or throwing?
static bool functionReturnsOrThrows(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (CB && !isa<IntrinsicInst>(CB) && !CB->isInlineAsm() && mayExitOrJump(CB))
        return false;
    }
  return true;
}

// The C library's functions return, but for those that run code of the
// program (qsort's comparison), replace the process (exec*) or return
// twice as far as the counts go (fork: the child counts from zero, so
// parent and child together leave each frame on the stack once more than
// they entered it; the fake edge takes the difference, as GCC's does).  A
// signal handler that leaves by longjmp is not seen, here as anywhere.
static void findLibReturning(Module &M) {
  static const LibFunc Leaving[] = {
      LibFunc_qsort,  LibFunc_execl,  LibFunc_execle, LibFunc_execlp,  LibFunc_execv,
      LibFunc_execvP, LibFunc_execve, LibFunc_execvp, LibFunc_execvpe, LibFunc_fork};
  TargetLibraryInfoImpl TLII{Triple(M.getTargetTriple())};
  for (const Function &F : M) {
    LibFunc LF;
    if (!F.isDeclaration() || !TLII.getLibFunc(F, LF))
      continue;
    bool leaves = false;
    for (LibFunc L : Leaving)
      leaves |= L == LF;
    if (!leaves)
      LibReturning.insert(&F);
  }
}

// Shrink Set to the greatest subset whose every function passes Keeps
// with the set as it stands (so recursion can be in it).
static void shrinkToFixpoint(Module &M, DenseSet<const Function *> &Set,
                             bool (*Keeps)(const Function &)) {
  for (const Function &F : M)
    if (!F.isDeclaration() && F.hasExactDefinition())
      Set.insert(&F);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : M)
      if (Set.count(&F) && !Keeps(F)) {
        Set.erase(&F);
        Changed = true;
      }
  }
}

// The functions that surely return, and those that surely return or
// throw: start from every function whose body is the one that runs, drop
// those that call one outside the set until none is dropped.  Computed
// before any function changes, the same in both modes.
void xl_find_returning(Module &M, bool calls_return, bool pointer_calls_return) {
  OptCallsReturn = calls_return;
  OptPointerCallsReturn = pointer_calls_return;
  Returning.clear();
  ReturnsOrThrows.clear();
  LibReturning.clear();
  if (OptCallsReturn)
    return;
  findLibReturning(M);
  shrinkToFixpoint(M, ReturnsOrThrows, functionReturnsOrThrows);
  shrinkToFixpoint(M, Returning, functionReturns);
  RelaxedReturning.clear();
  RelaxedReturnsOrThrows.clear();
  if (!OptPointerCallsReturn)
    return;
  RelaxedView Relaxed;
  shrinkToFixpoint(M, ReturnsOrThrows, functionReturnsOrThrows);
  shrinkToFixpoint(M, Returning, functionReturns);
}

// 0: the call surely returns (or throws where the CFG has an edge for
// it); 2: it may leave its caller otherwise -- its block gets a fake edge;
// 1: it may, but only through a call through a pointer somewhere below
// it, and that call's own block has the fake edge.  If a frame at such a
// call is abandoned, so is the frame of the first call through a pointer
// below it, which is in this module (everything in between is a function
// defined here, or a C library function that calls no program code): the
// use build finds those calls' fake edges counted and says so, where
// the blocks with calls of kind 1 would have been counted one more time
// each than they left (see use.c).
extern "C" int xl_call_risk(LLVMValueRef call) {
  auto *CB = dyn_cast<CallBase>(unwrap(call));
  if (!CB || !mayNotReturn(CB))
    return 0;
  if (!OptPointerCallsReturn || CB->isIndirectCall())
    return 2;
  RelaxedView Relaxed;
  return mayNotReturn(CB) ? 2 : 1;
}

// The blocks of the module whose counts a call through a pointer that did
// not return may have made inexact: those with a call of kind 1 to a
// function from which one of the functions in Bad (where such calls
// were made) can be reached through direct calls.
extern "C" uint64_t xl_uncertain_blocks(LLVMModuleRef m, const LLVMValueRef *bad,
                                        unsigned n_bad) {
  Module &M = *unwrap(m);
  DenseSet<const Function *> Reach;
  for (unsigned i = 0; i < n_bad; i++)
    Reach.insert(cast<Function>(unwrap(bad[i])));
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : M) {
      if (F.isDeclaration() || Reach.count(&F))
        continue;
      for (const Instruction &I : instructions(F)) {
        const auto *CB = dyn_cast<CallBase>(&I);
        const Function *G = CB ? CB->getCalledFunction() : nullptr;
        if (G && Reach.count(G)) {
          Reach.insert(&F);
          Changed = true;
          break;
        }
      }
    }
  }
  uint64_t N = 0;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *CB = dyn_cast<CallBase>(&I);
        const Function *G = CB ? CB->getCalledFunction() : nullptr;
        if (G && Reach.count(G) && xl_call_risk(wrap(CB)) == 1) {
          N++;
          break;
        }
      }
  return N;
}


void xl_forget_returning() {
  Returning.clear();
  ReturnsOrThrows.clear();
  RelaxedReturning.clear();
  RelaxedReturnsOrThrows.clear();
}
