/* The program of the build-* tests: a thread, indirect calls and memset of
 * varying length. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static int up(int x) { return x + 1; }
__attribute__((noinline)) static int down(int x) { return x - 1; }
static int (*const moves[])(int) = {up, down};

static void *thread_body(void *arg) {
  long n = (long)arg, s = 0;
  char buf[128] = {0};
  for (long i = 0; i < n; i++) {
    memset(buf, (int)i, (size_t)(i % 100));
    s = moves[i % 3 == 0](s) + buf[0] % 2;
  }
  return (void *)s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10;
  pthread_t t;
  void *r;
  pthread_create(&t, NULL, thread_body, (void *)n);
  pthread_join(t, &r);
  printf("%ld %ld\n", (long)r, (long)thread_body((void *)(n / 2)));
  return 0;
}
