// A static executable replaces itself with each member of the exec
// family: a static link has no dynamic symbols to find the C library's
// exec in, so the runtime calls it under libc.a's names (the drivers link
// __execve and __execvpe) or makes the system call; each image's counts
// are written before the next replaces it.
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -static
// corpus: valgrind=skip
// corpus: train=5
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: clang: use: as plain
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern char **environ;

__attribute__((noinline)) static int before(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}

__attribute__((noinline)) static int after(int n) { return n * 7 % 11; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5;
  if (n > 0) {
    char next[16];
    snprintf(next, sizeof next, "%d", n - 1);
    printf("image %d: %d\n", n, before(n * 10));
    fflush(stdout);
    char *args[] = {argv[0], next, NULL};
    switch (n) {
    case 5:
      execv(argv[0], args);
      break;
    case 4:
      execve(argv[0], args, environ);
      break;
    case 3:
      execvp(argv[0], args);
      break;
    case 2:
      execl(argv[0], argv[0], next, (char *)NULL);
      break;
    default:
      fexecve(open(argv[0], O_RDONLY | O_CLOEXEC), args, environ);
      break;
    }
    perror("exec");
    return 1;
  }
  printf("last image: %d\n", after(5));
  return 0;
}
