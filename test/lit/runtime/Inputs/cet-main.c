/* cet-main.c - cet.test's program: a loop, a branch and a thread, so
 * that the runtime's per-thread paths are linked in. */
#include <pthread.h>
#include <stdio.h>

int helper(int x);

static void *work(void *arg) {
  long n = (long)arg, s = 0;
  for (long k = 0; k < n; k++)
    s += k % 3 ? k : helper((int)k);
  return (void *)s;
}

int main(void) {
  pthread_t t;
  void *r;
  pthread_create(&t, NULL, work, (void *)100L);
  pthread_join(t, &r);
  printf("%ld\n", (long)r);
  return 0;
}
