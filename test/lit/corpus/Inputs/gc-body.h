/* The program of the gc-sections-* tests: functions and data the linker
 * collects. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int used(int x) { return x * x + 1; }
__attribute__((noinline)) int unused_one(int x) { return x - 1; }
__attribute__((noinline)) int unused_two(int x) { return unused_one(x) * 2; }
int unused_table[1000] = {1};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3, s = 0;
  for (int i = 0; i < n; i++)
    s += used(i);
  printf("%d\n", s);
  return 0;
}
