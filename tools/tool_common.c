/* tool_common.c - messages and standard options of the xprof tools. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tool_common.h"

const char *tool_name = "xprof";

void tool_init(const char *name) { tool_name = name; }

int tool_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", tool_name);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return 1;
}

int tool_fail(const xprof_error *err) { return tool_error("%s", err->msg); }

int tool_standard_options(int argc, char **argv, const char *usage) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0)
      break;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(usage, stdout);
      return 1;
    }
    if (strcmp(argv[i], "--version") == 0) {
      printf("%s (xprof) %s\n", tool_name, XPROF_VERSION);
      return 1;
    }
  }
  return 0;
}
