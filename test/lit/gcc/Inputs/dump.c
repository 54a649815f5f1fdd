/* One loop with a branch taken two times in three. */
#include <stdio.h>
#include <stdlib.h>
static int f(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i % 3)
      s += i;
    else
      s -= 1;
  }
  return s;
}
int main(int argc, char **argv) {
  printf("%d\n", argc > 1 ? f(atoi(argv[1])) : 0);
  return 0;
}
