// Resolvers in a static PIE, which relocates itself at start-up: as in
// ifunc-static.c, before thread-local storage exists.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -static-pie
// corpus: valgrind=skip
// corpus: train=2000
// corpus: run=5000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 7 procedures (5 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 7 procedures (5 ran)
// CHECK: clang: use: as plain
#include "ifunc-body.h"
