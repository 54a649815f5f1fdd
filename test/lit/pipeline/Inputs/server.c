/* A server: 8 threads work until a signal ends the process.  "exit-handler"
 * installs a SIGTERM handler of the program's own that calls exit(3);
 * "abort", "crash" and "_exit" end that way 2.5 seconds after it is
 * ready. */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile unsigned long sink;
static int started;

static void *worker(void *arg) {
  unsigned long id = (unsigned long)arg, local = 0;
  __atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
  for (;;) {
    local += id;
    if (local % 7 == 0)
      sink++;
  }
  return NULL;
}

static void on_term(int sig) {
  (void)sig;
  exit(3);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "exit-handler") == 0)
    signal(SIGTERM, on_term);
  pthread_t t[8];
  for (unsigned long i = 0; i < 8; i++)
    pthread_create(&t[i], NULL, worker, (void *)(i + 1));
  while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < 8)
    usleep(1000);
  printf("ready\n");
  fflush(stdout);
  if (argc > 1 && strcmp(argv[1], "exit-handler") != 0) {
    usleep(2500000);
    if (strcmp(argv[1], "abort") == 0)
      abort();
    if (strcmp(argv[1], "_exit") == 0)
      _exit(7);
    *(volatile int *)(uintptr_t)argc = 0; /* crash: SIGSEGV */
  }
  for (;;)
    pause();
}
