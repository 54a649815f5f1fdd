/* Loads N copies of one library (DIR/lib0.so ... lib{N-1}.so), each a
 * module of its own, and calls each copy's f once. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  int n = atoi(argv[2]);
  long sum = 0;
  for (int i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/lib%d.so", argv[1], i);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      printf("%s\n", dlerror());
      return 1;
    }
    int (*f)(int) = (int (*)(int))dlsym(h, "f");
    sum += f(i);
  }
  printf("%d libraries, sum %ld\n", n, sum);
  return 0;
}
