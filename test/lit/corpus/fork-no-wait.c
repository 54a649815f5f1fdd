// A child that the parent never waits for: the parent only reads the
// child's answer from a pipe and exits, while the child may still be
// writing its profile.  Concurrent writers lock the profile.
// RUN: %corpus %s | FileCheck %s
// corpus: train=3
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) static int work(int k) {
  int s = 0;
  for (int i = 0; i < k * 500; i++)
    s ^= i * 2654435761u >> 7;
  return s & 0xffff;
}

__attribute__((noinline)) static int answer(int fd) {
  int v = 0;
  if (read(fd, &v, sizeof v) != sizeof v)
    return -1;
  return v;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  long sum = 0;
  for (int k = 1; k <= n; k++) {
    int fds[2];
    if (pipe(fds) != 0)
      return 1;
    if (fork() == 0) {
      close(fds[0]);
      int v = work(k);
      write(fds[1], &v, sizeof v);
      return 0; /* exits, and writes its profile, after the parent may have */
    }
    close(fds[1]);
    sum += answer(fds[0]);
    close(fds[0]);
  }
  printf("sum %ld\n", sum);
  return 0;
}
