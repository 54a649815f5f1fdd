/* A signal handler that ends the program (exit, quick_exit), replaces it
 * (exec) or forks while the runtime is writing the profile on the same
 * thread: the program's own fsync, which the runtime's write calls with
 * its lock held, raises SIGTERM, and the handler leaves, or forks a child
 * that ends at once and returns.  Usage: exit-inside
 * exit|quick|exec|fork|none (none: no signal, a dump and a normal exit). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int xprof_dump(void);

static volatile sig_atomic_t armed;
static const char *how;

static void say(const char *s) { (void)!write(1, s, strlen(s)); }

static void on_term(int sig) {
  (void)sig;
  say("handler\n");
  if (strcmp(how, "quick") == 0)
    quick_exit(8);
  if (strcmp(how, "fork") == 0) {
    pid_t pid = fork();
    if (pid == 0) {
      say("child\n");
      _exit(3);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    say(WIFEXITED(status) && WEXITSTATUS(status) == 3 ? "child ended\n" : "child failed\n");
    return;
  }
  if (strcmp(how, "exec") == 0) {
    execl("/bin/sh", "sh", "-c", "echo replaced; exit 9", (char *)NULL);
    _exit(127);
  }
  exit(7);
}

int fsync(int fd) {
  if (armed) {
    armed = 0;
    raise(SIGTERM);
  }
  return (int)syscall(SYS_fsync, fd);
}

__attribute__((noinline)) static long work(int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += i % 7 ? i : -i;
  return s;
}

int main(int argc, char **argv) {
  how = argc > 1 ? argv[1] : "exit";
  signal(SIGTERM, on_term);
  if (work(1000) == 42)
    say("unlikely\n");
  armed = strcmp(how, "none") != 0;
  int rc = xprof_dump();
  say(armed ? "not reached\n" : rc == 0 ? "dumped\n" : "dump failed\n");
  return 0;
}
