/* host.c - a program built without xprof that loads instrumented
 * libraries: with dlopen(RTLD_LOCAL), each binds a runtime of its own;
 * with dlmopen, each in a namespace of its own.  "fork": a child calls
 * them too, and is a run of its own. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int (*load(const char *dir, const char *lib, const char *fn, int newlm))(int) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, lib);
  void *h = newlm ? dlmopen(LM_ID_NEWLM, path, RTLD_NOW) : dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return NULL;
  }
  return (int (*)(int))dlsym(h, fn);
}

int main(int argc, char **argv) {
  int newlm = argc > 2 && strcmp(argv[2], "dlmopen") == 0;
  int (*a)(int) = load(argv[1], "liba.so", "fa", newlm);
  int (*b)(int) = load(argv[1], "libb.so", "fb", newlm);
  if (!a || !b)
    return 1;
  printf("%d %d\n", a(1000), b(10));
  if (argc > 3 && strcmp(argv[3], "fork") == 0) {
    pid_t pid = fork();
    if (pid == 0) {
      a(100);
      return 0;
    }
    int st;
    waitpid(pid, &st, 0);
  }
  return 0;
}
