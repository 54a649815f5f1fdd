/* Closes every descriptor above 2, as daemons do, opens two files (which
 * take the numbers of the runtime's signal pipe, when it has one), sends
 * itself SIGTERM and, if still alive a second later, exits with status 3
 * (for runtime/file-limits.test). */
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "handmade.h"

static uint64_t counters[2];
static const struct xprof_abi_proc procs[] = {
    {"main", 0x3, 0, 2, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/close-all.o", 0x3, 1, NULL, procs, counters)

int main(void) {
  XP_INC(counters, 0);
  for (int fd = 3; fd < 1024; fd++)
    close(fd);
  int a = open("victim1.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int b = open("victim2.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  kill(getpid(), SIGTERM);
  struct timespec pause = {1, 0};
  nanosleep(&pause, NULL);
  XP_INC(counters, 1);
  close(a);
  close(b);
  return 3;
}
