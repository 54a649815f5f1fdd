// Threads, with -fprofile-update=atomic given by the user as for GCC's
// and clang's own PGO: xprof counts atomically too.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -fprofile-update=atomic
// corpus: link=-pthread
// corpus: train=4
// corpus: run=8
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include "threads-body.h"
