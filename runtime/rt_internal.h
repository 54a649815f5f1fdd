/*
 * rt_internal.h - state shared by the runtime's sources.  Nothing here is
 * visible outside the runtime: the library is built with hidden
 * visibility, and only the entry points of the ABI (xprof_abi.h) and the
 * API of xprof_rt.h are exported.
 */
#ifndef XPROF_RT_INTERNAL_H
#define XPROF_RT_INTERNAL_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "xprof.h"
#include "xprof_abi.h"
#include "xprof_rt.h"

#define RT_EXPORT __attribute__((visibility("default")))
/* A stand-in for a C library function (exec.c, sigprof.c, notify.c,
 * threads.c): exported for every caller, weak so that a program or a
 * sanitizer's runtime that defines the name keeps its own. */
#define RT_WRAPPER RT_EXPORT __attribute__((weak))

/* A pointer's hash, for the runtime's tables of addresses, which take
 * its low bits: the product's high half folded in, since the low bits of
 * a product depend only on the low bits of the address (always zero in
 * a function's, aligned to 16). */
static inline size_t rt_hash_ptr(const void *p) {
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
  return (size_t)(h ^ (h >> 29));
}

/* One lock for the object list, dumps and fork, taken by rt_enter and
 * released by rt_leave.  While a thread holds it or the memory lock,
 * rt_busy is not 0 in that thread.  With the lock held the runtime calls
 * the C library (open, write, rename, ...), which the program may have
 * interposed with instrumented code, and a signal handler may run
 * instrumented code at any moment: the runtime's entry points that such
 * code reaches must not wait for a lock that their own thread holds. */
extern __thread unsigned rt_busy;
void rt_enter(void);
void rt_leave(void);
/* rt_enter for the ways the program ends or replaces itself or asks for
 * a write or a reset (exit, quick_exit, exec, daemon, a dump, a reset,
 * an unloading object):
 * returns 1 with the lock held, or 0, after saying so, when this thread
 * is inside the runtime already -- a signal handler that interrupted it
 * called exit or exec -- where waiting for the lock would wait forever
 * for itself, and the data is half-way through an update anyway.  WHAT
 * names the occasion in the message. */
int rt_enter_unless_inside(const char *what);
extern struct xprof_abi_object *rt_objects;

/* libc_symbol.c: the address of a function that a loaded module defines
 * under name, or NULL; found without dlsym, which may call the program's
 * allocator. */
void *rt_loaded_function(const char *name);
/* The same, past the module that holds self: the function that the
 * runtime's own of that name stands in front of (dlsym(RTLD_NEXT)'s).
 * NULL in a static link, which has no dynamic symbol tables. */
void *rt_next_function(const char *name, const void *self);
/* rt_next_function's, else `fallback` (libc.a's name for it, or the
 * runtime's own way, in a static link). */
void *rt_next_function_or(const char *name, const void *self, void *fallback);
/* rt_next_function_or's, kept in *slot from the first call that finds one
 * (a NULL is looked for again).  Not for signal handlers: the lookup
 * walks the loaded modules (sigprof.c finds its functions at start). */
void *rt_next_function_once(void **slot, const char *name, const void *self, void *fallback);

/* Print "xprof: ..." on stderr. */
void rt_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Around the runtime's own writes (the profile; its messages on stderr,
 * which may be a file or a pipe): a write past the process's file size
 * limit (RLIMIT_FSIZE) raises SIGXFSZ, and one to a pipe whose reader is
 * gone raises SIGPIPE, both of which end the process by default: the
 * program would lose its exit status and unflushed output to the runtime
 * (as it does under GCC's and clang's).  rt_hold_write_signals blocks
 * both in this thread, so that such a write only fails (EFBIG, EPIPE),
 * and returns which were pending already; rt_release_write_signals takes
 * back those that became pending meanwhile (the runtime's own) and
 * restores the mask. */
int rt_hold_write_signals(sigset_t *old);
void rt_release_write_signals(const sigset_t *old, int pending_before);

/* Settings read from the environment once, at the first registration. */
struct rt_settings {
  xprof_replace replace;
  unsigned async_interval; /* seconds, 0 = off */
  int async_verbose;
  int initialized;
};
extern struct rt_settings rt_settings;
void rt_read_settings(void);
/* The value of an environment variable, read from environ: never through
 * getenv, which a program may define itself (a shell answers it from its
 * own variables) with instrumented code that the runtime's own reads
 * would count.  NULL when unset.  rt_secure_getenv: NULL as well in a
 * program that runs set-user-ID or set-group-ID (AT_SECURE). */
const char *rt_getenv(const char *name);
const char *rt_secure_getenv(const char *name);

/* Module (executable or shared library) that holds an object. */
const char *rt_object_module(const struct xprof_abi_object *obj);
/* Profile directory for an object at this moment (malloc'd). */
char *rt_profile_dir(const struct xprof_abi_object *obj);

/* When a write happens.  From RT_AT_EXIT on, the process (or this image
 * of it) ends: data a failed write could not store is lost, not kept for
 * the next write.  An object's unloading (dlclose, or its destructor at
 * exit) comes before: the process may go on, and the next write may
 * carry what this one could not. */
enum rt_occasion {
  RT_ON_REQUEST,
  RT_PERIODIC,
  RT_AT_UNLOAD,
  RT_AT_EXIT,
  RT_AT_SIGNAL, /* SUN_PROFDATA_SIGNALS: the process is ending */
  RT_BEFORE_EXEC,
  RT_BEFORE_DAEMON
};

/* Set by the dump of GCC's or clang's own runtime interface (compat.c):
 * no write but one on request until a reset or fork clears it. */
extern int rt_dumped;

/* Write the counts of the registered objects (all, or just `only`) and
 * zero them; caller holds rt_lock.  Returns 0 or -1 (0 without writing
 * anything when rt_dumped stops a write not on request). */
int rt_dump_locked(const struct xprof_abi_object *only, enum rt_occasion when);
/* Zero counters and value profiles (all objects, or just `only`). */
void rt_zero_locked(const struct xprof_abi_object *only);
/* Drop data kept from failed writes. */
void rt_drop_pending_locked(void);
/* Forget which profile directories this process counted its run in. */
void rt_forget_runs_locked(void);
/* first_run.c: the last rank given before the fork that made this
 * process (0: not forked); set in a fork's child. */
extern uint64_t rt_first_run_floor;
void rt_first_run_fork_child(void);

/* Value profiles: the words of a site's state, and of a copy that
 * rt_vp_pairs can turn into (value, count) pairs; copy a site's state out
 * and clear it; turn a copy into pairs, returning how many. */
uint32_t rt_vp_words(const uint64_t *state);
uint32_t rt_vp_copy_words(const uint64_t *state);
void rt_vp_take(uint64_t *state, uint64_t *copy, uint32_t words);
uint32_t rt_vp_pairs(uint64_t *copy);
void rt_vp_clear(uint64_t *state);
/* Whether a site recorded a value since it was last taken or cleared. */
int rt_vp_counted(const uint64_t *state);

/* Per-thread counters (threads.c); the _locked ones want rt_lock held. */
void rt_threads_register_locked(const struct xprof_abi_object *obj);
void rt_threads_unregister_locked(const struct xprof_abi_object *obj);
/* Add to sum[] what the threads counted for rp since the last call. */
void rt_threads_take(const struct xprof_abi_object *obj,
                     const struct xprof_abi_proc *rp, uint64_t *sum);
/* Whether a thread counted in rp's array (any procedure's part of it)
 * since the last rt_threads_take: a look that changes nothing.  *looked
 * is the array looked at last (NULL at first): the procedures of an
 * object share one, which is looked at once. */
int rt_threads_counted(const struct xprof_abi_object *obj, const struct xprof_abi_proc *rp,
                       const uint64_t **looked);
void rt_threads_reset_locked(void);
void rt_threads_fork_child_locked(void);
void rt_threads_exiting_locked(void);
void rt_threads_unload(void);
/* Make the calling thread known, one the C library started (notify.c). */
void rt_threads_adopt(void);
/* Room for the twins on the stacks of threads that the C library starts
 * with the program's attributes (threads.c). */
size_t rt_threads_room_begin(pthread_attr_t *attr);
void rt_threads_room_end(pthread_attr_t *attr, size_t before);

/* The runtime's memory (memory.c): held across fork by the fork handlers. */
void rt_memory_fork_prepare(void);
void rt_memory_fork_done(void);

/* The interval writer (SUN_PROFDATA_ASYNC_INTERVAL). */
void rt_async_start(void);
void rt_async_stop(void); /* request only; rt_lock may be held */
void rt_async_join(void); /* rt_lock must not be held */

/* SUN_PROFDATA_SIGNALS (signals.c): handlers and the thread that writes
 * the profile when one of the signals comes. */
void rt_signals_start(void);
void rt_signals_fork_child(void);
void rt_signals_stop(void); /* rt_lock must not be held */

/* Time samples (sample.c, SUN_PROFDATA_SAMPLE): start at the first
 * registration; look for images loaded or unloaded (rt_lock held); move
 * the samples into a profile snapshot (0, or -1 when out of memory);
 * a forked child's fresh start; the timer around an exec. */
void rt_sample_start(void);
void rt_sample_check_locked(void);
int rt_sample_take_locked(xprof_profile *p);
void rt_sample_fork_child_locked(void);
void rt_sample_stop_for_exec(void);
void rt_sample_resume_after_exec(void);
/* The program is about to set SIGPROF's action, to its default or to be
 * ignored, or to a handler, or to set the profiling timer, or to make a
 * timer that sends SIGPROF: the sampler stops first (any thread, also in
 * a signal handler; no lock). */
enum rt_sigprof_change {
  RT_SIGPROF_DEFAULT,
  RT_SIGPROF_HANDLER,
  RT_SIGPROF_TIMER,
  RT_SIGPROF_POSIX_TIMER,
  RT_SIGPROF_WAIT, /* it waits for SIGPROF alone (sigwait, signalfd) */
  RT_SIGPROF_FOUND /* sample.c's own: a change found at a check */
};
void rt_sample_yield(enum rt_sigprof_change how);
/* Whether this process's sampler is sending SIGPROF now. */
int rt_sample_active(void);
/* Whether act is the sampler's own action for SIGPROF (a program that
 * saved every signal's action and puts them back). */
int rt_sample_own_action(const struct sigaction *act);

/* sigprof.c: the runtime's sigaction, signal(), sigset, setitimer and
 * the others find the functions they stand in front of (at the first
 * registration); the runtime's own calls, which must not go through
 * them. */
void rt_sigprof_start(void);
int rt_sigaction(int sig, const struct sigaction *act, struct sigaction *old);
struct itimerval;
int rt_setitimer(int which, const struct itimerval *value, struct itimerval *old);
int rt_getitimer(int which, struct itimerval *value);

#endif
