/*
 * sigprof.c - the program's own changes to SIGPROF and to the profiling
 * timer, while the runtime samples with them (sample.c).
 *
 * A program that sets SIGPROF's action back to its default would be ended
 * by the sampler's next tick ("Profiling timer expired"): a process
 * spawner's child does so for every signal before its exec (CMake's
 * ctest, libuv), and so do programs that start from a clean slate (a
 * daemon resetting every signal).  One that installs a handler of its own
 * would get the sampler's ticks, and one that starts the profiling timer
 * replaces the sampler's.  So the runtime defines sigaction, the signal()
 * family, sigset, sigignore and setitimer, and a change of SIGPROF or of
 * ITIMER_PROF first stops the sampling (rt_sample_yield), then the C
 * library does what was asked (but for stopping a timer the program
 * never started: getitimer and setitimer show it none); and timer_create, for timers that send
 * SIGPROF (notify.c).  Every other signal and timer passes straight
 * through.
 *
 * A program that blocks every signal and takes them with sigwait or a
 * signalfd on a full set (a server's signal thread: APR's, for one)
 * would be handed the sampler's ticks as signals of its own.  While the
 * sampler runs, SIGPROF is taken out of the set such a program waits on:
 * blocked in every thread, it stays pending, and the samples stop.  A
 * program that waits for SIGPROF alone is profiling itself: the sampler
 * stops first.
 *
 * Like exec.c's, these are weak (a sanitizer's interceptors of the same
 * names, linked into the program, come first), exported for every caller
 * (abi/xprof_abi.h), and call the next definition of the name: a
 * sanitizer's interceptor where there is one, else the C library's.  It
 * is found when the runtime starts, since these may be called from a
 * signal handler, where looking it up (the loader's lock) is not safe.  A
 * static link has no dynamic symbols: there it is libc.a's under the name
 * libc.a gives it (the drivers make the linker take __bsd_signal), or
 * for sigset and sigignore, which libc.a has under no other name, the
 * runtime's own on the C library's sigaction.
 *
 * What is not seen: the C library's internal calls (posix_spawn's child,
 * which has no timer: timers are not inherited) and system calls made
 * directly.  For those the sampler's own check at each write remains
 * (sample.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "rt_internal.h"

/* sigset() is obsolete, not gone: programs still call it. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*signal_fn)(int, sighandler_t);
typedef int (*setitimer_fn)(__itimer_which_t, const struct itimerval *, struct itimerval *);
typedef int (*getitimer_fn)(__itimer_which_t, struct itimerval *);
typedef int (*sigwait_fn)(const sigset_t *, int *);
typedef int (*sigtimedwait_fn)(const sigset_t *, siginfo_t *, const struct timespec *);
typedef int (*signalfd_fn)(int, const sigset_t *, int);

/* glibc's names for its own functions: exported by libc.so.6 and in
 * libc.a (__bsd_signal in libc.a only). */
extern int __sigaction(int, const struct sigaction *, struct sigaction *);
extern sighandler_t __sysv_signal(int, sighandler_t);
extern sighandler_t __bsd_signal(int, sighandler_t) __attribute__((weak));
extern int __sigwait(const sigset_t *, int *) __attribute__((weak));
extern int __sigtimedwait(const sigset_t *, siginfo_t *, const struct timespec *)
    __attribute__((weak));

static struct {
  sigaction_fn sigaction;
  signal_fn signal, sysv_signal, sigset;
  int (*sigignore)(int);
  setitimer_fn setitimer;
  getitimer_fn getitimer;
  sigwait_fn sigwait;
  sigtimedwait_fn sigtimedwait;
  signalfd_fn signalfd;
  int found;
} next;

/* Find what the wrappers call.  Idempotent. */
void rt_sigprof_start(void) {
  if (__atomic_load_n(&next.found, __ATOMIC_ACQUIRE))
    return;
  /* libc.a's names where the C library has them (a static link); the
   * others may be NULL there: the runtime's own ways below. */
  next.sigaction =
      (sigaction_fn)rt_next_function_or("sigaction", (void *)sigaction, (void *)__sigaction);
  next.signal = (signal_fn)rt_next_function_or("signal", (void *)signal, (void *)__bsd_signal);
  next.sysv_signal =
      (signal_fn)rt_next_function_or("sysv_signal", (void *)sysv_signal, (void *)__sysv_signal);
  next.sigwait = (sigwait_fn)rt_next_function_or("sigwait", (void *)sigwait, (void *)__sigwait);
  next.sigtimedwait = (sigtimedwait_fn)rt_next_function_or(
      "sigtimedwait", (void *)sigtimedwait, (void *)__sigtimedwait);
  next.setitimer = (setitimer_fn)rt_next_function("setitimer", (void *)setitimer);
  next.getitimer = (getitimer_fn)rt_next_function("getitimer", (void *)getitimer);
  next.sigset = (signal_fn)rt_next_function("sigset", (void *)sigset);
  next.sigignore = (int (*)(int))rt_next_function("sigignore", (void *)sigignore);
  next.signalfd = (signalfd_fn)rt_next_function("signalfd", (void *)signalfd);
  __atomic_store_n(&next.found, 1, __ATOMIC_RELEASE);
}

/* The runtime's own: straight to the C library and the kernel. */
int rt_sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  return __sigaction(sig, act, old);
}

int rt_setitimer(int which, const struct itimerval *value, struct itimerval *old) {
  return (int)syscall(SYS_setitimer, which, value, old);
}

int rt_getitimer(int which, struct itimerval *value) {
  return (int)syscall(SYS_getitimer, which, value);
}

/* What setting SIGPROF's action to handler means for the sampler. */
static void yield_to_action(sighandler_t handler) {
  rt_sample_yield(handler == SIG_DFL || handler == SIG_IGN ? RT_SIGPROF_DEFAULT
                                                           : RT_SIGPROF_HANDLER);
}

/* Setting SIGPROF's action to the sampler's own (a program that saved
 * every signal's action and puts them back) changes nothing. */
RT_WRAPPER int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  rt_sigprof_start();
  if (sig == SIGPROF && act && !rt_sample_own_action(act))
    yield_to_action((act->sa_flags & SA_SIGINFO) ? (sighandler_t)(void *)act->sa_sigaction
                                                 : act->sa_handler);
  return next.sigaction(sig, act, old);
}

/* An action of handler with flags, blocking `sig` too while it runs
 * where block_sig (BSD's signal()) -- what the C library's signal(),
 * sigset() and sigignore() set.  Through the next sigaction; *old the
 * action before.  0, or -1 with errno. */
static int set_plain_action(int sig, sighandler_t handler, int flags, int block_sig,
                            struct sigaction *old) {
  struct sigaction act;
  memset(&act, 0, sizeof act);
  act.sa_handler = handler;
  sigemptyset(&act.sa_mask);
  if (block_sig)
    sigaddset(&act.sa_mask, sig);
  act.sa_flags = flags;
  return next.sigaction(sig, &act, old);
}

/* glibc's signal() without __bsd_signal (a static link made without the
 * drivers): BSD semantics, the handler stays and calls restart.  Only a
 * siginterrupt() before is not honoured. */
static sighandler_t bsd_signal_by_sigaction(int sig, sighandler_t handler) {
  struct sigaction old;
  if (handler == SIG_ERR || sig < 1 || sig >= NSIG) {
    errno = EINVAL;
    return SIG_ERR;
  }
  if (set_plain_action(sig, handler, SA_RESTART, 1, &old) < 0)
    return SIG_ERR;
  return old.sa_handler;
}

RT_WRAPPER sighandler_t signal(int sig, sighandler_t handler) {
  rt_sigprof_start();
  if (sig == SIGPROF && handler != SIG_ERR)
    yield_to_action(handler);
  return next.signal ? next.signal(sig, handler) : bsd_signal_by_sigaction(sig, handler);
}

RT_WRAPPER sighandler_t bsd_signal(int sig, sighandler_t handler) { return signal(sig, handler); }

RT_WRAPPER sighandler_t ssignal(int sig, sighandler_t handler) { return signal(sig, handler); }

RT_WRAPPER sighandler_t sysv_signal(int sig, sighandler_t handler) {
  rt_sigprof_start();
  if (sig == SIGPROF && handler != SIG_ERR)
    yield_to_action(handler);
  return next.sysv_signal(sig, handler);
}

/* While the sampler runs, the profiling timer is its own, and the
 * program has none: one that stops ITIMER_PROF (clearing every timer
 * after a fork, a profiler's stop) asks for what it already has, and is
 * told that its timer was not running, as it was not; so is one that
 * reads it.  Sampling goes on, without a word. */
static int program_has_no_timer(const struct itimerval *value, struct itimerval *old) {
  if ((value && (value->it_value.tv_sec || value->it_value.tv_usec)) || !rt_sample_active())
    return 0;
  if (old)
    memset(old, 0, sizeof *old);
  return 1;
}

RT_WRAPPER int setitimer(__itimer_which_t which, const struct itimerval *value,
                         struct itimerval *old) {
  rt_sigprof_start();
  if (which == ITIMER_PROF && value) {
    if (program_has_no_timer(value, old))
      return 0;
    rt_sample_yield(RT_SIGPROF_TIMER);
  }
  return next.setitimer ? next.setitimer(which, value, old) : rt_setitimer(which, value, old);
}

RT_WRAPPER int getitimer(__itimer_which_t which, struct itimerval *value) {
  rt_sigprof_start();
  if (which == ITIMER_PROF && value && program_has_no_timer(NULL, value))
    return 0;
  return next.getitimer ? next.getitimer(which, value) : rt_getitimer(which, value);
}

/* glibc's sigset() where the C library's cannot be called (a static link:
 * libc.a has it under no other name): a disposition, or SIG_HOLD, which
 * blocks the signal; either way the old one is returned, SIG_HOLD where
 * the signal was blocked. */
static sighandler_t sigset_by_sigaction(int sig, sighandler_t disp) {
  sigset_t one, old_mask;
  struct sigaction old;
  if (disp == SIG_ERR || sig < 1 || sig >= NSIG) {
    errno = EINVAL;
    return SIG_ERR;
  }
  sigemptyset(&one);
  sigaddset(&one, sig);
  if (disp == SIG_HOLD) {
    if (sigprocmask(SIG_BLOCK, &one, &old_mask) < 0 || next.sigaction(sig, NULL, &old) < 0)
      return SIG_ERR;
  } else {
    if (set_plain_action(sig, disp, 0, 0, &old) < 0 ||
        sigprocmask(SIG_UNBLOCK, &one, &old_mask) < 0)
      return SIG_ERR;
  }
  return sigismember(&old_mask, sig) ? SIG_HOLD : old.sa_handler;
}

RT_WRAPPER sighandler_t sigset(int sig, sighandler_t disp) {
  rt_sigprof_start();
  if (sig == SIGPROF && disp != SIG_ERR && disp != SIG_HOLD)
    yield_to_action(disp);
  return next.sigset ? next.sigset(sig, disp) : sigset_by_sigaction(sig, disp);
}

RT_WRAPPER int sigignore(int sig) {
  rt_sigprof_start();
  if (sig == SIGPROF)
    yield_to_action(SIG_IGN);
  return next.sigignore ? next.sigignore(sig) : set_plain_action(sig, SIG_IGN, 0, 0, NULL);
}

/* ---- waiting for signals ------------------------------------------------ */

/* The set a program waits on: `set`, or while the sampler sends SIGPROF,
 * *copy, the same without it (a set of SIGPROF alone: the sampler stops,
 * and it is `set`). */
static const sigset_t *without_sigprof(const sigset_t *set, sigset_t *copy) {
  if (!set || !sigismember(set, SIGPROF) || !rt_sample_active())
    return set;
  *copy = *set;
  sigdelset(copy, SIGPROF);
  if (!sigisemptyset(copy))
    return copy;
  rt_sample_yield(RT_SIGPROF_WAIT);
  return set;
}

/* sigtimedwait without the C library's (a static link made without the
 * drivers): the system call, with glibc's folding of the code a signal
 * from tkill (raise) has. */
static int sigtimedwait_by_syscall(const sigset_t *set, siginfo_t *info,
                                   const struct timespec *timeout) {
  int rc = (int)syscall(SYS_rt_sigtimedwait, set, info, timeout, (size_t)_NSIG / 8);
  if (rc > 0 && info && info->si_code == SI_TKILL)
    info->si_code = SI_USER;
  return rc;
}

static int timed_wait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout) {
  return next.sigtimedwait ? next.sigtimedwait(set, info, timeout)
                           : sigtimedwait_by_syscall(set, info, timeout);
}

RT_WRAPPER int sigtimedwait(const sigset_t *set, siginfo_t *info,
                            const struct timespec *timeout) {
  rt_sigprof_start();
  sigset_t copy;
  return timed_wait(without_sigprof(set, &copy), info, timeout);
}

RT_WRAPPER int sigwaitinfo(const sigset_t *set, siginfo_t *info) {
  return sigtimedwait(set, info, NULL);
}

RT_WRAPPER int sigwait(const sigset_t *set, int *sig) {
  rt_sigprof_start();
  sigset_t copy;
  const sigset_t *wait = without_sigprof(set, &copy);
  if (next.sigwait)
    return next.sigwait(wait, sig);
  int rc; /* as glibc's: a signal, or an error number; never EINTR */
  do
    rc = timed_wait(wait, NULL, NULL);
  while (rc < 0 && errno == EINTR);
  if (rc < 0)
    return errno;
  *sig = rc;
  return 0;
}

RT_WRAPPER int signalfd(int fd, const sigset_t *mask, int flags) {
  rt_sigprof_start();
  sigset_t copy;
  const sigset_t *taken = without_sigprof(mask, &copy);
  if (next.signalfd)
    return next.signalfd(fd, taken, flags);
  return (int)syscall(SYS_signalfd4, fd, taken, (size_t)_NSIG / 8, flags);
}
