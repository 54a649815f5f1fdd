/*
 * exec.c - write the profile before the process image is replaced, or
 * the process ends without running its exit handlers.
 *
 * The runtime defines the exec family and daemon() itself; linked into the
 * program, its definitions take precedence over the C library's for every
 * caller in the process.  Each writes the data gathered so far (and zeroes
 * it, so that a failed exec does not count twice), then calls the C
 * library's function.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
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

static void *next_symbol(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f)
    errno = ENOSYS;
  return f;
}

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);

RT_EXPORT int execve(const char *path, char *const argv[], char *const envp[]) {
  execve_fn real = (execve_fn)next_symbol("execve");
  before_exec();
  return exec_failed(real ? real(path, argv, envp) : -1);
}

RT_EXPORT int execv(const char *path, char *const argv[]) {
  execv_fn real = (execv_fn)next_symbol("execv");
  before_exec();
  return exec_failed(real ? real(path, argv) : -1);
}

RT_EXPORT int execvp(const char *file, char *const argv[]) {
  execv_fn real = (execv_fn)next_symbol("execvp");
  before_exec();
  return exec_failed(real ? real(file, argv) : -1);
}

RT_EXPORT int execvpe(const char *file, char *const argv[],
                      char *const envp[]) {
  execve_fn real = (execve_fn)next_symbol("execvpe");
  before_exec();
  return exec_failed(real ? real(file, argv, envp) : -1);
}

RT_EXPORT int fexecve(int fd, char *const argv[], char *const envp[]) {
  typedef int (*fexecve_fn)(int, char *const[], char *const[]);
  fexecve_fn real = (fexecve_fn)next_symbol("fexecve");
  before_exec();
  return exec_failed(real ? real(fd, argv, envp) : -1);
}

/* Linux's exec relative to a directory descriptor (glibc 2.34 and later;
 * with AT_EMPTY_PATH, fexecve's own way of running a descriptor). */
RT_EXPORT int execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
                       int flags) {
  typedef int (*execveat_fn)(int, const char *, char *const[], char *const[], int);
  execveat_fn real = (execveat_fn)next_symbol("execveat");
  before_exec();
  return exec_failed(real ? real(dirfd, path, argv, envp, flags) : -1);
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

RT_EXPORT int execl(const char *path, const char *arg, ...) {
  va_list ap;
  va_start(ap, arg);
  size_t n = count_args(&ap);
  char *argv[n + 1];
  gather_args(argv, arg, n, &ap);
  va_end(ap);
  return execv(path, argv);
}

RT_EXPORT int execlp(const char *file, const char *arg, ...) {
  va_list ap;
  va_start(ap, arg);
  size_t n = count_args(&ap);
  char *argv[n + 1];
  gather_args(argv, arg, n, &ap);
  va_end(ap);
  return execvp(file, argv);
}

RT_EXPORT int execle(const char *path, const char *arg, ...) {
  va_list ap;
  va_start(ap, arg);
  size_t n = count_args(&ap);
  char *argv[n + 1];
  gather_args(argv, arg, n, &ap);
  char **envp = va_arg(ap, char **);
  va_end(ap);
  return execve(path, argv, envp);
}

/* daemon() forks and ends the parent with _exit, which runs no exit
 * handlers: without a write first, a daemon's training run would lose
 * everything its start-up counted.  The child counts from zero (fork). */
RT_EXPORT int daemon(int nochdir, int noclose) {
  typedef int (*daemon_fn)(int, int);
  daemon_fn real = (daemon_fn)next_symbol("daemon");
  write_before(RT_BEFORE_DAEMON);
  return real ? real(nochdir, noclose) : -1;
}
