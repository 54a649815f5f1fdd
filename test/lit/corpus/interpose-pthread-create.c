// The program wraps pthread_create itself (to count threads) and calls
// the C library's through dlsym(RTLD_NEXT): the runtime's wrapper is not
// called for these threads.  They must still run, and what they count
// in executable code is lost without atomic counters (the runtime says
// so); with -xprofile_update=atomic nothing is.
// RUN: %corpus %s | FileCheck %s
// corpus: link=-ldl -pthread
// corpus: xprof-flags=-xprofile_update=atomic
// corpus: train=4
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (2 ran)
// CHECK: clang: use: as plain
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int created;

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
                   void *arg) {
  int (*next)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) =
      (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(
          RTLD_NEXT, "pthread_create");
  __atomic_fetch_add(&created, 1, __ATOMIC_RELAXED);
  return next(t, attr, fn, arg);
}

static void *work(void *arg) {
  long n = (long)arg, s = 0;
  for (long i = 0; i < n * 1000; i++)
    s += i % 7;
  return (void *)s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  pthread_t t[16];
  long total = 0;
  for (int i = 0; i < n; i++)
    pthread_create(&t[i], NULL, work, (void *)(long)(i + 1));
  for (int i = 0; i < n; i++) {
    void *r;
    pthread_join(t[i], &r);
    total += (long)r;
  }
  printf("%d threads made, total %ld\n", created, total);
  return 0;
}
