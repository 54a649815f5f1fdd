// Much static TLS of the program's own beside the counters' thread-local
// twins, threads with a stack size of the program's choosing, and a
// thread started on a stack the program allocated itself.
// RUN: %corpus %s | FileCheck %s
// corpus: link=-pthread
// corpus: train=3
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static __thread int table[4096];

__attribute__((noinline)) static int fill(int k) {
  int s = 0;
  for (int i = 0; i < 4096; i++) {
    table[i] = i * k;
    s += table[i] % 3;
  }
  return s;
}

static void *job(void *arg) { return (void *)(long)fill((int)(long)arg); }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  long sum = 0;
  pthread_attr_t small;
  pthread_attr_init(&small);
  pthread_attr_setstacksize(&small, 64 * 1024);
  for (int k = 1; k <= n; k++) {
    pthread_t t;
    void *r;
    if (pthread_create(&t, &small, job, (void *)(long)k) != 0)
      return 1;
    pthread_join(t, &r);
    sum += (long)r;
  }
  size_t size = 1 << 20;
  void *stack = malloc(size);
  pthread_attr_t own;
  pthread_attr_init(&own);
  pthread_attr_setstack(&own, stack, size);
  pthread_t t;
  void *r;
  if (pthread_create(&t, &own, job, (void *)7L) != 0)
    return 1;
  pthread_join(t, &r);
  sum += (long)r;
  free(stack);
  printf("sum %ld\n", sum + fill(1));
  return 0;
}
