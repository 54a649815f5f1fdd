// posix_spawn and system() start the program again: the C library's own
// fork and exec (which the runtime does not wrap), the parent counting on.
// RUN: %corpus %s | FileCheck %s
// corpus: train=2
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

__attribute__((noinline)) static int leaf(int k) { return k * 5 % 9; }

__attribute__((noinline)) static int spawn(char *self, int k) {
  char arg[16];
  snprintf(arg, sizeof arg, "%d", k);
  char *args[] = {self, "leaf", arg, NULL};
  pid_t pid;
  if (posix_spawn(&pid, self, NULL, NULL, args, environ) != 0)
    return -1;
  int status;
  waitpid(pid, &status, 0);
  return WEXITSTATUS(status);
}

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "leaf") == 0)
    return leaf(atoi(argv[2]));
  int n = argc > 1 ? atoi(argv[1]) : 2, sum = 0;
  for (int k = 1; k <= n; k++)
    sum += spawn(argv[0], k);
  int rc = system("exit 3");
  printf("sum %d, shell %d\n", sum, WEXITSTATUS(rc));
  return 0;
}
