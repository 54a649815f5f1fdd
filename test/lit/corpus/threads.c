// Threads counting the same code: per-thread counters add up exactly.
// RUN: %corpus %s | FileCheck %s
// corpus: link=-pthread
// corpus: train=4
// corpus: run=8
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: gcc: samples: runs as plain; use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
// CHECK: clang: use of gcc's training: as plain; 2 functions placed by source line
#include "threads-body.h"
