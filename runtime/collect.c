/*
 * collect.c - the runtime preloaded into a program built without xprof
 * (xprof_collect(1), LD_PRELOAD): PGO from time samples of the program
 * as it is, with no instrumented build.
 *
 * The runtime starts at the first object that registers; here that is
 * an object without procedures (XPROF_ABI_SAMPLER_ONLY), registered from
 * a constructor.  From then on it is the runtime of an instrumented
 * program: SUN_PROFDATA* settings, time samples over every text segment
 * (SUN_PROFDATA_SAMPLE, which xprof_collect sets), a write at exit into
 * PROGRAM.profile, fork and exec followed.  An instrumented program has
 * a runtime of its own, which exports the ABI's entry points (and, being
 * the executable, is found first): then this copy stays out of the way,
 * and the program's samples (the variable is set all the same) go with
 * its counts.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

#include "rt_internal.h"

static struct xprof_abi_object sampler = {
    .abi_version = XPROF_ABI_VERSION,
    .flags = XPROF_ABI_SAMPLER_ONLY,
    .path = "[xprof_collect]",
};

/* Whether the entry point the program sees is in another object than
 * this library: the program's own runtime. */
static int runtime_elsewhere(void) {
  void *first = dlsym(RTLD_DEFAULT, XPROF_ABI_STR(XPROF_REGISTER));
  Dl_info there, here;
  return first && dladdr(first, &there) && dladdr(&sampler, &here) &&
         there.dli_fbase != here.dli_fbase;
}

__attribute__((constructor)) static void start(void) {
  if (!runtime_elsewhere())
    XPROF_REGISTER(&sampler);
}
