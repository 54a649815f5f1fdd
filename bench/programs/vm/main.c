/* main.c - vm [-q] [-n REPEAT] FILE: run a program, print a summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm.h"

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t r;
  while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += r;
    if (n + 1 == cap) {
      char *b = realloc(buf, cap * 2);
      if (!b) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = b;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf)
    buf[n] = 0;
  return buf;
}

int main(int argc, char **argv) {
  int quiet = 0, repeat = 1, i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (strcmp(argv[i], "-q") == 0)
      quiet = 1;
    else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
      repeat = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: vm [-q] [-n REPEAT] FILE\n");
      return 2;
    }
  }
  if (i != argc - 1) {
    fprintf(stderr, "usage: vm [-q] [-n REPEAT] FILE\n");
    return 2;
  }
  char *text = read_file(argv[i]);
  if (!text) {
    perror(argv[i]);
    return 1;
  }
  char err[256];
  struct program prog = {0};
  if (vm_parse(text, &prog, err, sizeof err) < 0) {
    fprintf(stderr, "%s: %s\n", argv[i], err);
    return 1;
  }
  vm_ops_init();
  uint64_t steps = 0;
  int64_t checksum = 0;
  for (int r = 0; r < repeat; r++) {
    static struct vm vm;
    memset(&vm, 0, sizeof vm);
    vm.quiet = quiet || r > 0;
    if (vm_run(&prog, &vm, err, sizeof err) < 0) {
      fprintf(stderr, "%s: %s\n", argv[i], err);
      return 1;
    }
    steps += vm.steps;
    checksum = checksum * 7 + vm.checksum;
  }
  printf("steps %llu checksum %lld\n", (unsigned long long)steps,
         (long long)checksum);
  free(prog.code);
  free(text);
  return 0;
}
