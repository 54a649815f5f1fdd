// Each file preprocessed with -E, the .i files compiled.
// RUN: %corpus %s | FileCheck %s
// corpus: shape=cpp
// corpus: flags=-O2
// corpus: sources=two-files-helper.c
// corpus: train=500
// corpus: run=800
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 2 object files, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 2 object files, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include "two-files-main.h"
