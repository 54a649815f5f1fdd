/* spin.c - bench_sampling.sh's program of pure CPU time: a loop of N
 * additions (argument), nothing else. */
#include <stdio.h>
#include <stdlib.h>
static volatile double sink;
__attribute__((noinline)) static void work(long n) { for (long i = 0; i < n; i++) sink += i * 0.5; }
int main(int argc, char **argv) { work(argc > 1 ? atol(argv[1]) : 0); printf("%d\n", sink > 0); return 0; }
