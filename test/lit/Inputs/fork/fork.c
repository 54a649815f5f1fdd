/* Processes that fork: children that exec (or fail to and exit),
 * children that return from the forking function into its callers and
 * count on there, and vfork children, which count in the parent's memory
 * until they exec.  Parent and child profiles add up to exact counts. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

static volatile int sink;

/* Run PROG; 1 when it failed or could not be run. */
__attribute__((noinline)) static int run(const char *prog, int n) {
  char *argv[2] = {(char *)prog, NULL};
  int status = 0;
  for (int i = 0; i < n; i++)
    if (i % 3 == 0)
      sink += i;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execv(prog, argv);
    exit(1); /* no such program */
  }
  if (pid > 0)
    waitpid(pid, &status, 0);
  return status != 0;
}

/* The same with vfork: the child may only exec or _exit. */
__attribute__((noinline)) static int vrun(const char *prog, int n) {
  char *argv[2] = {(char *)prog, NULL};
  int status = 0;
  for (int i = 0; i < n; i++)
    if (i % 4 == 0)
      sink += i;
  fflush(stdout);
  pid_t pid = vfork();
  if (pid == 0) {
    execv(prog, argv);
    _exit(1);
  }
  if (pid > 0)
    waitpid(pid, &status, 0);
  return status != 0;
}

/* fork, one level down: the child returns from here too. */
__attribute__((noinline)) static pid_t split(int n) {
  for (int i = 0; i < n; i++)
    sink += i & 1;
  fflush(stdout);
  return fork();
}

/* Work done in the child, back in main's frame. */
__attribute__((noinline)) static int child_work(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    if (i % 5 != 0)
      s += i;
  return s;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 6, failed = 0, total = 0;
  for (int i = 0; i < rounds; i++)
    failed += run(i % 3 ? "/bin/true" : "/nonexistent/program", i + 2);
  for (int i = 0; i < rounds; i++)
    failed += vrun(i % 2 ? "/bin/true" : "/nonexistent/program", i + 2);
  for (int i = 0; i < rounds; i++) {
    pid_t pid = split(i + 1);
    if (pid == 0)
      exit(child_work(10 + i) & 0x7f); /* the child counts on in main */
    int status = 0;
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
      total += WEXITSTATUS(status);
  }
  printf("%d %d\n", failed, total);
  return 0;
}
