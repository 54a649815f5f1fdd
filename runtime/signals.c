/*
 * signals.c - SUN_PROFDATA_SIGNALS=TERM,INT,...: a server stopped by one
 * of these signals keeps its profile.
 *
 * Writing a profile takes locks and memory, which a signal handler must
 * not (the signal may have interrupted a write, or the program's
 * allocator).  So the handler only writes the signal's number into a
 * pipe; a thread of the runtime reads it, writes the profile as at exit,
 * then gives the signal back its default action and raises it again, so
 * that the process ends as the signal would have ended it (a parent sees
 * "killed by SIGTERM", not an exit status).
 *
 * Only signals whose action is the default when the runtime starts get
 * the handler: a signal the program inherited as ignored (nohup) stays
 * ignored, and a program that installs its own handler later replaces
 * ours and decides itself (one that calls exit writes the profile at
 * exit).  A forked child gets a pipe and thread of its own; a runtime in
 * a shared library being unloaded gives the signals their default back
 * first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_internal.h"

static int pipe_r = -1, pipe_w = -1;
static pthread_t signal_thread;
static int thread_running;
static sigset_t handled; /* the signals that have our handler */

/* Ends the process with `sig` as its default action would have. */
static void raise_default(int sig) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  rt_sigaction(sig, &sa, NULL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  pthread_sigmask(SIG_UNBLOCK, &one, NULL);
  kill(getpid(), sig);
}

/* The pipe's identity, for on_signal: a program may close every
 * descriptor it did not open itself (daemons do), and open files that
 * take the pipe's numbers. */
static dev_t pipe_dev;
static ino_t pipe_ino;

static void on_signal(int sig) {
  int saved = errno;
  struct stat st;
  if (fstat(pipe_w, &st) != 0 || st.st_dev != pipe_dev || st.st_ino != pipe_ino) {
    /* The pipe is gone and the thread with it: end as the signal would
     * have, without the profile, and write nothing into the program's
     * files. */
    raise_default(sig);
    errno = saved;
    return;
  }
  unsigned char b = (unsigned char)sig;
  while (write(pipe_w, &b, 1) < 0 && errno == EINTR)
    ;
  errno = saved;
}

static void *signal_main(void *arg) {
  (void)arg;
  /* The program's threads take the signals, not this one. */
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  for (;;) {
    unsigned char b;
    ssize_t n = read(pipe_r, &b, 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n != 1 || b == 0) /* 0: the runtime is being unloaded */
      return NULL;
    rt_enter();
    rt_threads_exiting_locked();
    rt_async_stop();
    rt_dump_locked(NULL, RT_AT_SIGNAL);
    rt_drop_pending_locked();
    rt_leave();
    raise_default(b);
    return NULL; /* not reached when the default action ends the process */
  }
}

/* Parse "TERM,INT,SIGHUP,15" into `set`; say what is not a signal. */
static void parse_signals(const char *list, sigset_t *set) {
  static const struct {
    const char *name;
    int sig;
  } names[] = {{"TERM", SIGTERM}, {"INT", SIGINT},   {"HUP", SIGHUP},
               {"QUIT", SIGQUIT}, {"USR1", SIGUSR1}, {"USR2", SIGUSR2},
               {"ALRM", SIGALRM}, {"XCPU", SIGXCPU}, {"PIPE", SIGPIPE}};
  sigemptyset(set);
  const char *p = list;
  while (*p) {
    size_t n = strcspn(p, ", ");
    const char *w = p;
    size_t wn = n;
    if (wn > 3 && strncmp(w, "SIG", 3) == 0)
      w += 3, wn -= 3;
    int sig = 0;
    for (size_t k = 0; k < sizeof names / sizeof *names && !sig; k++)
      if (strlen(names[k].name) == wn && strncmp(names[k].name, w, wn) == 0)
        sig = names[k].sig;
    if (!sig && wn > 0 && wn < 4 && strspn(w, "0123456789") == wn) {
      int v = 0;
      for (size_t k = 0; k < wn; k++)
        v = v * 10 + (w[k] - '0');
      if (v > 0 && v < NSIG && v != SIGKILL && v != SIGSTOP && v != SIGSEGV &&
          v != SIGBUS && v != SIGILL && v != SIGFPE && v != SIGABRT)
        sig = v;
    }
    if (sig)
      sigaddset(set, sig);
    else if (n)
      rt_message("SUN_PROFDATA_SIGNALS: '%.*s' is not a signal the profile can be "
                 "written for (TERM, INT, HUP, QUIT, USR1, USR2, ALRM, XCPU, PIPE "
                 "or a number); ignored",
                 (int)n, p);
    p += n;
    p += strspn(p, ", ");
  }
}

/* Handler on every signal of `want` whose action is still the default. */
static void install(const sigset_t *want) {
  sigemptyset(&handled);
  for (int sig = 1; sig < NSIG; sig++) {
    if (sigismember(want, sig) != 1)
      continue;
    struct sigaction old, sa;
    if (rt_sigaction(sig, NULL, &old) < 0 || old.sa_handler != SIG_DFL ||
        (old.sa_flags & SA_SIGINFO))
      continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigfillset(&sa.sa_mask);
    if (rt_sigaction(sig, &sa, NULL) == 0)
      sigaddset(&handled, sig);
  }
}

/* A pipe and the thread that reads it; 0, or -1 after saying so. */
static int start_thread(void) {
  int fds[2] = {-1, -1};
  if (pipe2(fds, O_CLOEXEC) == 0) {
    /* A program started with a standard stream closed would otherwise
     * get the pipe in its place, and what it wrote there would be read
     * as signals. */
    fds[0] = xprof_fd_above_stdio(fds[0]);
    fds[1] = xprof_fd_above_stdio(fds[1]);
  }
  if (fds[0] < 0 || fds[1] < 0) {
    int e = errno;
    if (fds[0] >= 0)
      close(fds[0]);
    if (fds[1] >= 0)
      close(fds[1]);
    errno = e;
    rt_message("SUN_PROFDATA_SIGNALS: cannot make a pipe (%s); the profile is not "
               "written when a signal ends the program",
               strerror(errno));
    return -1;
  }
  pipe_r = fds[0];
  pipe_w = fds[1];
  fcntl(pipe_w, F_SETFL, O_NONBLOCK); /* a handler never waits */
  struct stat st;
  if (fstat(pipe_w, &st) == 0) {
    pipe_dev = st.st_dev;
    pipe_ino = st.st_ino;
  }
  thread_running = pthread_create(&signal_thread, NULL, signal_main, NULL) == 0;
  if (!thread_running) {
    rt_message("SUN_PROFDATA_SIGNALS: cannot start the runtime's signal thread; "
               "the profile is not written when a signal ends the program");
    close(pipe_r);
    close(pipe_w);
    pipe_r = pipe_w = -1;
    return -1;
  }
  return 0;
}

void rt_signals_start(void) {
  const char *list = rt_getenv("SUN_PROFDATA_SIGNALS");
  if (!list || !*list)
    return;
  sigset_t want;
  parse_signals(list, &want);
  if (!sigisemptyset(&want) && start_thread() == 0)
    install(&want);
}

/* In a forked child: the parent's thread is not here, and its pipe is the
 * parent's; the handlers stay, with a pipe and thread of the child's. */
void rt_signals_fork_child(void) {
  if (pipe_w < 0)
    return;
  close(pipe_r);
  close(pipe_w);
  pipe_r = pipe_w = -1;
  thread_running = 0;
  if (start_thread() < 0) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++)
      if (sigismember(&handled, sig) == 1)
        rt_sigaction(sig, &sa, NULL);
  }
}

/* A runtime in a shared library being unloaded: the handler's code goes
 * away with it.  Signals still on our handler get the default back. */
void rt_signals_stop(void) {
  if (pipe_w < 0)
    return;
  for (int sig = 1; sig < NSIG; sig++) {
    struct sigaction cur, sa;
    if (sigismember(&handled, sig) != 1 || rt_sigaction(sig, NULL, &cur) < 0 ||
        cur.sa_handler != on_signal)
      continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    rt_sigaction(sig, &sa, NULL);
  }
  unsigned char stop = 0;
  while (write(pipe_w, &stop, 1) < 0 && errno == EINTR)
    ;
  if (thread_running)
    pthread_join(signal_thread, NULL);
  thread_running = 0;
  close(pipe_r);
  close(pipe_w);
  pipe_r = pipe_w = -1;
}
