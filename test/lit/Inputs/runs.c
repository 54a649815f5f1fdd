/* runs.c - for runs.test: rare() runs in one training run of 41. */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static int rare(const char *s) {
  return s[0] * 31 + s[1] * 7 + s[2];
}

__attribute__((noinline)) static int common(int n) {
  int s = 0;
  for (int i = 0; i < n * 1000; i++)
    s += i % 7;
  return s;
}

int main(int argc, char **argv) {
  int s = common(argc);
  if (argc > 1 && strcmp(argv[1], "rare") == 0)
    s += rare(argv[1]);
  printf("%d\n", s);
  return 0;
}
