/* Threads that count and end, threads that count and are still alive
 * when the process exits, a fork child, an instrumented library loaded
 * with dlopen, called indirectly too.  The thread bodies are in a file compiled without xprof,
 * so that every instrumented function has returned at exit. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

long work(long n);
void start_threads(int n, int stay, long (*lib)(long));
void wait_busy(int n);

int main(int argc, char **argv) {
  void *h = dlopen(argc > 1 ? argv[1] : "./libwork.so", RTLD_NOW);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  long (*lib)(long) = (long (*)(long))dlsym(h, "lib_work");
  start_threads(4, 0, lib); /* joined */
  start_threads(4, 1, lib); /* stay */
  wait_busy(4);
  pid_t pid = fork();
  if (pid == 0) {
    printf("child %ld\n", work(10));
    return 0;
  }
  waitpid(pid, NULL, 0);
  printf("main %ld\n", work(7));
  /* An indirect call into the library: named, the library having
   * registered with the program's runtime. */
  printf("lib %ld\n", lib(3));
  return 0;
}
