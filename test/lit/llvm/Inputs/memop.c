/* Copies and compares whose length is almost always 32 bytes: one in a
 * hundred takes another length.  Usage: memop N. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void copy(char *dst, const char *src, size_t n) {
  memcpy(dst, src, n);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  static char a[4096], b[4096];
  unsigned long sum = 0;
  for (int i = 0; i < n; i++) {
    size_t len = i % 100 == 99 ? (size_t)(i % 3000) : 32;
    a[i % 64] = (char)i;
    copy(b, a, len);
    sum += (unsigned char)b[len ? len - 1 : 0] + memcmp(a, b, len);
  }
  printf("%lu\n", sum);
  return 0;
}
