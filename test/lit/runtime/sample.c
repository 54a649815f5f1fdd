// Time samples (SUN_PROFDATA_SAMPLE=1) over every text segment of the
// process: the program's own functions, the C library's, a library
// dlopen'ed without xprof after sampling started, a forked child's, and
// the runs add up.  The program's own SIGPROF handler and timer are left
// alone, its reset of SIGPROF does not end it, and an exec does not take
// the sampling timer into the new program.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: gcc -O1 -g -shared -fPIC %S/Inputs/spin_lib.c -o %t/libspin.so
// RUN: %cc_rt %s -o %t/sample -DSPIN_LIB='"%t/libspin.so"'
//
// Off by default: no samples.
// RUN: %t/sample main
// RUN: xprof_show sample.profile > off.txt
// RUN: not grep "time samples" off.txt
//
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample main
// RUN: xprof_show -n 50 sample.profile | FileCheck --check-prefix=MAIN %s
// MAIN:      time samples: [[N:[0-9]+]], {{.*}} s of CPU time
// MAIN:      busiest images
// MAIN-DAG:  {{ }}/{{.*}}/sample{{$}}
// MAIN-DAG:  {{ }}/{{.*}}/libspin.so{{$}}
// MAIN:      busiest functions by time
// MAIN-DAG:  {{%}} {{.*}}  spin_main  (sample)
// MAIN-DAG:  {{%}} {{.*}}  lib_spin  (libspin.so)
// MAIN-NOT:  overflow
//
// A second run adds its samples to the first's.
// RUN: xprof_show sample.profile | sed -n 's/^time samples: \([0-9]*\),.*/\1/p' > n1.txt
// RUN: env SUN_PROFDATA_SAMPLE=1 %t/sample main
// RUN: xprof_show sample.profile | sed -n 's/^time samples: \([0-9]*\),.*/\1/p' > n2.txt
// RUN: python3 -c "import sys; a, b = (int(open(f).read()) for f in sys.argv[1:]); sys.exit(b <= a)" n1.txt n2.txt
//
// A forked child's samples are written by the child and merged.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample fork
// RUN: xprof_show -n 50 sample.profile | FileCheck --check-prefix=FORK %s
// FORK-DAG: spin_child  (sample)
// FORK-DAG: spin_main  (sample)
//
// exec: the shell loop runs long enough for several ticks of a timer
// that would end it with SIGPROF.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample exec > exec.txt
// RUN: FileCheck --check-prefix=EXEC %s < exec.txt
// EXEC: survived
//
// A vfork child runs the exec wrapper in the parent's memory without its
// timer: the parent samples on after the child's exec, without a word.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample vfork 2> vfork.err
// RUN: xprof_show -n 50 sample.profile | FileCheck --check-prefix=VFORK %s
// RUN: count 0 < vfork.err
// VFORK-DAG: spin_main  (sample)
// VFORK-DAG: spin_after_vfork  (sample)
//
// A process spawner's child sets every signal's action back to the
// default before its exec (ctest does): the timer the child inherited
// from the fork's re-arming is stopped, or it would end the new program
// (which samples itself), and nothing is said.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample spawner > spawner.txt 2> spawner.err
// RUN: FileCheck --check-prefix=EXEC %s < spawner.txt
// RUN: count 0 < spawner.err
// The child's first sample waits for 20 ms of its CPU time, so that a
// tick between the reset and the exec does not end it: here the child
// spins 5 ms of CPU time there.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample spawner 5 > spawner5.txt 2> spawner5.err
// RUN: FileCheck --check-prefix=EXEC %s < spawner5.txt
// RUN: count 0 < spawner5.err
//
// The runtime stands in front of sigaction and signal(): a child that
// spends longer than that between the reset and its exec (100 ms here)
// survives too.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample spawner 100 > spawner100.txt 2> spawner100.err
// RUN: FileCheck --check-prefix=EXEC %s < spawner100.txt
// RUN: count 0 < spawner100.err
// So does a program that sets SIGPROF back to its default itself and
// goes on for 300 ms; the samples before are kept.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample reset > reset.txt 2> reset.err
// RUN: FileCheck --check-prefix=EXEC %s < reset.txt
// RUN: count 0 < reset.err
// RUN: xprof_show -n 50 sample.profile | FileCheck --check-prefix=RESET %s
// RESET: spin_main  (sample)
// The same by sigset(), which the C library does not make through
// sigaction().
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample sigset-reset > sigset.txt 2> sigset.err
// RUN: FileCheck --check-prefix=EXEC %s < sigset.txt
// RUN: count 0 < sigset.err
// RUN: xprof_show -n 50 sample.profile | FileCheck --check-prefix=RESET %s
//
// The program's own profiling timer and handler win; said once.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample own > own.txt 2> own.err
// RUN: FileCheck --check-prefix=OWN %s < own.txt
// RUN: FileCheck --check-prefix=OWNERR %s < own.err
// OWN: own handler ran
// OWNERR:     xprof: SUN_PROFDATA_SAMPLE: the program installed its own SIGPROF handler; no more time samples are taken
// OWNERR-NOT: SUN_PROFDATA_SAMPLE
// A handler of the program's own gets none of the sampler's ticks.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample handler-only > hand.txt 2> hand.err
// RUN: FileCheck --check-prefix=NOTICKS %s < hand.txt
// RUN: FileCheck --check-prefix=OWNERR %s < hand.err
// NOTICKS: own handler never ran
// A timer started before the handler: the action before ours is back
// while the program's timer runs.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample timer-first > timer.txt 2> timer.err
// RUN: FileCheck --check-prefix=OWN %s < timer.txt
// RUN: FileCheck --check-prefix=TIMERERR %s < timer.err
// TIMERERR:     xprof: SUN_PROFDATA_SAMPLE: the program set the profiling timer (ITIMER_PROF); no more time samples are taken
// TIMERERR-NOT: SUN_PROFDATA_SAMPLE
// A POSIX timer that sends SIGPROF, made before the handler (a per-thread
// CPU profiler's): the sampler stops at timer_create, and the handler
// gets the program's ticks.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample posix-timer > posix.txt 2> posix.err
// RUN: FileCheck --check-prefix=OWN %s < posix.txt
// RUN: FileCheck --check-prefix=POSIXERR %s < posix.err
// POSIXERR:     xprof: SUN_PROFDATA_SAMPLE: the program made a timer that sends SIGPROF (timer_create); no more time samples are taken
// POSIXERR-NOT: SUN_PROFDATA_SAMPLE
// A program that stops a profiling timer it never started (clearing
// every timer, a profiler's stop) is told it had none, as it had not, and
// sampling goes on without a word: samples after it are there.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample disarm > disarm.txt 2> disarm.err
// RUN: FileCheck --check-prefix=DISARM %s < disarm.txt
// RUN: count 0 < disarm.err
// RUN: xprof_show -n 50 sample.profile | FileCheck --check-prefix=VFORK %s
// DISARM: setitimer 0, before 0, after 0
// One that saves SIGPROF's action and puts it back (as programs that
// save and restore every signal's do) changes nothing: sampling goes on.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample save-restore 2> restore.err
// RUN: count 0 < restore.err
// RUN: xprof_show -n 50 sample.profile | FileCheck --check-prefix=VFORK %s
// A timer that sends another signal leaves the sampling alone.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample other-timer > other.txt 2> other.err
// RUN: FileCheck --check-prefix=OTHER %s < other.txt
// RUN: count 0 < other.err
// RUN: xprof_show -n 50 sample.profile | FileCheck --check-prefix=RESET %s
// OTHER: timer ticked
// A program that blocks every signal and takes them with sigwait,
// sigtimedwait or a signalfd on a full set (a server's signal thread) is
// not handed the sampler's SIGPROF (27), pending after 100 ms of CPU
// time: it gets the SIGWINCH (28) it sent itself, nothing more, and no
// word.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample sigwait-all > wait.txt 2> wait.err
// RUN: FileCheck --check-prefix=WAIT %s < wait.txt
// RUN: count 0 < wait.err
// RUN: xprof_show -n 50 sample.profile | FileCheck --check-prefix=RESET %s
// WAIT:      sigwait 28
// WAIT-NEXT: signalfd 28
// WAIT-NEXT: sigtimedwait -1
// One that waits for SIGPROF alone is profiling itself: the sampler stops.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample sigwait-prof > waitprof.txt 2> waitprof.err
// RUN: FileCheck --check-prefix=WAITPROF %s < waitprof.txt
// RUN: FileCheck --check-prefix=WAITPROFERR %s < waitprof.err
// WAITPROF: sigwait 27
// WAITPROFERR:     xprof: SUN_PROFDATA_SAMPLE: the program waits for SIGPROF itself (sigwait, signalfd); no more time samples are taken
// WAITPROFERR-NOT: SUN_PROFDATA_SAMPLE
//
// Samples taken before the parent stopped sampling are the parent's: a
// child forked after does not write them (here the parent then leaves
// with _exit and writes nothing, so the profile is the child's).
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 %t/sample stop-fork 2> stopfork.err
// RUN: FileCheck --check-prefix=OWNERR %s < stopfork.err
// RUN: xprof_show sample.profile > stopfork.txt
// RUN: FileCheck --check-prefix=STOPFORK %s < stopfork.txt
// RUN: not grep "time samples" stopfork.txt
// STOPFORK: training runs: 1 
//
// A bin width that is not a power of two is refused with the default.
// RUN: rm -rf sample.profile && env SUN_PROFDATA_SAMPLE=1 SUN_PROFDATA_SAMPLE_BIN=6 %t/sample main 2> bin.err
// RUN: FileCheck --check-prefix=BIN %s < bin.err
// BIN: xprof: SUN_PROFDATA_SAMPLE_BIN=6 is not a power of two from 1 to 65536; using 1
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/time.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "handmade.h"

static uint64_t counters[1];
static const struct xprof_abi_proc procs[] = {
    {"main", 0x50, 0, 1, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/sample.o", 0x50, 1, NULL, procs, counters)

static volatile double sink;

__attribute__((noinline)) static void spin_main(long n) {
  for (long i = 0; i < n; i++)
    sink += (double)i * 0.25;
}

__attribute__((noinline)) static void spin_child(long n) {
  for (long i = 0; i < n; i++)
    sink += (double)i * 0.75;
}

__attribute__((noinline)) static void spin_after_vfork(long n) {
  for (long i = 0; i < n; i++)
    sink += (double)i * 0.5;
}

/* Spend ms milliseconds of the process's CPU time. */
static void spin_cpu_ms(int ms) {
  struct timespec t0, t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
  do {
    sink += 1.0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < ms * 1000000L);
}

static volatile sig_atomic_t own_ticks;
static void own_handler(int sig) {
  (void)sig;
  own_ticks++;
}

/* Wait for child pid: 0 when it exited with status 0, else 1. */
static int child_failed(pid_t pid) {
  int status;
  return waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

/* The argument after the mode, or NULL. */
static const char *mode_arg;

static int mode_main(void) {
  spin_main(100000000);
  void *h = dlopen(SPIN_LIB, RTLD_NOW);
  void (*lib_spin)(long) = h ? (void (*)(long))dlsym(h, "lib_spin") : NULL;
  if (!lib_spin)
    return 2;
  lib_spin(100000000);
  return 0;
}

static int mode_fork(void) {
  pid_t pid = fork();
  if (pid == 0) {
    spin_child(100000000);
    return 0;
  }
  spin_main(100000000);
  return child_failed(pid);
}

static int mode_exec(void) {
  spin_main(20000000);
  fflush(stdout);
  execl("/bin/sh", "sh", "-c",
        "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo survived", (char *)NULL);
  return 3;
}

static int mode_vfork(void) {
  spin_main(50000000);
  pid_t pid = vfork();
  if (pid == 0) {
    execl("/bin/true", "true", (char *)NULL);
    _exit(127);
  }
  int failed = child_failed(pid);
  spin_after_vfork(100000000);
  return failed;
}

static int mode_spawner(void) {
  spin_main(20000000);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    for (int sig = 1; sig < 32; sig++)
      if (sig != SIGKILL && sig != SIGSTOP)
        signal(sig, SIG_DFL);
    spin_cpu_ms(mode_arg ? atoi(mode_arg) : 0);
    execl("/bin/sh", "sh", "-c",
          "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo survived", (char *)NULL);
    _exit(127);
  }
  return child_failed(pid);
}

static int mode_reset(void) {
  spin_main(50000000);
  signal(SIGPROF, SIG_DFL);
  spin_cpu_ms(300);
  printf("survived\n");
  return 0;
}

static int mode_handler_only(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = own_handler;
  sigaction(SIGPROF, &sa, NULL);
  spin_cpu_ms(200);
  printf("%s\n", own_ticks > 0 ? "own handler ran" : "own handler never ran");
  return 0;
}

static int mode_timer_first(void) {
  struct itimerval it = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_PROF, &it, NULL);
  signal(SIGPROF, own_handler);
  spin_cpu_ms(200);
  printf("%s\n", own_ticks > 0 ? "own handler ran" : "own handler never ran");
  return 0;
}

static int mode_sigset_reset(void) {
  spin_main(50000000);
  sigset(SIGPROF, SIG_DFL);
  spin_cpu_ms(300);
  printf("survived\n");
  return 0;
}

/* A POSIX timer of the process's CPU time that sends sig, made before the
 * program's handler of sig; says whether the handler ran. */
static int timer_sending(int sig) {
  struct sigevent ev;
  timer_t id;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_SIGNAL;
  ev.sigev_signo = sig;
  if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &id) < 0)
    return 4;
  spin_main(50000000);
  signal(sig, own_handler);
  struct itimerspec its = {{0, 1000000}, {0, 1000000}};
  timer_settime(id, 0, &its, NULL);
  spin_cpu_ms(200);
  timer_delete(id);
  if (sig == SIGPROF)
    printf("%s\n", own_ticks > 0 ? "own handler ran" : "own handler never ran");
  else
    printf("%s\n", own_ticks > 0 ? "timer ticked" : "timer never ticked");
  return 0;
}

static int mode_posix_timer(void) {
  return timer_sending(SIGPROF);
}

static int mode_other_timer(void) {
  return timer_sending(SIGUSR1);
}

static int mode_sigwait_all(void) {
  spin_main(50000000);
  sigset_t all;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, NULL);
  spin_cpu_ms(100);
  int sig = 0;
  kill(getpid(), SIGWINCH);
  sigwait(&all, &sig);
  printf("sigwait %d\n", sig);
  int fd = signalfd(-1, &all, 0);
  struct signalfd_siginfo si;
  kill(getpid(), SIGWINCH);
  if (fd < 0 || read(fd, &si, sizeof si) != (ssize_t)sizeof si)
    return 5;
  printf("signalfd %u\n", si.ssi_signo);
  struct timespec now = {0, 0};
  printf("sigtimedwait %d\n", sigtimedwait(&all, NULL, &now));
  return 0;
}

static int mode_sigwait_prof(void) {
  sigset_t prof;
  sigemptyset(&prof);
  sigaddset(&prof, SIGPROF);
  sigprocmask(SIG_BLOCK, &prof, NULL);
  spin_cpu_ms(100);
  int sig = 0;
  sigwait(&prof, &sig);
  printf("sigwait %d\n", sig);
  return 0;
}

static int mode_disarm(void) {
  spin_main(50000000);
  struct itimerval off, before, after;
  memset(&off, 0, sizeof off);
  int rc = setitimer(ITIMER_PROF, &off, &before);
  getitimer(ITIMER_PROF, &after);
  printf("setitimer %d, before %ld, after %ld\n", rc,
         (long)(before.it_value.tv_sec + before.it_value.tv_usec),
         (long)(after.it_value.tv_sec + after.it_value.tv_usec));
  spin_after_vfork(100000000);
  return 0;
}

static int mode_save_restore(void) {
  spin_main(50000000);
  struct sigaction saved;
  sigaction(SIGPROF, NULL, &saved);
  sigaction(SIGPROF, &saved, NULL);
  spin_after_vfork(100000000);
  return 0;
}

static int mode_stop_fork(void) {
  spin_main(100000000);
  signal(SIGPROF, own_handler);
  pid_t pid = fork();
  if (pid == 0)
    return 0;
  _exit(child_failed(pid));
}

static int mode_own(void) {
  signal(SIGPROF, own_handler);
  struct itimerval it = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_PROF, &it, NULL);
  spin_main(100000000);
  printf("%s\n", own_ticks > 0 ? "own handler ran" : "own handler never ran");
  return 0;
}

/* The modes, each named by its first argument (main when none). */
static const struct {
  const char *name;
  int (*run)(void);
} modes[] = {
    {"main", mode_main},
    {"fork", mode_fork},
    {"exec", mode_exec},
    {"vfork", mode_vfork},
    {"spawner", mode_spawner},
    {"reset", mode_reset},
    {"handler-only", mode_handler_only},
    {"timer-first", mode_timer_first},
    {"sigset-reset", mode_sigset_reset},
    {"posix-timer", mode_posix_timer},
    {"other-timer", mode_other_timer},
    {"sigwait-all", mode_sigwait_all},
    {"sigwait-prof", mode_sigwait_prof},
    {"disarm", mode_disarm},
    {"save-restore", mode_save_restore},
    {"stop-fork", mode_stop_fork},
    {"own", mode_own},
};

int main(int argc, char **argv) {
  XP_INC(counters, 0);
  const char *mode = argc > 1 ? argv[1] : "main";
  mode_arg = argc > 2 ? argv[2] : NULL;
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
    if (strcmp(mode, modes[i].name) == 0)
      return modes[i].run();
  fprintf(stderr, "sample: no mode %s\n", mode);
  return 2;
}
