// -flto=thin across two files (clang).
// RUN: %corpus %s | FileCheck %s
// corpus: shape=separate
// corpus: compilers=clang
// corpus: flags=-O2 -flto=thin
// corpus: sources=two-files-helper.c
// corpus: train=500
// corpus: run=800
// CHECK: clang: training: 1 run as plain; profile: 1 program, 2 object files, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include "two-files-main.h"
