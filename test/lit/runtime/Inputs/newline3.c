/* Writes a newline on standard output, waits a little and exits with
 * status 3: for runtime/file-limits.test, which starts it with standard
 * output closed.  A newline is byte 10, SIGUSR1's number. */
#include <time.h>
#include <unistd.h>

#include "handmade.h"

static uint64_t counters[2];
static const struct xprof_abi_proc procs[] = {
    {"main", 0x3, 0, 2, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/newline3.o", 0x3, 1, NULL, procs, counters)

int main(void) {
  XP_INC(counters, 0);
  if (write(1, "\n", 1) < 0) { /* EBADF when the stream is closed */
  }
  struct timespec pause = {0, 200 * 1000 * 1000};
  nanosleep(&pause, NULL);
  XP_INC(counters, 1);
  return 3;
}
