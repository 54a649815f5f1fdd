/* A program that counts to argv[1] and exits, for multi-process tests. */
#include <stdlib.h>
#include <unistd.h>

#include "handmade.h"

static uint64_t counters[2];
static const struct xprof_abi_proc procs[] = {
    {"main", 0xc0de, 0, 2, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/count.o", 0xc0de, 1, NULL, procs, counters)

int main(int argc, char **argv) {
  XP_INC(counters, 0);
  long n = argc > 1 ? atol(argv[1]) : 1;
  for (long i = 0; i < n; i++)
    XP_INC(counters, 1);
  if (argc > 2) /* stay alive, e.g. to be killed */
    sleep((unsigned)atoi(argv[2]));
  return 0;
}
