// An executable of position-independent code (-fpic): counters found at
// function entry through a thread-local word, not thread-local twins.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -fpic
// corpus: train=40
// corpus: run=90
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: clang: use: as plain
#include "build-body.h"
