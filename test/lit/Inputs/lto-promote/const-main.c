/* An indirect call whose dominant target, scale in const-target.c,
 * gets a constant argument: promoted and inlined at link time, it folds
 * to a constant.  Usage: const-main ROUNDS [any: call shift instead]. */
#include <stdio.h>
#include <stdlib.h>
extern int scale(int), shift(int);
int (*volatile pick)(int);
int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 100000;
  pick = argc > 2 ? shift : scale;
  long s = 0;
  for (long i = 0; i < rounds; i++)
    s += pick(7);
  printf("%ld\n", s);
  return 0;
}
