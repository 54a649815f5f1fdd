/* A plain program that calls into the twice.c library. */
#include <stdio.h>
int twice(int);
int main(void) {
  int s = 0;
  for (int i = 0; i < 100; i++)
    s += twice(i);
  printf("%d\n", s);
  return 0;
}
