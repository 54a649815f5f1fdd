// malloc, calloc and free that forward to the C library's through
// dlsym(RTLD_NEXT) after an indirect call, position-independent: the
// training run hung (the runtime called malloc with its lock held).
// RUN: %corpus %s | FileCheck %s
// corpus: flags=-O2 -fpic
// corpus: sources=dlsym-malloc.c
// corpus: link=-ldl
// corpus: train=40
// corpus: train=60
// CHECK: gcc: training: 2 runs as plain; profile: 1 program, 2 object files, 7 procedures (7 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 2 runs as plain; profile: 1 program, 2 object files, 7 procedures (7 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t dlsym_calls(void);

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  char **words = calloc((size_t)n, sizeof *words);
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    words[i] = malloc(16);
    snprintf(words[i], 16, "w%d", i * 7);
    total += strlen(words[i]);
  }
  for (int i = 0; i < n; i++)
    free(words[i]);
  free(words);
  printf("%d words, %zu letters, calls seen: %s\n", n, total,
         dlsym_calls() >= (size_t)n ? "all" : "some missing");
  return 0;
}
