/* Exits with status 3, for the tests that check the status survives. */
#include "handmade.h"

static uint64_t counters[2];
static const struct xprof_abi_proc procs[] = {
    {"main", 0x3, 0, 2, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/exit3.o", 0x3, 1, NULL, procs, counters)

int main(void) {
  XP_INC(counters, 0);
  XP_INC(counters, 1);
  return 3;
}
