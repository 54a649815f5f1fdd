// siglongjmp out of a signal handler that the program raises itself,
// the handler making indirect calls: code that the handler interrupts
// does not come back.
// RUN: %corpus %s | FileCheck %s
// corpus: train=200
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (4 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 4 procedures (3 ran)
// CHECK: clang: use: as plain
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static sigjmp_buf env;
static volatile sig_atomic_t handled;

__attribute__((noinline)) static int even(int x) { return x / 2; }
__attribute__((noinline)) static int odd(int x) { return 3 * x + 1; }
static int (*volatile step[2])(int) = {even, odd};

static void on_usr1(int sig) {
  (void)sig;
  handled = step[handled & 1](handled + 7) & 0xff;
  siglongjmp(env, 1);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  signal(SIGUSR1, on_usr1);
  volatile int caught = 0, i = 0;
  sigsetjmp(env, 1);
  while (i < n) {
    i++;
    if (i % 3 == 0) {
      raise(SIGUSR1);
      abort(); /* never: the handler jumps back */
    }
    caught += i % 2;
  }
  printf("caught %d, last %d\n", caught, (int)handled);
  return 0;
}
