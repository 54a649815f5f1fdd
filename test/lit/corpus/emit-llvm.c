// Each file compiled to bitcode (-c -emit-llvm), the bitcode linked
// (clang): instrumented once, not again at the link.
// RUN: %corpus %s | FileCheck %s
// corpus: compilers=clang
// corpus: shape=emit-llvm
// corpus: flags=-O2
// corpus: sources=two-files-helper.c
// corpus: train=500
// corpus: run=800
// CHECK: clang: training: 1 run as plain; profile: 1 program, 2 object files, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include "two-files-main.h"
