// An instrumented shared library's data is written when it is unloaded,
// into the program's profile, under its own PROGRAM record; loading it
// again adds up.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt -shared -fPIC %S/Inputs/plugin.c -o %t/libplugin.so
// RUN: %cc_rt %s -o %t/host -DPLUGIN='"%t/libplugin.so"'
// RUN: %t/host > out.txt
// RUN: FileCheck --check-prefix=OUT %s < out.txt
// OUT: after first dlclose: 4 calls in the profile
// RUN: xprof_btoa host.profile - | FileCheck %s
// CHECK:      OBJFILE: /handmade/plugin.o 1
// CHECK:      PROC: plugin_fn 0x91 1 0 0 0
// CHECK-NEXT: 0 7
// CHECK-NEXT: OBJFILE: /handmade/host.o
// CHECK:      PROGRAM: {{.*}}/libplugin.so 1
// CHECK-NEXT: OBJREF: /handmade/plugin.o
// CHECK-NEXT: PROGRAM: {{.*}}/host 1
// CHECK-NEXT: OBJREF: /handmade/host.o
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "handmade.h"
#include "xprof.h"

static uint64_t counters[1];
static const struct xprof_abi_proc procs[] = {
    {"main", 0x40, 0, 1, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/host.o", 0x40, 1, NULL, procs, counters)

static void call(int times) {
  void *h = dlopen(PLUGIN, RTLD_NOW);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    exit(1);
  }
  int (*fn)(int) = (int (*)(int))dlsym(h, "plugin_fn");
  for (int i = 0; i < times; i++)
    fn(i);
  dlclose(h);
}

int main(void) {
  XP_INC(counters, 0);
  call(4);
  /* The library is gone; its data must be on disk already. */
  xprof_profile *p;
  xprof_error err;
  if (xprof_read_profile_dir("host.profile", &p, &err) < 0) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  xprof_objfile *o = xprof_find_objfile(p, "/handmade/plugin.o");
  printf("after first dlclose: %llu calls in the profile\n",
         o ? (unsigned long long)o->procs[0].counters[0] : 0ull);
  xprof_profile_free(p);
  call(3);
  return 0;
}
