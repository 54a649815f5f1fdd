/* The body of corpus/timers.c and timers-static.c: sigset(), timers and
 * notifications that the runtime stands in front of.  sigset's
 * dispositions and what it returns, and sigignore's; signals taken by
 * sigwait, a signalfd and sigtimedwait; a CPU-time timer that sends SIGPROF,
 * as a profiler's; a timer and a message queue whose notifications run a
 * function in a thread that the C library starts, which counts as any
 * thread does.  What each call returns and which signals and
 * notifications arrive must be as in the plain build. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <mqueue.h>
#include <sys/signalfd.h>
#include <unistd.h>

static volatile sig_atomic_t usr1, prof;
static volatile int threads, messages;

static void on_usr1(int sig) {
  (void)sig;
  usr1++;
}

static void on_prof(int sig) {
  (void)sig;
  prof++;
}

static void on_timer(union sigval v) { __atomic_add_fetch(&threads, v.sival_int, __ATOMIC_SEQ_CST); }

static void on_message(union sigval v) { __atomic_add_fetch(&messages, v.sival_int, __ATOMIC_SEQ_CST); }

__attribute__((noinline)) static const char *name(sighandler_t h) {
  return h == SIG_DFL ? "default" : h == SIG_IGN ? "ignore" : h == SIG_HOLD ? "hold"
       : h == SIG_ERR ? "error" : h == on_usr1 ? "on_usr1" : "other";
}

/* sigset's dispositions and what it returns: a held signal waits until
 * a handler is set. */
__attribute__((noinline)) static void dispositions(void) {
  printf("first: %s\n", name(sigset(SIGUSR1, on_usr1)));
  printf("again: %s\n", name(sigset(SIGUSR1, on_usr1)));
  printf("hold: %s\n", name(sigset(SIGUSR1, SIG_HOLD)));
  raise(SIGUSR1);
  printf("held: %d delivered\n", (int)usr1);
  printf("release: %s\n", name(sigset(SIGUSR1, on_usr1)));
  printf("released: %d delivered\n", (int)usr1);
  printf("bad: %s\n", name(sigset(0, on_usr1)));
  printf("ignore: %d\n", sigignore(SIGUSR2));
  raise(SIGUSR2);
  printf("then: %s\n", name(sigset(SIGUSR2, SIG_DFL)));
}

/* Signals taken by waiting for them: sigwait, a signalfd, sigtimedwait. */
__attribute__((noinline)) static void waits(void) {
  sigset_t winch;
  sigemptyset(&winch);
  sigaddset(&winch, SIGWINCH);
  sigprocmask(SIG_BLOCK, &winch, NULL);
  int sig = 0;
  kill(getpid(), SIGWINCH);
  printf("sigwait: %d\n", sigwait(&winch, &sig) == 0 ? sig : -1);
  int fd = signalfd(-1, &winch, 0);
  struct signalfd_siginfo si;
  kill(getpid(), SIGWINCH);
  printf("signalfd: %d\n",
         fd >= 0 && read(fd, &si, sizeof si) == (ssize_t)sizeof si ? (int)si.ssi_signo : -1);
  struct timespec none = {0, 0};
  printf("sigtimedwait: %d\n", sigtimedwait(&winch, NULL, &none));
  close(fd);
}

/* A CPU-time timer that sends SIGPROF, as a profiler's: it ticks. */
__attribute__((noinline)) static int cpu_timer(long n) {
  struct sigevent ev;
  timer_t id;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_SIGNAL;
  ev.sigev_signo = SIGPROF;
  sigset(SIGPROF, on_prof);
  if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &id) < 0)
    return 1;
  struct itimerspec its = {{0, 1000000}, {0, 1000000}};
  timer_settime(id, 0, &its, NULL);
  volatile double s = 0;
  for (long i = 0; prof < 3 && i < n; i++)
    s += (double)i * 0.5;
  timer_delete(id);
  printf("profiling timer: %s\n", prof >= 3 ? "ticked" : "never ticked");
  return 0;
}

/* A timer that runs a function in a thread that the C library starts:
 * its counts are the runtime's too. */
__attribute__((noinline)) static int thread_timer(void) {
  struct sigevent ev;
  timer_t id;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD;
  ev.sigev_notify_function = on_timer;
  ev.sigev_value.sival_int = 1;
  if (timer_create(CLOCK_MONOTONIC, &ev, &id) < 0)
    return 1;
  struct itimerspec its = {{0, 0}, {0, 1000000}};
  timer_settime(id, 0, &its, NULL);
  for (int i = 0; i < 2000 && !__atomic_load_n(&threads, __ATOMIC_SEQ_CST); i++)
    usleep(1000);
  timer_delete(id);
  printf("thread timer: %s\n", threads ? "ran" : "never ran");
  return 0;
}

/* A message queue's notification in a thread of the C library's.  Where
 * the system has no message queues (a container without /dev/mqueue) the
 * function is called here, so that every build runs the same code. */
__attribute__((noinline)) static void queue_notice(void) {
  struct mq_attr attr = {0, 4, 64, 0};
  char name[64];
  snprintf(name, sizeof name, "/xprof-corpus-%ld", (long)getpid());
  mqd_t q = mq_open(name, O_CREAT | O_RDWR, 0600, &attr);
  if (q == (mqd_t)-1) {
    on_message((union sigval){.sival_int = 1});
  } else {
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD;
    ev.sigev_notify_function = on_message;
    ev.sigev_value.sival_int = 1;
    if (mq_notify(q, &ev) == 0 && mq_send(q, "x", 1, 0) == 0)
      for (int i = 0; i < 2000 && !__atomic_load_n(&messages, __ATOMIC_SEQ_CST); i++)
        usleep(1000);
    mq_close(q);
    mq_unlink(name);
  }
  printf("message queue: %s\n", messages ? "notified" : "never notified");
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1;
  dispositions();
  waits();
  if (cpu_timer(n * 1000000000L) || thread_timer())
    return 2;
  queue_notice();
  return 0;
}
