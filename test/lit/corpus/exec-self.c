// The program replaces itself with execv: the profile is written before
// the exec, and the new image writes its own at exit.
// RUN: %corpus %s | FileCheck %s
// corpus: train=3
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) static int before(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}

__attribute__((noinline)) static int after(int n) { return n * 7 % 11; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  if (n > 0) {
    char next[16];
    snprintf(next, sizeof next, "%d", n - 1);
    printf("image %d: %d\n", n, before(n * 10));
    fflush(stdout);
    char *args[] = {argv[0], next, NULL};
    execv(argv[0], args);
    return 1;
  }
  printf("last image: %d\n", after(5));
  return 0;
}
