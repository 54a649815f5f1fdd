/* Loads ./libq.so (built with -xprofile=collect, its own copy of the
 * runtime inside), calls into it, unloads it, then ends with quick_exit:
 * the library's at_quick_exit handler must be gone with its code. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  void *h = dlopen("./libq.so", RTLD_NOW);
  if (!h) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  int (*f)(int) = (int (*)(int))dlsym(h, "lib_f");
  long s = 0;
  for (int i = 0; i < 100; i++)
    s += f(i);
  dlclose(h);
  printf("%ld\n", s);
  fflush(stdout);
  quick_exit(argc > 1 ? 4 : 0);
}
