// Thread-local twins live in each thread's static TLS, which glibc takes
// from the thread's stack: a program that asks for small thread stacks
// still gets its threads (the runtime adds the twins' size to the stack
// size the program chose, and puts the attributes back as they were), and
// the threads' counts add up.  A stack the program gives itself is left
// alone.  The twin's size is that of its whole array, also where the
// procedure registered first has only the array's first counter (the
// runtime had taken the first one's size, a word, and the thread failed
// with EINVAL).  A timer's notification thread, which the C library
// starts with the program's attributes, gets the room too, and counts.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/ts
// RUN: %t/ts 2> ts.err | FileCheck --check-prefix=OUT %s
// OUT: small stack 0, attributes kept 1
// OUT: default stack 0
// OUT: timer thread ran, attributes kept 1
// OUT: own stack 22
// A stack of the program's own too small for the twins is not grown (the
// runtime cannot), but the error is explained, once.
// RUN: FileCheck --check-prefix=ERR %s < ts.err
// ERR:     xprof: pthread_create: a thread on a stack of the program's own (65536 bytes) could not start (EINVAL): the executable's thread-local counters take 524288 bytes of every thread's stack; build this program's collect objects with -fplugin-arg-xprof-no-tls-counters or -mllvm -xprof-tls-counters=false
// ERR-NOT: xprof:
// RUN: xprof_btoa ts.profile - | FileCheck %s
// CHECK:      PROC: first 0x2 1 0 0 {{[0-9]+}}
// CHECK-NEXT: 0 3
// CHECK:      PROC: big 0x1 65535 0 0 {{[0-9]+}}
// CHECK-NEXT: 0 0
// CHECK:      65534 2
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "handmade.h"

#define WORDS 65536 /* 512 KB of twin */
static uint64_t array[WORDS];
static __thread uint64_t twin[WORDS] __attribute__((tls_model("local-exec")));
static uint64_t *twin_cell;
static const struct xprof_abi_proc procs[] = {
    {"first", 0x2, 1, 1, &array[0], 0, 0, NULL, NULL, &twin_cell},
    {"big", 0x1, 0, WORDS - 1, &array[1], 0, 1, NULL, NULL, &twin_cell},
};
static struct xprof_abi_object obj = {
    XPROF_ABI_VERSION, XPROF_ABI_THREAD_COUNTERS, "/handmade/ts.o",
    1763777000, 0, 2, 0x1, NULL, 2, WORDS, procs, array, 0, {0}};
__attribute__((constructor)) static void obj_ctor(void) {
  twin_cell = twin;
  __xprof_register(&obj);
}
__attribute__((destructor)) static void obj_dtor(void) { __xprof_unregister(&obj); }

static void *run(void *arg) {
  volatile char use[16384]; /* the stack the program asked for is there */
  memset((char *)use, 1, sizeof use);
  twin[0]++;
  twin[WORDS - 1]++;
  return arg;
}

static volatile int notified;
static void on_timer(union sigval v) {
  (void)v;
  twin[0]++;
  notified = 1;
}

int main(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 65536);
  pthread_t t;
  int rc = pthread_create(&t, &attr, run, NULL);
  if (rc == 0)
    pthread_join(t, NULL);
  size_t size = 0;
  pthread_attr_getstacksize(&attr, &size);
  printf("small stack %d, attributes kept %d\n", rc, size == 65536);
  rc = pthread_create(&t, NULL, run, NULL);
  if (rc == 0)
    pthread_join(t, NULL);
  printf("default stack %d\n", rc);
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD;
  ev.sigev_notify_function = on_timer;
  ev.sigev_notify_attributes = &attr;
  timer_t id;
  if (timer_create(CLOCK_MONOTONIC, &ev, &id) != 0)
    return 1;
  struct itimerspec once = {{0, 0}, {0, 1000000}};
  timer_settime(id, 0, &once, NULL);
  for (int i = 0; i < 2000 && !notified; i++)
    usleep(1000);
  timer_delete(id);
  pthread_attr_getstacksize(&attr, &size);
  printf("timer thread %s, attributes kept %d\n", notified ? "ran" : "never ran", size == 65536);
  static char stack[2][65536] __attribute__((aligned(64)));
  for (int k = 0; k < 2; k++) {
    pthread_attr_t own;
    pthread_attr_init(&own);
    pthread_attr_setstack(&own, stack[k], sizeof stack[k]);
    rc = pthread_create(&t, &own, run, NULL);
    if (rc == 0)
      pthread_join(t, NULL);
    pthread_attr_destroy(&own);
  }
  printf("own stack %d\n", rc);
  return 0;
}
