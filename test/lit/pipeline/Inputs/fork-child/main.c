/* A parent that runs in_parent, forks a child that runs in_child and
 * exits (first: the parent waits), then exits itself; never_a and
 * never_b never run.  -DREBUILT adds never_c: another build. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int never_a(int x) { return x > 3 ? x * 7 : x - 1; }
__attribute__((noinline)) int never_b(int x) { return x & 1 ? x / 3 : x + 5; }
#ifdef REBUILT
__attribute__((noinline)) int never_c(int x) { return x > 9 ? x * 5 : x - 2; }
#endif
__attribute__((noinline)) int in_parent(int x) { return x % 3 ? x + 1 : x - 1; }
__attribute__((noinline)) int in_child(int x) { return x % 2 ? x * 2 : x + 3; }

int main(int argc, char **argv) {
  (void)argv;
  volatile int s = 0;
  for (int i = 0; i < 5; i++)
    s += in_parent(i);
  pid_t pid = fork();
  if (pid == 0) {
    for (int i = 0; i < 7; i++)
      s += in_child(i);
    exit(s > 1000);
  }
  int status;
  waitpid(pid, &status, 0);
  if (argc > 5) {
    s += never_a(argc) + never_b(argc);
#ifdef REBUILT
    s += never_c(argc);
#endif
  }
  printf("%d\n", s);
  return 0;
}
