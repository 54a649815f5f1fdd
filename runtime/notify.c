/*
 * notify.c - the functions that make a timer or a notification: a
 * program's function that the C library runs in a thread of its own
 * (SIGEV_THREAD), and timers that send SIGPROF.
 *
 * timer_create and mq_notify with SIGEV_THREAD run the program's
 * function in threads that the C library starts with its own
 * pthread_create, not the runtime's (threads.c), so the runtime does not
 * know them, and what the executable's code counts in their thread-local
 * twins would be lost when they end.  So the runtime stands in front of
 * both and gives the C library a function of its own to run
 * (notify_start), which makes the thread known (rt_threads_adopt) and
 * then calls the program's with the program's value; where the program
 * gives the threads' attributes, their stacks get room for the twins, as
 * pthread_create's do (the C library copies the attributes in the call).
 * The record that carries function and value goes with a message queue's
 * notification, which comes once; a timer's is kept for as long as the
 * process lives (a timer may fire in a thread that starts after
 * timer_delete), one record for each function and value.
 *
 * A timer that sends SIGPROF (a CPU profiler's: gperftools' per-thread
 * timers, Go's runtime) would have its handler take the sampler's ticks
 * for its own: the sampler stops first (rt_sample_yield), as when the
 * program sets ITIMER_PROF (sigprof.c).
 *
 * Like the other stand-ins these are weak and exported, and call the next
 * definition of their name, else (a static link) libc.a's under its other
 * name, which the drivers make the linker take.  Not seen: aio_read and
 * the like (their sigevent is in the program's control block, which the
 * C library reads when the request completes) and getaddrinfo_a.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <mqueue.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rt_internal.h"

typedef void (*notify_fn)(union sigval);
typedef int (*timer_create_fn)(clockid_t, struct sigevent *, timer_t *);
typedef int (*mq_notify_fn)(mqd_t, const struct sigevent *);

/* glibc's other names for them, in libc.a. */
extern int ___timer_create(clockid_t, struct sigevent *, timer_t *) __attribute__((weak));
extern int __mq_notify(mqd_t, const struct sigevent *) __attribute__((weak));

/* The program's function and value, for notify_start. */
struct notify {
  notify_fn fn;
  union sigval value;
  int once;             /* a message queue's: freed by the one notification */
  struct notify *chain; /* the timers' records with the same hash */
};

/* The timers' records, by function and value: a program that makes and
 * deletes the same timer again and again keeps one. */
#define TIMER_BUCKETS 256
static struct notify *timer_records[TIMER_BUCKETS];
static pthread_mutex_t timer_records_lock = PTHREAD_MUTEX_INITIALIZER;

/* Run in the C library's thread: known to the runtime from here on,
 * counts made before included (the twins are read when it ends). */
static void notify_start(union sigval v) {
  struct notify *n = v.sival_ptr;
  notify_fn fn = n->fn;
  union sigval value = n->value;
  if (n->once)
    xprof_free(n);
  rt_threads_adopt();
  fn(value);
}

/* The record of a timer's fn and value: the one made before, or a new
 * one; NULL when out of memory. */
static struct notify *timer_record(notify_fn fn, union sigval value) {
  size_t h = rt_hash_ptr((const void *)fn) ^ rt_hash_ptr(value.sival_ptr);
  struct notify **b = &timer_records[(h >> 32 ^ h) % TIMER_BUCKETS], *n;
  pthread_mutex_lock(&timer_records_lock);
  for (n = *b; n && !(n->fn == fn && n->value.sival_ptr == value.sival_ptr); n = n->chain)
    ;
  if (!n && (n = xprof_calloc(1, sizeof *n)) != NULL) {
    n->fn = fn;
    n->value = value;
    n->chain = *b;
    *b = n;
  }
  pthread_mutex_unlock(&timer_records_lock);
  return n;
}

/* *copy: ev with notify_start to run instead and the record `n` for its
 * value; ev itself where n is NULL (out of memory: the thread then stays
 * unknown to the runtime). */
static const struct sigevent *through_notify_start(const struct sigevent *ev,
                                                   struct sigevent *copy, struct notify *n) {
  if (!n)
    return ev;
  *copy = *ev;
  copy->sigev_notify_function = notify_start;
  copy->sigev_value.sival_ptr = n;
  return copy;
}

/* Whether a notification so runs a function in a thread. */
static int runs_thread(const struct sigevent *ev) {
  return ev && ev->sigev_notify == SIGEV_THREAD && ev->sigev_notify_function;
}

/* Whether a timer made so sends SIGPROF. */
static int sends_sigprof(const struct sigevent *ev) {
  return ev && ev->sigev_signo == SIGPROF &&
         (ev->sigev_notify == SIGEV_SIGNAL || ev->sigev_notify == SIGEV_THREAD_ID);
}

/* timer_create without the C library's (a static link made without the
 * drivers): the system call, whose timer id is glibc's timer_t for every
 * timer but one that runs a thread, which needs glibc's helper. */
static int timer_create_by_syscall(clockid_t clock, struct sigevent *ev, timer_t *id) {
  int kernel_id;
  if (ev && ev->sigev_notify == SIGEV_THREAD) {
    errno = ENOSYS;
    return -1;
  }
  if (syscall(SYS_timer_create, clock, ev, &kernel_id) < 0)
    return -1;
  *id = (timer_t)(intptr_t)kernel_id;
  return 0;
}

RT_WRAPPER int timer_create(clockid_t clock, struct sigevent *ev, timer_t *id) {
  static void *found;
  timer_create_fn next = (timer_create_fn)rt_next_function_once(
      &found, "timer_create", (void *)timer_create,
      ___timer_create ? (void *)___timer_create : (void *)timer_create_by_syscall);
  if (sends_sigprof(ev))
    rt_sample_yield(RT_SIGPROF_POSIX_TIMER);
  if (!runs_thread(ev))
    return next(clock, ev, id);
  struct sigevent copy;
  const struct sigevent *to = through_notify_start(
      ev, &copy, timer_record(ev->sigev_notify_function, ev->sigev_value));
  size_t before = rt_threads_room_begin(ev->sigev_notify_attributes);
  int rc = next(clock, (struct sigevent *)to, id);
  rt_threads_room_end(ev->sigev_notify_attributes, before);
  return rc;
}

/* mq_notify without the C library's: as if message queues could not
 * notify. */
static int mq_notify_unavailable(mqd_t q, const struct sigevent *ev) {
  (void)q;
  (void)ev;
  errno = ENOSYS;
  return -1;
}

RT_WRAPPER int mq_notify(mqd_t q, const struct sigevent *ev) {
  static void *found;
  mq_notify_fn next = (mq_notify_fn)rt_next_function_once(
      &found, "mq_notify", (void *)mq_notify,
      __mq_notify ? (void *)__mq_notify : (void *)mq_notify_unavailable);
  if (!runs_thread(ev))
    return next(q, ev);
  struct notify *n = xprof_calloc(1, sizeof *n);
  if (n) {
    n->fn = ev->sigev_notify_function;
    n->value = ev->sigev_value;
    n->once = 1;
  }
  struct sigevent copy;
  size_t before = rt_threads_room_begin(ev->sigev_notify_attributes);
  int rc = next(q, through_notify_start(ev, &copy, n));
  rt_threads_room_end(ev->sigev_notify_attributes, before);
  if (rc != 0)
    xprof_free(n);
  return rc;
}
