/*
 * dynlist.c - writes xprof_rt.dynlist, the runtime's dynamic list (ld
 * --dynamic-list; see xprof_rt.pc), from the ABI's list of exports, at
 * build time: the drivers pass the same names with
 * --export-dynamic-symbol.
 */
#include <stdio.h>

#include "xprof_abi.h"

#define PATTERN(p) fprintf(out, "  %s;\n", p);

/* dynlist FILE */
int main(int argc, char **argv) {
  FILE *out = argc == 2 ? fopen(argv[1], "w") : NULL;
  if (!out) {
    perror(argc == 2 ? argv[1] : "usage: dynlist FILE");
    return 1;
  }
  fprintf(out, "/* The symbols a program linked with the xprof runtime exports, so that\n"
         " * instrumented shared libraries (dlopen'ed ones too) register with the\n"
         " * program's runtime, and threads that libraries start go through its\n"
         " * pthread_create.  Written by the build from abi/xprof_abi.h. */\n{\n");
  XPROF_ABI_EXPORTS(PATTERN)
  fprintf(out, "};\n");
  return fclose(out) != 0;
}
