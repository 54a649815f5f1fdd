// A program that replaces the whole allocator, realloc and the aligned
// forms included; its buffers grow with realloc.
// RUN: %corpus %s | FileCheck %s
// corpus: sources=freelist-malloc.c
// corpus: train=500
// corpus: run=800
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 2 object files, 11 procedures (7 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 2 object files, 11 procedures (7 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned long freelist_live(void);

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  size_t len = 0, cap = 1;
  char *text = malloc(cap);
  for (int i = 0; i < n; i++) {
    char word[32];
    int k = snprintf(word, sizeof word, "%d,", i * i);
    while (len + (size_t)k + 1 > cap) {
      cap *= 2;
      text = realloc(text, cap);
    }
    memcpy(text + len, word, (size_t)k + 1);
    len += (size_t)k;
  }
  void *aligned = NULL;
  if (posix_memalign(&aligned, 256, 1000) != 0 || (size_t)aligned % 256)
    return 1;
  free(aligned);
  unsigned long sum = 0;
  for (size_t i = 0; i < len; i++)
    sum = sum * 31 + (unsigned char)text[i];
  free(text);
  printf("%zu bytes, hash %lu, %lu blocks live\n", len, sum % 1000003, freelist_live());
  return 0;
}
