/* memset with lengths of many histogram buckets, each a different number
 * of times: length L <= 8 L + 1 times; 16, 32, 64 and 128 10, 11, 12 and
 * 13 times; eight other lengths twice each, four of them longer than 128
 * (8 in the last bucket). */
#include <stdio.h>
#include <string.h>

static char buf[1 << 20];

__attribute__((noinline)) void fill(size_t n, int c) { memset(buf, c, n); }

int main(void) {
  static const size_t others[] = {9, 15, 17, 100, 129, 130, 4096, 1 << 20};
  for (size_t l = 0; l <= 8; l++)
    for (size_t k = 0; k <= l; k++)
      fill(l, 1);
  for (size_t p = 16, times = 10; p <= 128; p *= 2, times++)
    for (size_t k = 0; k < times; k++)
      fill(p, 2);
  for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
    fill(others[i], 3);
    fill(others[i], 4);
  }
  printf("%d %d %d\n", buf[0], buf[99], buf[(1 << 20) - 1]);
  return 0;
}
