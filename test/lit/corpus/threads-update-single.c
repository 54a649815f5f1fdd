// Threads with -xprofile_update=single: plain adds in shared counters,
// for single-threaded training runs (counts may be off, programs not).
// RUN: %corpus %s | FileCheck %s
// corpus: xprof-flags=-xprofile_update=single
// corpus: link=-pthread
// corpus: train=4
// corpus: run=8
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include "threads-body.h"
