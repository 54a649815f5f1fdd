// Timers and notifications (Inputs/timers-body.h): the functions that a
// timer and a message queue run in threads the C library starts count
// as any thread's (the runtime stands in front of timer_create and
// mq_notify); before, their counts in the executable's thread-local
// twins were lost.  Every function runs, the notifications' too.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -pthread
// glibc's mq_notify gives the kernel a sigevent whose padding it never
// sets, which memcheck reports or not by what the stack held before: a
// frame more or less decides.
// corpus: valgrind=skip
// corpus: train=3
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 11 procedures (11 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 11 procedures (11 ran)
// CHECK: clang: use: as plain
#include "timers-body.h"
