/* Threads of a statically linked program. */
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) static long work(long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += i % 3 == 0 ? i : 1;
  return s;
}

static void *run(void *arg) { return (void *)work((long)arg); }

int main(void) {
  pthread_t t[4];
  long sum = 0;
  for (long i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, run, (void *)(1000 * (i + 1)));
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(t[i], &r);
    sum += (long)r;
  }
  printf("%ld\n", sum);
  return 0;
}
