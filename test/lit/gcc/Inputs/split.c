/* Partial inlining: get() returns at once for most keys and searches at
 * length for the others; GCC -O2 cuts it in two (get.part.0).  Usage:
 * split N. */
#include <stdio.h>
#include <stdlib.h>

static int table[4096];

int get(int key) {
  if (key < 16)
    return table[key];
  int best = 0;
  for (int i = 0; i < 4096; i++)
    if (table[i] % (key | 1) == 0 && table[i] > best)
      best = table[i] ^ key;
  for (int i = 0; i < 4096; i += 3)
    best += table[i] % 7 == key % 7;
  printf("slow %d\n", key);
  return best;
}

__attribute__((noinline)) int a(int k) { return get(k) + 1; }
__attribute__((noinline)) int b(int k) { return get(k) * 3; }
__attribute__((noinline)) int c(int k) { return get(k) - 5; }
/* Options of its own: the splitter stays off for it in both builds. */
__attribute__((noinline, optimize("O3"))) int d(int k) { return get(k) ^ 7; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  for (int i = 0; i < 4096; i++)
    table[i] = (i * 2654435761u) >> 7;
  long s = 0;
  for (int i = 0; i < n; i++) {
    int k = i % 1000 == 999 ? 100 + i % 13 : i % 16;
    s += a(k) + b(k) + c(k) + d(k);
  }
  printf("%ld\n", s);
  return 0;
}
