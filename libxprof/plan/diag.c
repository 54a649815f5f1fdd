/*
 * diag.c - the messages of xprof's compilations: what each plugin says is
 * decided and worded here, once; the plugins hand it to their compiler's
 * own diagnostics (GCC's warning/error/inform, the LLVMContext's
 * diagnostic handler), so that -Werror, -w and the warnings' names govern
 * them as they govern the compiler's own.
 */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"
#include "xprof_plan.h"

static void say(const xprof_diag *d, xprof_diag_kind kind, enum xprof_warning w,
                const char *fmt, va_list ap) {
  char text[1024];
  int n = snprintf(text, sizeof text, "xprof: ");
  vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
  d->emit(d->ctx, kind, w, text);
}

void xprof_warn(const xprof_diag *d, enum xprof_warning w, const char *fmt, ...) {
  xprof_diag_kind kind;
  switch (d->o ? d->o->warning[w] : XPROF_WARN_DEFAULT) {
  case XPROF_WARN_OFF:
    return;
  case XPROF_WARN_ERROR:
    kind = XPROF_DIAG_ERROR;
    break;
  case XPROF_WARN_NO_ERROR:
    kind = XPROF_DIAG_WARNING_NO_ERROR;
    break;
  default:
    kind = XPROF_DIAG_WARNING;
  }
  va_list ap;
  va_start(ap, fmt);
  say(d, kind, w, fmt, ap);
  va_end(ap);
}

void xprof_verbose(const xprof_diag *d, const char *fmt, ...) {
  if (!d->o || !d->o->verbose)
    return;
  va_list ap;
  va_start(ap, fmt);
  say(d, XPROF_DIAG_NOTE, XPROF_N_WARNINGS, fmt, ap);
  va_end(ap);
}

void xprof_warning_suffix(xprof_diag_kind kind, enum xprof_warning w, char *buf, size_t size) {
  const char *name = xprof_warning_name(w);
  if (!name || kind == XPROF_DIAG_NOTE)
    snprintf(buf, size, "%s", "");
  else
    snprintf(buf, size, " [-W%s%s]", kind == XPROF_DIAG_ERROR ? "error=" : "", name);
}
