/* Loads LIB 300 times, each time runs lib_fn in a new thread and in the
 * main thread and unloads it; every third time FILLER is loaded first,
 * and kept until the next round, so that LIB moves. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int (*fn)(int);
static int arg, result;

static void *run(void *p) {
  (void)p;
  result = fn(arg);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  long total = 0;
  void *filler = NULL;
  for (int round = 0; round < 300; round++) {
    if (round % 3 == 0) {
      if (filler)
        dlclose(filler);
      filler = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    }
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h || !filler) {
      fprintf(stderr, "%s\n", dlerror());
      return 1;
    }
    fn = (int (*)(int))dlsym(h, "lib_fn");
    arg = round;
    pthread_t t;
    if (pthread_create(&t, NULL, run, NULL) != 0 || pthread_join(t, NULL) != 0)
      return 1;
    total += result + fn(arg + 1);
    dlclose(h);
  }
  printf("total %ld\n", total);
  return 0;
}
