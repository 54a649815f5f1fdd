// OpenMP: the threads are libgomp's, started from its shared library
// through the runtime's exported pthread_create.
// RUN: %corpus %s | FileCheck %s
// corpus: compilers=gcc
// corpus: flags=-O2 -fopenmp
// corpus: env=OMP_NUM_THREADS=3
// corpus: train=200000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 3 procedures (3 ran)
// CHECK: gcc: use: as plain
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long term(long i) { return i % 7 == 0 ? i / 7 : i % 5; }

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000, sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (long i = 0; i < n; i++)
    sum += term(i);
  printf("%ld\n", sum);
  return 0;
}
