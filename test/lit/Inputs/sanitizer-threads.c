/* sanitizer-threads.c - for pipeline/sanitizers.test: four threads call
 * work 1000 times each. */
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) static int work(int i) { return i % 5 ? i : -i; }

static void *body(void *arg) {
  long s = 0;
  for (int i = 0; i < 1000; i++)
    s += work(i);
  *(long *)arg = s;
  return NULL;
}

int main(void) {
  pthread_t t[4];
  long r[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, body, &r[i]);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  printf("%ld\n", r[0] + r[1] + r[2] + r[3]);
  return 0;
}
