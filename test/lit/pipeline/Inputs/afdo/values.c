/* A division (line 16) by the second argument and a copy (line 17) of
 * that many bytes and nine more, in main (declared on line 9), whose
 * graph the compilers make differently: trained with 7, the divisor is 7
 * and the length 16 every time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
  unsigned b = argc > 2 ? (unsigned)atoi(argv[2]) : 7;
  char src[64] = "abcdefghijklmnopqrstuvwxyz0123456789", dst[64] = {0};
  unsigned long s = 0;
  size_t len = b % 40 + 9;
  for (unsigned i = 0; i < n; i++) {
    s += i * 13 / b;
    memcpy(dst, src + i % 8, len);
    s += (unsigned char)dst[i % 16];
  }
  printf("%lu\n", s);
  return 0;
}
