/* An instrumented shared library for the dlopen test. */
#include "handmade.h"

static uint64_t counters[1];
static const struct xprof_abi_proc procs[] = {
    {"plugin_fn", 0x91, 0, 1, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/plugin.o", 0x91, 1, NULL, procs, counters)

int plugin_fn(int x) {
  XP_INC(counters, 0);
  return x + 1;
}
