/*
 * format.c - xprof_format: asprintf on libxprof's allocator (asprintf
 * and strdup would allocate with the C library's malloc, which the
 * runtime must not call).
 */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

char *xprof_format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    return NULL;
  char *s = xprof_malloc((size_t)n + 1);
  if (!s)
    return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}
