// Counts gathered before exec are written before the image is replaced,
// for each member of the exec family.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/exec
// RUN: %t/exec execv && %t/exec execvp && %t/exec execl && %t/exec execlp && %t/exec execve && %t/exec execle
// RUN: %t/exec execvpe && %t/exec fexecve && %t/exec execveat
// RUN: xprof_btoa exec.profile - | FileCheck %s
// CHECK:      PROC: main 0xe0 2 0 0 0
// CHECK-NEXT: 0 9
// CHECK-NEXT: 1 27
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "handmade.h"

static uint64_t counters[2];
static const struct xprof_abi_proc procs[] = {
    {"main", 0xe0, 0, 2, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/exec.o", 0xe0, 1, NULL, procs, counters)

extern char **environ;

int main(int argc, char **argv) {
  XP_INC(counters, 0);
  for (int i = 0; i < 3; i++)
    XP_INC(counters, 1);
  char *args[] = {"true", NULL};
  const char *how = argc > 1 ? argv[1] : "execv";
  if (!strcmp(how, "execv"))
    execv("/bin/true", args);
  else if (!strcmp(how, "execvp"))
    execvp("true", args);
  else if (!strcmp(how, "execl"))
    execl("/bin/true", "true", (char *)NULL);
  else if (!strcmp(how, "execlp"))
    execlp("true", "true", (char *)NULL);
  else if (!strcmp(how, "execve"))
    execve("/bin/true", args, environ);
  else if (!strcmp(how, "execle"))
    execle("/bin/true", "true", (char *)NULL, environ);
  else if (!strcmp(how, "execvpe"))
    execvpe("true", args, environ);
  else if (!strcmp(how, "fexecve"))
    fexecve(open("/bin/true", O_RDONLY | O_CLOEXEC), args, environ);
  else if (!strcmp(how, "execveat"))
    execveat(AT_FDCWD, "/bin/true", args, environ, 0);
  return 1; /* exec failed */
}
