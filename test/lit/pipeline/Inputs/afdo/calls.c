/* An indirect call in a loop (line 14): op points at add six times in
 * seven, at sub the seventh. */
#include <stdio.h>
#include <stdlib.h>

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }

int (*volatile pick[2])(int, int) = {add, sub};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0;
  for (int i = 0; i < n; i++)
    s = pick[i % 7 == 0](s, i & 15);
  printf("%d\n", s);
  return 0;
}
