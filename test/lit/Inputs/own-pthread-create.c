/* own-pthread-create.c - for pipeline/own-pthread-create.test: the
 * program counts the threads it starts in a pthread_create of its own,
 * which calls the C library's; two threads call work 500 times each. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static int started;

int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg) {
  int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) =
      (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(RTLD_NEXT, "pthread_create");
  started++;
  return real(t, a, f, arg);
}

__attribute__((noinline)) static int work(int i) { return i % 3 ? i : 2 * i; }

static void *body(void *arg) {
  long s = 0;
  for (int i = 0; i < 500; i++)
    s += work(i);
  *(long *)arg = s;
  return NULL;
}

int main(void) {
  pthread_t t[2];
  long r[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, body, &r[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  printf("%d threads, %ld\n", started, r[0] + r[1]);
  return 0;
}
