/*
 * handmade.h - object file descriptors built by hand exactly as the
 * compiler plugins emit them (runtime ABI 4), for the runtime's tests.
 *
 * A test defines its counters, value-profile states, sites and procedure
 * table, then XP_OBJECT(path, signature, n_values_per_vp, profile_name)
 * emits the descriptor plus the constructor and destructor.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "xprof_abi.h"
#include "xprof_rt.h"

#define XP_INC(counters, i) __atomic_fetch_add(&(counters)[i], 1, __ATOMIC_RELAXED)
#define XP_COUNT(a) (sizeof(a) / sizeof *(a))

/* A procedure with no counters of its own that indirect calls go to: its
 * address lets the runtime name it as a value-profile target. */
#define XP_TARGET(fn, sig, first, counters)                                   \
  { #fn, sig, first, 0, counters, 0, 0, NULL, (const void *)fn }

#ifndef XP_ABI
#define XP_ABI XPROF_ABI_VERSION
#endif

#define XP_OBJECT(objvar, path, sig, nvp, name, procs, counters)             \
  static struct xprof_abi_object objvar = {                                  \
      XP_ABI, XPROF_ABI_ATOMIC_COUNTERS, path, 1763777000, 0, nvp, sig,       \
      name, XP_COUNT(procs), XP_COUNT(counters), procs, counters, 0, {0}};   \
  __attribute__((constructor)) static void objvar##_ctor(void) {             \
    __xprof_register(&objvar);                                               \
  }                                                                          \
  __attribute__((destructor)) static void objvar##_dtor(void) {              \
    __xprof_unregister(&objvar);                                             \
  }

/* Per-thread counters (XPROF_ABI_THREAD_COUNTERS): the code the compilers
 * put at function entry, giving this thread's copy of `array`, whose
 * thread-local word is `tls`. */
static inline uint64_t *xp_thread_copy(uint64_t *array, intptr_t *tls) {
  intptr_t d = *tls;
  if (!d)
    d = __xprof_thread_counters(array, tls);
  return (uint64_t *)((uintptr_t)array + (uintptr_t)d * 8);
}

#define XP_THREAD_OBJECT(objvar, path, sig, procs, array)                    \
  static struct xprof_abi_object objvar = {                                  \
      XP_ABI, XPROF_ABI_THREAD_COUNTERS, path, 1763777000, 0, 2, sig, NULL,   \
      XP_COUNT(procs), XP_COUNT(array), procs, array, 0, {0}};               \
  __attribute__((constructor)) static void objvar##_ctor(void) {             \
    __xprof_register(&objvar);                                               \
  }                                                                          \
  __attribute__((destructor)) static void objvar##_dtor(void) {              \
    __xprof_unregister(&objvar);                                             \
  }

/* Run fn in n threads (at most 16), each given its number, and wait. */
static inline void xp_run_threads(int n, void *(*fn)(void *)) {
  pthread_t t[16];
  for (long i = 0; i < n && i < 16; i++)
    pthread_create(&t[i], NULL, fn, (void *)i);
  for (int i = 0; i < n && i < 16; i++)
    pthread_join(t[i], NULL);
}
