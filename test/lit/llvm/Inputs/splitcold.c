/* checksum(): a hot loop with a reporting path that training never takes
 * (no negative values in the training input).  A use build moves that
 * path out of the function into checksum.cold.1. */
#include <stdio.h>
#include <string.h>

char report[4096];

long checksum(const int *v, int n) {
  long sum = 0;
  for (int i = 0; i < n; i++) {
    int x = v[i];
    if (x < 0) {
      size_t used = strlen(report);
      char digits[16];
      int len = snprintf(digits, sizeof digits, "%d", -x);
      for (int d = len - 1; d >= 0 && used + 2 < sizeof report; d--) {
        report[used++] = digits[d];
        report[used] = 0;
      }
      if (used + 2 < sizeof report)
        strcat(report, ";");
      fprintf(stderr, "checksum: value %d at %d is negative (%s)\n", x, i, digits);
      fflush(stderr);
      continue;
    }
    sum += x ^ (sum >> 3);
  }
  return sum;
}
