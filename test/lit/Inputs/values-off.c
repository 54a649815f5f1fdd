/* Value-profile sites of each kind: indirect calls (one hot, one run
 * once), a division by a variable, a copy of a variable length; the hot
 * ones nearly always with the same value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int inc(int x) { return x + 1; }
static int twice(int x) { return 2 * x; }
int (*volatile op)(int) = inc;
volatile unsigned divisor = 7;
volatile size_t len = 24;
char dst[64], src[64] = "the value profile of a copy";

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  unsigned sum = 0;
  for (int i = 0; i < n; i++) {
    sum += op(i);
    sum += (unsigned)i / divisor;
    memcpy(dst, src, len);
    sum += (unsigned char)dst[i % 24];
  }
  op = twice;
  printf("%u %d\n", sum, op(n));
  return 0;
}
