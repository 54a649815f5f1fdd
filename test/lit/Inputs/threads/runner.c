/* Not instrumented: thread bodies. */
#include <pthread.h>

long work(long n);

struct job {
  long (*lib)(long);
  int stay;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int busy_done;

static void *run(void *arg) {
  struct job *j = arg;
  work(100000);
  j->lib(50000);
  if (j->stay) {
    pthread_mutex_lock(&mu);
    busy_done++;
    pthread_cond_broadcast(&cv);
    for (;;)
      pthread_cond_wait(&cv, &mu);
  }
  return 0;
}

void start_threads(int n, int stay, long (*lib)(long)) {
  static struct job jobs[2];
  pthread_t t[16];
  jobs[stay] = (struct job){lib, stay};
  for (int i = 0; i < n; i++)
    pthread_create(&t[i], 0, run, &jobs[stay]);
  if (!stay)
    for (int i = 0; i < n; i++)
      pthread_join(t[i], 0);
}

void wait_busy(int n) {
  pthread_mutex_lock(&mu);
  while (busy_done < n)
    pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
}
