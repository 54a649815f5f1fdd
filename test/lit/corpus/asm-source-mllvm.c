// The LLVM plugin's own option for atomic counters, -mllvm
// -xprof-update=atomic, in a build with an assembler source: the driver
// gives it to the compiler's jobs only, not to the integrated assembler.
// RUN: %corpus %s | FileCheck %s
// corpus: compilers=clang
// corpus: sources=asm-add.S
// corpus: xprof-flags=-mllvm -xprof-update=atomic
// corpus: train=300
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: clang: use: as plain
#include "asm-add-body.h"
