// vfork, then exec of the program itself in the child: the runtime writes
// what was counted before the exec (from the child, which shares the
// parent's memory), and the new image counts on its own.
// RUN: %corpus %s | FileCheck %s
// corpus: train=3
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int as_child(int k) { return k * k % 50; }

__attribute__((noinline)) static int spawn(const char *self, int k) {
  char arg[16];
  snprintf(arg, sizeof arg, "%d", k);
  pid_t p = vfork();
  if (p == 0) {
    execl(self, self, "child", arg, (char *)NULL);
    _exit(127);
  }
  int status;
  waitpid(p, &status, 0);
  return WEXITSTATUS(status);
}

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "child") == 0)
    return as_child(atoi(argv[2]));
  int n = argc > 1 ? atoi(argv[1]) : 2, sum = 0;
  for (int k = 1; k <= n; k++)
    sum += spawn(argv[0], k);
  printf("children said %d\n", sum);
  return 0;
}
