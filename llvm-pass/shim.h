// shim.h - what the C++ sources of the LLVM pass share (the C core sees
// xprof-llvm.h only).
#ifndef XPROF_LLVM_SHIM_H
#define XPROF_LLVM_SHIM_H

#include "llvm/IR/Module.h"

// Find the functions of M that surely return (returning.cpp), with the
// options that trade exactness for fewer counters; xl_call_risk answers
// from them until xl_forget_returning.
void xl_find_returning(llvm::Module &M, bool calls_return, bool pointer_calls_return);
void xl_forget_returning();

#endif
