// fork and exit interposed by the program (forwarding with dlsym): the
// runtime's fork handlers and exit handler still run through them.
// RUN: %corpus %s | FileCheck %s
// corpus: link=-ldl
// corpus: train=3
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (3 ran)
// CHECK: clang: use: as plain
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int forks;

pid_t fork(void) {
  pid_t (*next)(void) = (pid_t(*)(void))dlsym(RTLD_NEXT, "fork");
  forks++;
  return next();
}

void exit(int status) {
  void (*next)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
  fflush(stdout);
  next(status);
  __builtin_unreachable();
}

__attribute__((noinline)) static int child_work(int k) {
  int s = 0;
  for (int i = 0; i < k * 100; i++)
    s += i & 3;
  return s & 0x7f;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1;
  int sum = 0;
  for (int k = 1; k <= n; k++) {
    pid_t p = fork();
    if (p == 0)
      exit(child_work(k));
    int status;
    waitpid(p, &status, 0);
    sum += WEXITSTATUS(status);
  }
  printf("%d forks, children said %d\n", forks, sum);
  exit(0);
}
