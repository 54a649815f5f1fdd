// A plugin library dlopen'ed, used and dlclose'd three times: each close
// writes its counts, each open registers again (at the same or another
// address).
// RUN: %corpus %s | FileCheck %s
// corpus: shape=dlopen
// corpus: lib=plugin-lib.c
// corpus: link=-ldl
// corpus: train=27
// CHECK: gcc: training: 1 run as plain; profile: 2 programs, 2 object files, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 2 programs, 2 object files, 4 procedures (4 ran)
// CHECK: clang: use: as plain
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  int x = argc > 2 ? atoi(argv[2]) : 27, total = 0;
  for (int round = 0; round < 3; round++) {
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      fprintf(stderr, "%s\n", dlerror());
      return 1;
    }
    int (*run)(int) = (int (*)(int))dlsym(h, "plugin_run");
    int (*calls)(void) = (int (*)(void))dlsym(h, "plugin_calls");
    total += run(x + round) + calls();
    dlclose(h);
  }
  printf("total %d\n", total);
  return 0;
}
