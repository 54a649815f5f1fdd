// Timers and notifications in a static executable (Inputs/timers-body.h):
// a static link has no dynamic symbols to find the C library's functions
// in, so the runtime's sigset is its own and timer_create and mq_notify
// are libc.a's under their other names (the drivers link ___timer_create
// and __mq_notify).  Every function runs, the notifications' too.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -static -pthread
// corpus: valgrind=skip
// corpus: train=3
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 11 procedures (11 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 11 procedures (11 ran)
// CHECK: clang: use: as plain
#include "timers-body.h"
