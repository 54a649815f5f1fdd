/*
 * xprof_atob - build a profile directory from xprof_text(4).
 *
 *   xprof_atob file [profile_directory]
 */
#include <stdio.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_atob file [profile_directory]\n"
    "\n"
    "Read profile data in the text format xprof_text(4) from file and write\n"
    "it as binary data into profile_directory/feedback (default\n"
    "atob.profile), creating the directory if needed.  An existing feedback\n"
    "file there is replaced atomically.  Binary input is accepted too, which\n"
    "rewrites it (and rebuilds its index).  A file of - is the standard\n"
    "input; a pipe (<(...)) is read to its end.\n"
    "\n"
    "  --help, --version\n";

int main(int argc, char **argv) {
  tool_init("xprof_atob");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  int first = 1;
  if (first < argc && argv[first][0] == '-' && argv[first][1] &&
      argv[first][1] != '-')
    return tool_error("unknown option '%s' (see --help)", argv[first]);
  if (first < argc && argv[first][0] == '-' && argv[first][1] == '-' &&
      argv[first][2] == 0)
    first++;
  int nargs = argc - first;
  if (nargs < 1 || nargs > 2) {
    fputs(usage, stderr);
    return 1;
  }
  const char *in = argv[first];
  const char *dir = nargs == 2 ? argv[first + 1] : "atob.profile";

  xprof_error err;
  xprof_profile *p;
  /* A profile directory, or its feedback file named directly, comes
   * with its shapes. */
  if (xprof_read_input(in, &p, &err) < 0)
    return tool_fail(&err);
  int rc = xprof_write_profile_dir(p, dir, &err);
  xprof_profile_free(p);
  return rc < 0 ? tool_fail(&err) : 0;
}
