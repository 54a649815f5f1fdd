// Threads that end with pthread_exit in the middle of a function, others
// detached and still running when main returns.
// RUN: %corpus %s | FileCheck %s
// corpus: link=-pthread
// corpus: train=3
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: clang: use: as plain
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile long spins;

__attribute__((noinline)) static void finish_early(long k) {
  if (k % 2)
    pthread_exit((void *)(k * 10));
}

static void *quitter(void *arg) {
  long k = (long)arg;
  finish_early(k);
  return (void *)k;
}

static void *lingerer(void *arg) {
  (void)arg;
  for (;;) {
    spins++;
    usleep(1000);
  }
  return NULL;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  long sum = 0;
  for (long k = 0; k < n; k++) {
    pthread_t t;
    void *r;
    pthread_create(&t, NULL, quitter, (void *)k);
    pthread_join(t, &r);
    sum += (long)r;
  }
  pthread_t bg;
  pthread_create(&bg, NULL, lingerer, NULL);
  pthread_detach(bg);
  while (spins < 3)
    usleep(1000);
  printf("sum %ld\n", sum);
  return 0;
}
