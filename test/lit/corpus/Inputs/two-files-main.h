/* main() of the two-file programs (included by each of them). */
#include <stdio.h>
#include <stdlib.h>

int helper_hot(int x);
int helper_cold(int x);

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100, s = 0;
  for (int i = 0; i < n; i++)
    s += i % 97 ? helper_hot(i) : helper_cold(i);
  printf("%d\n", s);
  return 0;
}
