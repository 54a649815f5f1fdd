// Sections per function and data item, unused ones collected by the
// lld linker (--gc-sections): the runtime's tables and registration must
// survive, the dropped functions must not break the profile.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -ffunction-sections -fdata-sections
// corpus: link=-fuse-ld=lld -Wl,--gc-sections
// corpus: train=6
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (2 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (2 ran)
// CHECK: clang: use: as plain
#include "gc-body.h"
