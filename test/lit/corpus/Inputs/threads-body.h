/* The program of the threads* tests: threads counting the same code. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long collatz(long x) {
  long steps = 0;
  while (x != 1) {
    x = x % 2 ? 3 * x + 1 : x / 2;
    steps++;
  }
  return steps;
}

static void *worker(void *arg) {
  long first = (long)arg, s = 0;
  for (long x = first; x < first + 2000; x++)
    s += collatz(x);
  return (void *)s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  pthread_t t[16];
  for (int i = 0; i < n; i++)
    pthread_create(&t[i], NULL, worker, (void *)(long)(1 + i * 2000));
  long total = 0;
  for (int i = 0; i < n; i++) {
    void *r;
    pthread_join(t[i], &r);
    total += (long)r;
  }
  printf("%ld steps\n", total);
  return 0;
}
