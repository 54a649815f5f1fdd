// A program with an assembler source (.S), built with atomic counters
// given as the driver option -xprofile_update=atomic, which must not reach
// the assembler.
// RUN: %corpus %s | FileCheck %s
// corpus: sources=asm-add.S
// corpus: xprof-flags=-xprofile_update=atomic
// corpus: link=-pthread
// corpus: train=300
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: clang: use: as plain
#include "asm-add-body.h"
