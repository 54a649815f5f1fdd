// -Og -g3 (debug builds with macros in the debug information).
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-Og -g3
// corpus: train=40
// corpus: run=90
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: clang: use: as plain
#include "build-body.h"
