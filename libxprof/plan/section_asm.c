/*
 * section_asm.c - bytes into a section of the object file being compiled,
 * as a top-level asm statement both plugins can add: how the collect
 * build's coverage table and the use build's calls reach the tools and
 * the link.
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "xprof_plan.h"

/* .ascii lines of bounded length, every byte that is not plain printable
 * ASCII as an escape of three octal digits (so that a digit after it is
 * not taken into it). */
char *xprof_plan_section_asm(const char *section, const char *flags, const char *bytes,
                             size_t len) {
  enum { PER_LINE = 256 };
  size_t cap = 64 + strlen(section) + strlen(flags) + 4 * len + 16 * (len / PER_LINE + 1);
  char *a = xprof_malloc(cap);
  if (!a)
    return NULL;
  size_t n = (size_t)snprintf(a, cap, "\t.pushsection %s,\"%s\",@progbits\n", section, flags);
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)bytes[i];
    if (i % PER_LINE == 0)
      n += (size_t)snprintf(a + n, cap - n, "%s\t.ascii \"", i ? "\"\n" : "");
    if (c >= ' ' && c < 0x7f && c != '"' && c != '\\')
      a[n++] = (char)c;
    else
      n += (size_t)snprintf(a + n, cap - n, "\\%03o", c);
  }
  snprintf(a + n, cap - n, "%s\t.popsection\n", len ? "\"\n" : "");
  return a;
}
