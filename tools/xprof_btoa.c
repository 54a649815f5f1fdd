/*
 * xprof_btoa - write a profile directory's binary data as xprof_text(4).
 *
 *   xprof_btoa [-t feedback] profile_directory [output_file]
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_btoa [-t feedback] profile_directory [output_file]\n"
    "\n"
    "Convert the binary profile data in profile_directory (NAME.profile)\n"
    "to the text format xprof_text(4).  The output goes to output_file,\n"
    "by default feedback.text in the current directory; '-' writes to\n"
    "standard output.  profile_directory may also name a data file.\n"
    "\n"
    "  -t feedback   the data type to convert (the only one xprof writes)\n"
    "  --help, --version\n";

int main(int argc, char **argv) {
  tool_init("xprof_btoa");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  const char *type = "feedback";
  int opt;
  while ((opt = getopt(argc, argv, "+t:")) != -1) {
    if (opt == 't')
      type = optarg;
    else
      return tool_error("unknown option (see --help)");
  }
  if (strcmp(type, "feedback") != 0)
    return tool_error("data type '%s' is not supported: xprof writes only "
                      "'feedback' data (the coverage of a -xprofile=tcov build: "
                      "xprof_tcov)",
                      type);
  int nargs = argc - optind;
  if (nargs < 1 || nargs > 2) {
    fputs(usage, stderr);
    return 1;
  }
  const char *dir = argv[optind];
  const char *out = nargs == 2 ? argv[optind + 1] : "feedback.text";

  xprof_error err;
  xprof_profile *p;
  if (xprof_read_input(dir, &p, &err) < 0)
    return tool_fail(&err);
  int rc = xprof_text_write_file(p, out, &err) < 0 ? tool_fail(&err) : 0;
  xprof_profile_free(p);
  if (strcmp(out, "-") == 0)
    rc = tool_close_output(stdout, out, rc);
  return rc;
}
