/* Functions defined in the reverse of the order in which they first run:
 * main, then early, then middle (hot), then late; never does not run.
 * "main N late" calls late first.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int never(int x) { return x / 3 + x % 7; }
__attribute__((noinline)) int late(int x) { return x * 3 + 1; }
__attribute__((noinline)) int middle(int x) { return x - 7; }
__attribute__((noinline)) int early(int x) { return x ^ 5; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0;
  if (argc > 2 && strcmp(argv[2], "late") == 0)
    s += late(n);
  s += early(argc);
  for (int i = 0; i < n; i++)
    s += middle(i);
  s += late(s);
  if (argc > 5)
    s += never(s);
  printf("%d\n", s);
  return 0;
}
