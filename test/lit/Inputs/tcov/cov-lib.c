/* cov-lib.c - a second object, a switch, and code that never runs. */
#include "cov.h"

int classify(int x) {
  switch (x) {
  case -10:
    return 1;
  case 4:
  case 15:
    return 2;
  default:
    break;
  }
  int r = 0;
  do {
    r += clamp(x, 0, 3);
    x /= 2;
  } while (x > 0);
  return r;
}

int never_called(int x) {
  if (x & 1)
    return x * 3 + 1;
  return x / 2;
}
