// Resolvers in a static program (ifunc-static-pie.c: a static PIE, whose
// start-up relocates it): the C library calls them before it has set up
// thread-local storage, and a resolver that counted in a thread-local
// twin crashed the training run at its first instruction.  They count in
// the shared array: every resolver ran once (5 of 7 procedures).
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -static
// corpus: valgrind=skip
// corpus: train=2000
// corpus: run=5000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 7 procedures (5 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 7 procedures (5 ran)
// CHECK: clang: use: as plain
#include "ifunc-body.h"
