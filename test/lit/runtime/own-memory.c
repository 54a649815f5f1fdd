// The runtime never calls the program's allocator (GCC PR 97461: a program
// may replace malloc with one that cannot be entered from inside itself,
// or lacks realloc): this program's malloc, calloc, realloc and free abort
// whenever the runtime is at work -- registration, value-profile records
// that replace values, a thread's first count in a copy of its own, writes
// into a new and into an existing profile, and the write at exit.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/own
// RUN: %t/own && %t/own
// RUN: xprof_btoa own.profile - | FileCheck %s
// CHECK:      PROC: main 0x1 1 1 1 0
// CHECK-NEXT: 0 4
// CHECK-NEXT: VP_PROC 0 {{[0-9]+}} t0:/handmade/own.o
// CHECK:      PROC: worker 0x5 2 0 0 0
// CHECK-NEXT: 0 2
// CHECK-NEXT: 1 200
//
// Its own memory is checked as malloc's would be: clean under memcheck,
// and a block the runtime loses is reported as lost.
// RUN: valgrind -q --leak-check=full --error-exitcode=1 %t/own
// RUN: not valgrind -q --leak-check=full --error-exitcode=1 %t/own leak 2>&1 | FileCheck --check-prefix=LEAK %s
// LEAK: 100 bytes in 1 blocks are definitely lost
// LEAK: xprof_malloc
// And under AddressSanitizer, a write past the end of a block is caught.
// RUN: %cc_san_rt %s -o %t/own-san
// RUN: %t/own-san
// RUN: not %t/own-san overrun 2>&1 | FileCheck --check-prefix=PAST-END %s
// PAST-END: ERROR: AddressSanitizer: use-after-poison
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "handmade.h"
#include "xprof.h"

/* ---- the program's allocator: glibc's, refused while `forbid` is set */

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static volatile int forbid;

static void refuse(const char *what) {
  static const char tail[] = " called from inside the xprof runtime\n";
  write(2, what, strlen(what));
  write(2, tail, sizeof tail - 1);
  abort();
}

void *malloc(size_t n) {
  if (forbid)
    refuse("malloc");
  return __libc_malloc(n);
}
void *calloc(size_t n, size_t size) {
  if (forbid)
    refuse("calloc");
  return __libc_calloc(n, size);
}
void *realloc(void *p, size_t n) {
  if (forbid)
    refuse("realloc");
  return __libc_realloc(p, n);
}
void free(void *p) {
  if (forbid && p)
    refuse("free");
  __libc_free(p);
}

/* ---- an object file with targets enough that naming them sorts a table
 * larger than the sort's stack buffer, and a per-thread counter array */

#define T(k) \
  void t##k(void) {}
T(0) T(1) T(2) T(3) T(4) T(5) T(6) T(7) T(8) T(9) T(10) T(11) T(12) T(13) T(14)
T(15) T(16) T(17) T(18) T(19)
#undef T
static void (*const targets[])(void) = {t0,  t1,  t2,  t3,  t4,  t5,  t6,
                                        t7,  t8,  t9,  t10, t11, t12, t13,
                                        t14, t15, t16, t17, t18, t19};

static uint64_t counters[1];
static uint64_t site[XPROF_ABI_VP_WORDS(4)] = {4};
static const struct xprof_abi_vp_site sites[] = {{XPROF_ABI_VP_PROC, 0, site}};
#define TP(k) XP_TARGET(t##k, 0x100 + k, 0, counters)
static const struct xprof_abi_proc procs[] = {
    {"main", 0x1, 0, 1, counters, 1, 0, sites, NULL},
    TP(0), TP(1), TP(2), TP(3), TP(4), TP(5), TP(6), TP(7), TP(8), TP(9),
    TP(10), TP(11), TP(12), TP(13), TP(14), TP(15), TP(16), TP(17), TP(18), TP(19)};
#undef TP
XP_OBJECT(obj, "/handmade/own.o", 0x9, 4, NULL, procs, counters)

static uint64_t array[2];
static intptr_t tls_word;
static __thread intptr_t *tls_of_thread;
static const struct xprof_abi_proc worker_procs[] = {
    {"worker", 0x5, 0, 2, array, 0, 0, NULL, NULL, NULL}};
XP_THREAD_OBJECT(wobj, "/handmade/own-threads.o", 0x6, worker_procs, array)

/* Registration is the runtime's first work: forbidden from the start. */
__attribute__((constructor(101))) static void forbid_early(void) { forbid = 1; }

static void *worker(void *arg) {
  (void)arg;
  tls_of_thread = &tls_word;
  forbid = 1;
  uint64_t *mine = xp_thread_copy(array, tls_of_thread);
  mine[0]++;
  for (int i = 0; i < 100; i++)
    mine[1]++;
  forbid = 0;
  return NULL;
}

int main(int argc, char **argv) {
  forbid = 0; /* main's own work: printf, pthread_create */
  if (argc > 1 && strcmp(argv[1], "leak") == 0) {
    xprof_malloc(100); /* a block nobody frees or points at */
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "overrun") == 0) {
    char *p = xprof_malloc(10);
    p[12] = 1;
    return 0;
  }
  pthread_t t;
  if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL) != 0)
    return 1;
  forbid = 1;
  XP_INC(counters, 0);
  /* More distinct callees than pairs: values get replaced under the lock. */
  for (int i = 0; i < 1000; i++)
    __xprof_vp_proc(site, (const void *)targets[i % 7 == 0 ? i % 20 : 0]);
  if (xprof_dump() != 0) /* into a new or into an existing profile */
    return 1;
  XP_INC(counters, 0);
  return 0; /* the write at exit is forbidden to allocate too */
}
