/* The program of the asm-source-* tests: C calling an assembler function. */
#include <stdio.h>
#include <stdlib.h>

long asm_add(long a, long b);

__attribute__((noinline)) static long fold(long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s = asm_add(s, i % 3 ? i : -i);
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10;
  printf("%ld\n", fold(n));
  return 0;
}
