// llvm-compat.h - the one place that knows how the LLVM versions the
// plugin builds against differ (14 and 16 are built and tested), as
// gcc-common.h is for the GCC plugin: the C++ sources call these instead
// of testing LLVM_VERSION_MAJOR themselves.
#ifndef XPROF_LLVM_COMPAT_H
#define XPROF_LLVM_COMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Transforms/Scalar/SROA.h"
#if LLVM_VERSION_MAJOR >= 16
#include "llvm/Support/ModRef.h"
#endif

namespace xl_compat {

// A call that touches only memory the module cannot see (LLVM 16 folded
// inaccessiblememonly into memory(inaccessiblemem: readwrite)).
inline void setInaccessibleMemOnly(llvm::CallBase *CB) {
#if LLVM_VERSION_MAJOR >= 16
  CB->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
#else
  CB->addFnAttr(llvm::Attribute::InaccessibleMemOnly);
#endif
}

// SROA as the default pipeline runs it early (LLVM 16 made the CFG choice
// an argument).
inline llvm::SROAPass makeSROA() {
#if LLVM_VERSION_MAJOR >= 16
  return llvm::SROAPass(llvm::SROAOptions::ModifyCFG);
#else
  return llvm::SROAPass();
#endif
}

// A coroutine not yet split, which no inliner may take before CoroSplit
// (LLVM 15 made the string attribute an attribute of its own).
inline bool isPresplitCoroutine(const llvm::Function &F) {
#if LLVM_VERSION_MAJOR >= 15
  return F.isPresplitCoroutine();
#else
  return F.hasFnAttribute("coroutine.presplit");
#endif
}

} // namespace xl_compat

#endif
