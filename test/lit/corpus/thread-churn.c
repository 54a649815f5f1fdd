// Hundreds of short threads, each running code of the executable and of
// an instrumented shared library (per-thread copies made and added up at
// every thread's end), several at a time.
// RUN: %corpus %s | FileCheck %s
// corpus: shape=shared
// corpus: lib=thread-lib.c
// corpus: link=-pthread
// corpus: train=300
// CHECK: gcc: training: 1 run as plain; profile: 2 programs, 2 object files, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 2 programs, 2 object files, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

long lib_mix(long x);

static void *job(void *arg) {
  long x = (long)arg;
  for (int i = 0; i < 50; i++)
    x = lib_mix(x);
  return (void *)(x & 0xffff);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long sum = 0;
  for (int i = 0; i < n; i += 4) {
    pthread_t t[4];
    for (int j = 0; j < 4; j++)
      pthread_create(&t[j], NULL, job, (void *)(long)(i + j));
    for (int j = 0; j < 4; j++) {
      void *r;
      pthread_join(t[j], &r);
      sum += (long)r;
    }
  }
  printf("sum %ld\n", sum);
  return 0;
}
