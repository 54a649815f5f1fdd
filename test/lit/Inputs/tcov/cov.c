/* cov.c - what a coverage tool must get right on one page. */
#include <stdio.h>
#include <stdlib.h>
#include "cov.h"

static int sum_to(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += i;
  return s;
}

static int search(const int *a, int n, int key) {
  int i = 0;
again:
  if (i >= n)
    return -1;
  if (a[i] == key)
    return i;
  i++;
  goto again;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int total = 0;
  int a[] = {4, -8, 15, 16, -23, 42};
  for (int k = 0; k < n; k++) {
    ABS_SUM(total, a[k % 6]);
    total += classify(clamp(a[k % 6], -10, 20));
  }
  total += sum_to(n);
  total += search(a, 6, 16);
  if (n > 1000)
    total += never_called(n);
  printf("%d\n", total);
  return 0;
}
