/*
 * exec.c - write the profile before the process image is replaced, or
 * the process ends without running its exit handlers.
 *
 * The runtime defines the exec family and daemon() itself; linked into the
 * program, its definitions take precedence over the C library's for every
 * caller in the process (the drivers export them, so that libraries
 * loaded later call them too).  Each writes the data gathered so far (and
 * zeroes it, so that a failed exec does not count twice), then calls the
 * C library's function.  They are weak: a program that defines one of
 * these names itself (an old daemon() of its own) links, and keeps it.
 *
 * The C library's function is the next definition after the runtime's
 * (rt_next_function).  A static link has no dynamic symbols: there execve
 * and execvpe are called under the names libc.a gives them (which the
 * drivers make the linker take, --undefined=__execve), the other vector
 * forms through those two, the descriptor forms through the system call,
 * and daemon() is done here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_internal.h"

static void write_before(enum rt_occasion what) {
  int saved = errno;
  if (rt_enter_unless_inside(what == RT_BEFORE_EXEC ? "exec" : "daemon")) {
    if (rt_objects)
      rt_dump_locked(NULL, what);
    rt_leave();
  }
  errno = saved;
}

/* Write, and stop the sampling timer, which exec would keep running for
 * a program that has no SIGPROF handler. */
static void before_exec(void) {
  write_before(RT_BEFORE_EXEC);
  rt_sample_stop_for_exec();
}

/* The exec failed: this process goes on, and so does its sampling. */
static int exec_failed(int rc) {
  int saved = errno;
  rt_sample_resume_after_exec();
  errno = saved;
  return rc;
}

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[], int);

/* libc.a's names, for a static link. */
extern int __execve(const char *, char *const[], char *const[]) __attribute__((weak));
extern int __execvpe(const char *, char *const[], char *const[]) __attribute__((weak));

/* The C library's execve or execvpe (by_path): the dynamic one, else
 * libc.a's; NULL, with errno ENOSYS, when neither is linked. */
static execve_fn libc_execve(int by_path) {
  static void *found[2];
  execve_fn f = (execve_fn)rt_next_function_once(
      &found[by_path], by_path ? "execvpe" : "execve",
      by_path ? (void *)execvpe : (void *)execve, by_path ? (void *)__execvpe : (void *)__execve);
  if (!f) {
    rt_message("cannot find the C library's %s (a static link: link with "
               "-Wl,--undefined=%s, as the xprof drivers do)",
               by_path ? "execvpe" : "execve", by_path ? "__execvpe" : "__execve");
    errno = ENOSYS;
  }
  return f;
}

static int call_execve(int by_path, const char *path, char *const argv[], char *const envp[]) {
  execve_fn real = libc_execve(by_path);
  return real ? real(path, argv, envp) : -1;
}

/* Linux's exec relative to a directory descriptor, by the system call
 * where the C library's function is not to be found. */
static int call_execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
                         int flags) {
  static void *found;
  execveat_fn real =
      (execveat_fn)rt_next_function_once(&found, "execveat", (void *)execveat, NULL);
  if (real)
    return real(dirfd, path, argv, envp, flags);
  return (int)syscall(SYS_execveat, dirfd, path, argv, envp, flags);
}

RT_WRAPPER int execve(const char *path, char *const argv[], char *const envp[]) {
  before_exec();
  return exec_failed(call_execve(0, path, argv, envp));
}

RT_WRAPPER int execv(const char *path, char *const argv[]) {
  before_exec();
  return exec_failed(call_execve(0, path, argv, environ));
}

RT_WRAPPER int execvp(const char *file, char *const argv[]) {
  before_exec();
  return exec_failed(call_execve(1, file, argv, environ));
}

RT_WRAPPER int execvpe(const char *file, char *const argv[], char *const envp[]) {
  before_exec();
  return exec_failed(call_execve(1, file, argv, envp));
}

/* fexecve is execveat's AT_EMPTY_PATH (glibc's own falls back to
 * /proc/self/fd on kernels without execveat, before Linux 3.19). */
RT_WRAPPER int fexecve(int fd, char *const argv[], char *const envp[]) {
  typedef int (*fexecve_fn)(int, char *const[], char *const[]);
  static void *found;
  fexecve_fn real = (fexecve_fn)rt_next_function_once(&found, "fexecve", (void *)fexecve, NULL);
  before_exec();
  if (real)
    return exec_failed(real(fd, argv, envp));
  return exec_failed(call_execveat(fd, "", argv, envp, AT_EMPTY_PATH));
}

/* glibc 2.34 and later. */
RT_WRAPPER int execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
                        int flags) {
  before_exec();
  return exec_failed(call_execveat(dirfd, path, argv, envp, flags));
}

/* The list forms gather their arguments on the stack (exec must work in
 * a vfork child and after a signal, where malloc may not) and use the
 * vector forms. */
static size_t count_args(va_list *ap) {
  size_t n = 1; /* the first, named argument */
  va_list c;
  va_copy(c, *ap);
  while (va_arg(c, const char *))
    n++;
  va_end(c);
  return n;
}

static void gather_args(char **argv, const char *first, size_t n, va_list *ap) {
  argv[0] = (char *)first;
  for (size_t i = 1; i <= n; i++) /* the NULL too */
    argv[i] = va_arg(*ap, char *);
}

RT_WRAPPER int execl(const char *path, const char *arg, ...) {
  va_list ap;
  va_start(ap, arg);
  size_t n = count_args(&ap);
  char *argv[n + 1];
  gather_args(argv, arg, n, &ap);
  va_end(ap);
  return execv(path, argv);
}

RT_WRAPPER int execlp(const char *file, const char *arg, ...) {
  va_list ap;
  va_start(ap, arg);
  size_t n = count_args(&ap);
  char *argv[n + 1];
  gather_args(argv, arg, n, &ap);
  va_end(ap);
  return execvp(file, argv);
}

RT_WRAPPER int execle(const char *path, const char *arg, ...) {
  va_list ap;
  va_start(ap, arg);
  size_t n = count_args(&ap);
  char *argv[n + 1];
  gather_args(argv, arg, n, &ap);
  char **envp = va_arg(ap, char **);
  va_end(ap);
  return execve(path, argv, envp);
}

/* glibc's daemon(), for a static link: fork, the parent leaves as by
 * _exit, the child starts a session and, unless asked not to, moves to
 * "/" and points its standard streams at /dev/null. */
static int own_daemon(int nochdir, int noclose) {
  switch (fork()) {
  case -1:
    return -1;
  case 0:
    break;
  default: /* _exit by its system call: see libc_symbol.c on names with "exit" */
    syscall(SYS_exit_group, 0);
  }
  if (setsid() < 0)
    return -1;
  if (!nochdir && chdir("/") < 0) {
    /* as glibc's: the daemon goes on where it was */
  }
  if (noclose)
    return 0;
  int fd = open("/dev/null", O_RDWR);
  if (fd < 0)
    return -1;
  struct stat st;
  if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)) {
    close(fd);
    errno = ENODEV;
    return -1;
  }
  dup2(fd, STDIN_FILENO);
  dup2(fd, STDOUT_FILENO);
  dup2(fd, STDERR_FILENO);
  if (fd > STDERR_FILENO)
    close(fd);
  return 0;
}

/* daemon() forks and ends the parent with _exit, which runs no exit
 * handlers: without a write first, a daemon's training run would lose
 * everything its start-up counted.  The child counts from zero (fork). */
RT_WRAPPER int daemon(int nochdir, int noclose) {
  typedef int (*daemon_fn)(int, int);
  static void *found;
  daemon_fn real = (daemon_fn)rt_next_function_once(&found, "daemon", (void *)daemon, NULL);
  write_before(RT_BEFORE_DAEMON);
  return real ? real(nochdir, noclose) : own_daemon(nochdir, noclose);
}
