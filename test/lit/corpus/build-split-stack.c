// Split stacks (-fsplit-stack): the runtime is called from code whose
// stack grows in segments.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -fsplit-stack
// corpus: train=40
// corpus: run=90
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: clang: use: as plain
#include "build-body.h"
