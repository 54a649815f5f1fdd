#!/usr/bin/env bash
# gen.sh FUNCS [THREADS] [BATCH]: print a C program that starts THREADS
# short-lived threads (default 20000), BATCH at a time (default 4), each
# calling 20 of FUNCS functions of 30 two-way branches each through a
# table.  The counter set grows with FUNCS, the work of a thread does
# not: the program measures what a thread's start and end cost a
# profiling runtime, as a thread-per-connection server or a parallel
# test driver without a pool would.
funcs=${1:?FUNCS}
threads=${2:-20000}
batch=${3:-4}
cat <<HEAD
#include <pthread.h>
#include <stdio.h>

typedef unsigned long (*fn)(unsigned long);
/* A call in one arm of each branch keeps the compilers from turning the
 * branches into selects: each stays two counted ways. */
__attribute__((noinline)) static unsigned long mix(unsigned long r, unsigned long k) {
  return (r ^ k) * 0x9e3779b97f4a7c15ul;
}
HEAD
for ((f = 0; f < funcs; f++)); do
  echo "static unsigned long f$f(unsigned long x) {"
  echo "  unsigned long r = x ^ $((f * 2654435761 % 1000003));"
  for ((b = 0; b < 30; b++)); do
    echo "  if ((x >> $((b % 16))) & $(((b % 3) + 1))) r += r >> $((b % 5 + 1)); else r = mix(r, $((b * 40503 + f)));"
  done
  echo "  return r;"
  echo "}"
done
echo "static const fn table[$funcs] = {"
for ((f = 0; f < funcs; f++)); do echo "  f$f,"; done
echo "};"
cat <<TAIL

struct job { unsigned long seed, result; };

#ifdef TLS_WORDS
/* -DTLS_WORDS=N: a thread-local array of N words, which the C library
 * zeroes at every thread's start, as it zeroes xprof's twins: what
 * static TLS of that size costs a thread, without any profiling. */
/* Not static: a static array only stored to would be dropped by GCC. */
__thread unsigned long tls_words[TLS_WORDS];
#endif

static void *work(void *p) {
  struct job *j = p;
  unsigned long acc = 0;
  for (unsigned long k = 0; k < 20; k++)
    acc += table[(j->seed * 7919 + k * 104729) % $funcs](j->seed + k);
  j->result = acc;
#ifdef TLS_WORDS
  tls_words[j->seed % TLS_WORDS] = acc;
#endif
  return NULL;
}

int main(void) {
  pthread_t t[$batch];
  struct job jobs[$batch];
  unsigned long sum = 0;
  for (unsigned long i = 0; i < $threads; i += $batch) {
    for (int b = 0; b < $batch; b++) {
      jobs[b].seed = i + b;
      if (pthread_create(&t[b], NULL, work, &jobs[b]) != 0)
        return 1;
    }
    for (int b = 0; b < $batch; b++) {
      pthread_join(t[b], NULL);
      sum += jobs[b].result;
    }
  }
  printf("%lu\n", sum);
  return 0;
}
TAIL
