// Per-thread copies under thread churn: 1,600 short threads, eight at a
// time, each running two of fifty procedures of one array (a copy of the
// array, made when a thread first runs its code or taken from those of
// threads that ended, and passed on, counts and all, when the thread
// ends), while the main thread writes the profile now and then.  Every
// count is exact and nothing is counted twice; the runtime's memory is
// clean under memcheck and AddressSanitizer.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/churn
// RUN: %t/churn
// RUN: xprof_btoa churn.profile - | awk -f %S/Inputs/churn-check.awk | FileCheck %s
// CHECK: procedures 50, exact 50
// RUN: rm -rf churn.profile && valgrind -q --error-exitcode=1 %t/churn 200
// RUN: xprof_btoa churn.profile - | awk -v scale=8 -f %S/Inputs/churn-check.awk | FileCheck %s
// RUN: %cc_san_rt %s -o %t/churn-san && %t/churn-san
// RUN: xprof_btoa churn-san.profile - | awk -f %S/Inputs/churn-check.awk | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

#include "handmade.h"

#define N_PROCS 50
#define WORDS 3

static uint64_t array[N_PROCS * WORDS];
static __thread intptr_t array_tls;
static struct xprof_abi_proc procs[N_PROCS];
static char names[N_PROCS][8];
XP_THREAD_OBJECT(obj, "/handmade/churn.o", 0x9, procs, array)

__attribute__((constructor(101))) static void make_table(void) {
  for (int p = 0; p < N_PROCS; p++) {
    snprintf(names[p], sizeof names[p], "p%d", p);
    procs[p] = (struct xprof_abi_proc){names[p], 0x100 + (uint64_t)p, (uint32_t)p, WORDS,
                                      &array[p * WORDS], 0, (uint32_t)(p * WORDS),
                                      NULL, NULL, NULL, NULL};
  }
}

/* One run of procedure p: 1, 10 and 100 in its three counters. */
static void run(int p) {
  uint64_t *c = xp_thread_copy(array, &array_tls) + p * WORDS;
  c[0] += 1;
  c[1] += 10;
  c[2] += 100;
}

static void *thread(void *arg) {
  long i = (long)arg;
  run((int)(i % N_PROCS));
  run((int)((i * 7 + 3) % N_PROCS));
  return NULL;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1600;
  pthread_t t[8];
  for (long i = 0; i < n; i += 8) {
    for (long k = 0; k < 8; k++)
      pthread_create(&t[k], NULL, thread, (void *)(i + k));
    if (i % 400 == 0 && xprof_dump() != 0)
      return 1;
    for (int k = 0; k < 8; k++)
      pthread_join(t[k], NULL);
  }
  return 0;
}
