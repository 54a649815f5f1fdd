// Dependency files (-MD -MP) written beside the objects; -M, -MM,
// -fsyntax-only and -### of the same source work too.
// RUN: %corpus %s | FileCheck %s
// corpus: shape=separate
// corpus: flags=-O2 -MD -MP
// corpus: sources=two-files-helper.c
// corpus: also=-M {src}
// corpus: also=-MM {src}
// corpus: also=-fsyntax-only {src}
// corpus: also=-### -c {src}
// corpus: train=500
// corpus: run=800
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 2 object files, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 2 object files, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include "two-files-main.h"
