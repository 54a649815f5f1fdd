/* C11 threads (thrd_create), which the C library starts with its own
 * pthread_create: a result through thrd_exit from a nested call, a
 * negative one, and a thread-specific destructor that runs counted code
 * as each thread ends. */
#include <stdio.h>
#include <threads.h>

static tss_t key;
static long done;

__attribute__((noinline)) static long work(long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += i % 3 == 0 ? i : 1;
  return s;
}

__attribute__((noinline)) static void finish(void *p) {
  __atomic_add_fetch(&done, (long)p, __ATOMIC_RELAXED);
}

__attribute__((noinline)) static void leave(int result) { thrd_exit(result); }

static int run(void *arg) {
  long n = (long)arg;
  tss_set(key, (void *)n);
  long s = work(n);
  if (n == 2000)
    leave(-7);
  return (int)(s % 1000);
}

int main(void) {
  thrd_t t[4];
  int sum = 0;
  if (tss_create(&key, finish) != thrd_success)
    return 1;
  for (long i = 0; i < 4; i++)
    if (thrd_create(&t[i], run, (void *)(1000 * (i + 1))) != thrd_success)
      return 2;
  for (int i = 0; i < 4; i++) {
    int r;
    thrd_join(t[i], &r);
    sum += r;
  }
  printf("%d %ld\n", sum, done);
  return 0;
}
