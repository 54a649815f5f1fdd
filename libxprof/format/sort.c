/*
 * sort.c - xprof_sort: a stable merge sort.  libxprof sorts in the
 * runtime too, inside programs that may have replaced malloc, and the C
 * library's qsort allocates its work space with malloc.  Stable, as
 * glibc's qsort is in practice, so that orders that depend on how ties
 * fall (which edges get counters) stay what they were.
 */
#include <string.h>

#include "internal.h"

/* Merge the sorted runs a[0..mid) and a[mid..n) through tmp. */
static void merge(char *a, char *tmp, size_t mid, size_t n, size_t size,
                  int (*cmp)(const void *, const void *)) {
  size_t i = 0, j = mid, k = 0;
  while (i < mid && j < n) {
    /* Take from the right run only when strictly smaller: stability. */
    if (cmp(a + j * size, a + i * size) < 0)
      memcpy(tmp + k++ * size, a + j++ * size, size);
    else
      memcpy(tmp + k++ * size, a + i++ * size, size);
  }
  memcpy(tmp + k * size, a + i * size, (mid - i) * size);
  k += mid - i;
  memcpy(a, tmp, k * size); /* what is left of the right run is in place */
}

/* Insertion sort: short runs, and the whole array when there is no memory
 * for the work space (slow, but still correct and stable). */
static void insertion(char *a, size_t n, size_t size, char *hold,
                      int (*cmp)(const void *, const void *)) {
  for (size_t i = 1; i < n; i++) {
    size_t j = i;
    memcpy(hold, a + i * size, size);
    while (j > 0 && cmp(a + (j - 1) * size, hold) > 0) {
      memcpy(a + j * size, a + (j - 1) * size, size);
      j--;
    }
    memcpy(a + j * size, hold, size);
  }
}

enum { RUN = 8 };

void xprof_sort(void *base, size_t n, size_t size,
                int (*cmp)(const void *, const void *)) {
  char *a = base;
  if (n < 2 || size == 0)
    return;
  char small[256];
  char *tmp = n * size <= sizeof small ? small : xprof_malloc(n * size);
  if (!tmp) {
    char hold[256];
    char *h = size <= sizeof hold ? hold : xprof_malloc(size);
    if (h) /* else nothing can be done without memory: left as it is */
      insertion(a, n, size, h, cmp);
    if (h != hold)
      xprof_free(h);
    return;
  }
  for (size_t lo = 0; lo < n; lo += RUN)
    insertion(a + lo * size, n - lo < RUN ? n - lo : RUN, size, tmp, cmp);
  for (size_t width = RUN; width < n; width *= 2)
    for (size_t lo = 0; lo + width < n; lo += 2 * width) {
      size_t len = n - lo < 2 * width ? n - lo : 2 * width;
      merge(a + lo * size, tmp, width, len, size, cmp);
    }
  if (tmp != small)
    xprof_free(tmp);
}
