/*
 * async.c - SUN_PROFDATA_ASYNC_INTERVAL: a thread that writes the profile
 * every so many seconds, for programs that never exit.
 * SUN_PROFDATA_ASYNC_VERBOSE prints a line per write.
 */
#include <errno.h>
#include <time.h>

#include "rt_internal.h"

static pthread_t async_thread;
static int async_running;
static int async_stop_requested;
static pthread_mutex_t async_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t async_cond = PTHREAD_COND_INITIALIZER;

static void *async_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&async_mutex);
  for (;;) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += rt_settings.async_interval;
    int rc = 0;
    while (!async_stop_requested && rc != ETIMEDOUT)
      rc = pthread_cond_timedwait(&async_cond, &async_mutex, &until);
    if (async_stop_requested)
      break;
    pthread_mutex_unlock(&async_mutex);
    rt_enter();
    int ok = rt_dump_locked(NULL, RT_PERIODIC) == 0;
    rt_leave();
    if (ok && rt_settings.async_verbose)
      rt_message("periodic write of profile data (every %u s)",
                 rt_settings.async_interval);
    pthread_mutex_lock(&async_mutex);
  }
  pthread_mutex_unlock(&async_mutex);
  return NULL;
}

void rt_async_start(void) {
  pthread_mutex_lock(&async_mutex);
  async_running = 0; /* in a forked child the parent's thread is not there */
  async_stop_requested = 0;
  if (pthread_create(&async_thread, NULL, async_main, NULL) == 0)
    async_running = 1;
  else
    rt_message("cannot start the periodic writer thread; data is written "
               "at exit only");
  pthread_mutex_unlock(&async_mutex);
}

/* Safe with rt_lock held: only asks the thread to stop. */
void rt_async_stop(void) {
  pthread_mutex_lock(&async_mutex);
  async_stop_requested = 1;
  pthread_cond_signal(&async_cond);
  pthread_mutex_unlock(&async_mutex);
}

/* Without rt_lock held: stop the thread and wait for it, so that a shared
 * library holding this runtime can be unloaded safely. */
void rt_async_join(void) {
  pthread_mutex_lock(&async_mutex);
  int running = async_running;
  async_running = 0;
  async_stop_requested = 1;
  pthread_cond_signal(&async_cond);
  pthread_mutex_unlock(&async_mutex);
  if (running)
    pthread_join(async_thread, NULL);
}
