// A timer signal interrupts a loop full of indirect calls to many targets
// (value-profile records replacing values under their lock), and the
// handler makes indirect calls of its own: the recorder must not wait for
// a lock its own thread holds.
// RUN: %corpus %s | FileCheck %s
// corpus: train=3000000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 19 procedures (19 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 19 procedures (19 ran)
// CHECK: clang: use: as plain
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#define F(n) __attribute__((noinline)) static long h##n(long x) { return x + n; }
F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11) F(12) F(13) F(14) F(15)
static long (*const table[16])(long) = {h0, h1, h2,  h3,  h4,  h5,  h6,  h7,
                                        h8, h9, h10, h11, h12, h13, h14, h15};
static volatile sig_atomic_t ticks;
static volatile long in_handler;

static void tick(int sig) {
  (void)sig;
  ticks++;
  /* The same kind of call as the loop's, to every target in turn. */
  for (int k = 0; k < 16; k++)
    in_handler = table[(ticks + k) % 16](in_handler) % 1000;
}

__attribute__((noinline)) static long spin(long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s = table[(i * 7 + (i >> 3)) % 16](s) % 1000003;
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  signal(SIGALRM, tick);
  struct itimerval every = {{0, 200}, {0, 200}};
  setitimer(ITIMER_REAL, &every, NULL);
  long s = spin(n);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  printf("%ld\n", s);
  return 0;
}
