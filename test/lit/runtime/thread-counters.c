// Per-thread counters (the default update mode): plain adds in each
// thread's copy of the counter arrays add up exactly -- threads that
// exited, threads still running at exit, a write on request in between
// (nothing counted twice), xprof_reset, and a fork child counting from
// zero.  A comdat-style array shared by two procedure tables is one array.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/tc
// RUN: %t/tc > out.txt
// RUN: FileCheck --check-prefix=OUT %s < out.txt
// OUT: first write 0
// OUT: child done
// RUN: xprof_btoa tc.profile - | FileCheck %s
// CHECK:      PROC: main 0x1 1 0 0 0
// CHECK-NEXT: 0 1
// CHECK:      PROC: work 0x2 2 0 0 1
// CHECK-NEXT: 0 8
// CHECK-NEXT: 1 8000000
// CHECK:      PROC: shared 0x3 1 0 0 2
// CHECK-NEXT: 0 9
// CHECK:      PROC: shared 0x3 1 0 0 0
// CHECK-NEXT: 0 9
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "handmade.h"

/* main, work x2; and their thread-local word */
static uint64_t array[3];
static __thread intptr_t array_tls;
/* A comdat function's own array, listed in two tables (two objects). */
static uint64_t comdat[1];
static __thread intptr_t comdat_tls;
static const struct xprof_abi_proc procs[] = {
    {"main", 0x1, 0, 1, &array[0], 0, 0, NULL, NULL},
    {"work", 0x2, 1, 2, &array[1], 0, 1, NULL, NULL},
    {"shared", 0x3, 2, 1, &comdat[0], 0, 0, NULL, NULL},
};
static const struct xprof_abi_proc procs2[] = {
    {"shared", 0x3, 0, 1, &comdat[0], 0, 0, NULL, NULL},
};
static uint64_t array2[1];
XP_THREAD_OBJECT(obj, "/handmade/tc.o", 0x7, procs, array)
XP_THREAD_OBJECT(obj2, "/handmade/tc2.o", 0x3, procs2, array2)

static void shared(void) { xp_thread_copy(comdat, &comdat_tls)[0]++; }

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int done;

static void *work(void *arg) {
  uint64_t *c = xp_thread_copy(array, &array_tls);
  c[1]++;
  for (int i = 0; i < 1000000; i++)
    c[2]++;
  shared();
  if (arg) { /* stay alive until the process exits */
    pthread_mutex_lock(&mu);
    done++;
    pthread_cond_broadcast(&cv);
    for (;;)
      pthread_cond_wait(&cv, &mu);
  }
  return NULL;
}

int main(void) {
  xp_thread_copy(array, &array_tls)[0]++;
  pthread_t t[8];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, work, NULL);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  printf("first write %d\n", xprof_dump());
  fflush(stdout);

  /* Counted, then forgotten. */
  work(NULL);
  xprof_reset();

  /* A fork child's counts start from zero and are its own. */
  pid_t pid = fork();
  if (pid == 0) {
    shared();
    puts("child done");
    return 0;
  }
  waitpid(pid, NULL, 0);

  for (int i = 4; i < 8; i++)
    pthread_create(&t[i], NULL, work, (void *)1);
  pthread_mutex_lock(&mu);
  while (done < 4)
    pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
  return 0;
}
