/* pending-host.c - pending-dlclose.test's program: calls a library,
 * asks for a write that fails (SUN_PROFDATA names a file), unloads the
 * library, which cannot write either, then removes the file and exits:
 * the write at exit carries what the library counted, kept since. */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

int xprof_dump(void);

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  int (*fn)(int) = (int (*)(int))dlsym(h, "lib_fn");
  int s = fn(5) + fn(3);
  printf("dump: %d\n", xprof_dump());
  dlclose(h);
  /* Memory where the library's data was is reused. */
  void *again = dlopen("libm.so.6", RTLD_NOW);
  printf("unlink: %d\n", unlink(argv[2]));
  return s == 12345 && again == NULL;
}
