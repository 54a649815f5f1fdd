// A static executable (-static): no dynamic linker, dlsym or exported
// symbols; the runtime links the C library's pthread_create by its name;
// memcheck does not follow a static C library.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -static
// corpus: link=-pthread
// corpus: valgrind=skip
// corpus: train=40
// corpus: run=90
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: clang: use: as plain
#include "build-body.h"
