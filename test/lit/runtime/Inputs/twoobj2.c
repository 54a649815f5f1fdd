/* Object two.o, unchanged between builds. */
#include "handmade.h"

static uint64_t counters[1];
static const struct xprof_abi_proc procs[] = {
    {"g", 0x3, 0, 1, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj2, "/handmade/two.o", 0x3, 1, NULL, procs, counters)

void g(void) { XP_INC(counters, 0); }
