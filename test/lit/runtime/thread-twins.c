// Per-thread counters in thread-local twins of the counter arrays (what
// both plugins emit for code that goes into an executable): the runtime
// finds every thread's twin and adds them up exactly -- a thread started
// before the object registered, threads that exited, threads still
// running at exit, counts made by another key's destructor after the
// runtime's first round, a write on request in between, xprof_reset, a
// fork child counting from zero, and the slow path of the other kind of
// code handing out the twin.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/tw
// RUN: %t/tw > out.txt
// RUN: FileCheck --check-prefix=OUT %s < out.txt
// OUT: first write 0
// OUT: slow path gives the twin 1
// OUT: child done
// RUN: xprof_btoa tw.profile - | FileCheck %s
// The same with the runtime under ASan and UBSan (whose own pthread_create
// the runtime's wraps).
// RUN: %cc_san_rt %s -o %t/twsan
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t/twsan | FileCheck --check-prefix=OUT %s
// RUN: xprof_btoa twsan.profile - | FileCheck %s
// CHECK:      PROC: main 0x1 1 0 0 0
// CHECK-NEXT: 0 6
// CHECK:      PROC: work 0x2 2 0 0 1
// CHECK-NEXT: 0 8
// CHECK-NEXT: 1 6001000
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "handmade.h"

static uint64_t array[3]; /* main, work x2: what exited threads counted */
static __thread uint64_t twin[3] __attribute__((tls_model("local-exec")));
static uint64_t *twin_cell; /* set before registering, as the plugins do */
static const struct xprof_abi_proc procs[] = {
    {"main", 0x1, 0, 1, &array[0], 0, 0, NULL, NULL, &twin_cell},
    {"work", 0x2, 1, 2, &array[1], 0, 1, NULL, NULL, &twin_cell},
};
static struct xprof_abi_object obj = {
    XPROF_ABI_VERSION, XPROF_ABI_THREAD_COUNTERS, "/handmade/tw.o",
    1763777000, 0, 2, 0x3, NULL, XP_COUNT(procs), XP_COUNT(array), procs,
    array, 0, {0}};
__attribute__((constructor(102))) static void obj_ctor(void) {
  twin_cell = twin;
  __xprof_register(&obj);
}
__attribute__((destructor)) static void obj_dtor(void) { __xprof_unregister(&obj); }

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int go, done;

static void work(int n) {
  twin[1]++;
  for (int i = 0; i < n; i++) {
    twin[2]++;
    __asm__ volatile("" ::: "memory"); /* one add per iteration */
  }
}

static void *stay(void *arg) { /* count, then live until the process exits */
  work(1000000);
  pthread_mutex_lock(&mu);
  done++;
  pthread_cond_broadcast(&cv);
  for (;;)
    pthread_cond_wait(&cv, &mu);
  return arg;
}

static void *run(void *arg) {
  work(1000000);
  return arg;
}

/* Started before the object registers; counts once told to. */
static void *early(void *arg) {
  pthread_mutex_lock(&mu);
  while (!go)
    pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
  work(1000);
  return arg;
}
static pthread_t early_thread;
__attribute__((constructor(101))) static void start_early(void) {
  pthread_create(&early_thread, NULL, early, NULL);
}

/* A key made after the runtime's: its destructor runs after the runtime's
 * first round of adding up. */
static pthread_key_t late_key;
static void late_destructor(void *p) {
  (void)p;
  twin[1]++;
}
static void *with_late_key(void *arg) {
  pthread_setspecific(late_key, &late_key);
  return arg;
}

static void *slow_path(void *arg) {
  intptr_t d = 0;
  intptr_t r = __xprof_thread_counters(array, &d);
  int ok = r == d && (uintptr_t)array + (uintptr_t)d * 8 == (uintptr_t)twin;
  return ok ? arg : NULL;
}

int main(void) {
  twin[0]++;
  pthread_mutex_lock(&mu);
  go = 1;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&mu);
  pthread_join(early_thread, NULL);
  pthread_t t[8];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, run, NULL);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  pthread_key_create(&late_key, late_destructor);
  pthread_create(&t[0], NULL, with_late_key, NULL);
  pthread_join(t[0], NULL);
  printf("first write %d\n", xprof_dump());

  void *ok = NULL;
  pthread_create(&t[0], NULL, slow_path, &ok);
  pthread_join(t[0], &ok);
  printf("slow path gives the twin %d\n", ok != NULL);

  /* Counted, then forgotten. */
  work(1000000);
  xprof_reset();

  /* A fork child's counts start from zero and are its own. */
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    twin[0] += 5;
    puts("child done");
    return 0;
  }
  waitpid(pid, NULL, 0);

  for (int i = 4; i < 6; i++)
    pthread_create(&t[i], NULL, stay, NULL);
  pthread_mutex_lock(&mu);
  while (done < 2)
    pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
  return 0;
}
