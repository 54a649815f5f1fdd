/* Drives checksum() of splitcold.c: N values in rows of 10, every Kth
 * value negative when K is given (K = 0: none). */
#include <stdio.h>
#include <stdlib.h>

extern char report[];
long checksum(const int *v, int n);

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  int k = argc > 2 ? atoi(argv[2]) : 0;
  int *v = malloc(sizeof *v * (size_t)n);
  long sum = 0;
  if (!v)
    return 1;
  for (int i = 0; i < n; i++)
    v[i] = k && i % k == 0 ? -i : i * 7 + 1;
  for (int row = 0; row < n; row += 10)
    sum += checksum(v + row, n - row < 10 ? n - row : 10);
  printf("%ld\n%s\n", sum, report);
  free(v);
  return 0;
}
