#include <stdio.h>

int f(int);

int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += f(i);
  printf("%d\n", s);
  return 0;
}
