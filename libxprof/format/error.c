/*
 * error.c - errors are values: a code and a message naming the file, the
 * place in it and what was expected.
 */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

int xprof_fail(xprof_error *err, enum xprof_errc code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return -1;
}

int xprof_fail_nomem(xprof_error *err, const char *what) {
  return xprof_fail(err, XPROF_ERR_NOMEM, "%s: out of memory", what);
}

void xprof_clear_error(xprof_error *err) {
  if (err) {
    err->code = XPROF_OK;
    err->msg[0] = '\0';
  }
}
