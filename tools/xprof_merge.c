/*
 * xprof_merge - merge profile directories into one.
 *
 *   xprof_merge -o OUT.profile [-r objfile|program|all] [-w N:]IN.profile...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_merge -o OUT.profile [-r objfile|program|all]\n"
    "                   [-w N:IN.profile | IN.profile]...\n"
    "\n"
    "Merge the profile directories IN.profile (binary or text data) into\n"
    "OUT.profile, which is written atomically and may be one of the\n"
    "inputs.  Counts add (saturating at 2^64-1); -w N:IN.profile multiplies\n"
    "that input's counts by N first.  An object file rebuilt between two\n"
    "inputs keeps the newer data only; -r widens what is reset with it,\n"
    "like SUN_PROFDATA_REPLACE: objfile (default), program or all.\n"
    "\n"
    "  -o DIR      output profile directory (required)\n"
    "  -r SCOPE    replacement scope for rebuilt object files\n"
    "  -w N:DIR    weighted input (N >= 1)\n"
    "  --help, --version\n";

typedef struct input {
  const char *dir;
  uint64_t weight;
} input;

static int parse_weighted(const char *arg, input *in) {
  const char *colon = strchr(arg, ':');
  if (!colon)
    return tool_error("-w takes N:IN.profile, got '%s'", arg);
  char *end;
  errno = 0;
  unsigned long long w = strtoull(arg, &end, 10);
  if (end != colon || end == arg || errno || w == 0 || arg[0] == '-')
    return tool_error("weight in '%s' must be a whole number >= 1", arg);
  if (!colon[1])
    return tool_error("-w %s names no profile", arg);
  in->weight = w;
  in->dir = colon + 1;
  return 0;
}

int main(int argc, char **argv) {
  tool_init("xprof_merge");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  const char *out = NULL;
  xprof_replace mode = XPROF_REPLACE_OBJFILE;
  input *inputs = calloc((size_t)argc, sizeof *inputs);
  int n = 0, opt;
  if (!inputs)
    return tool_error("out of memory");
  while ((opt = getopt(argc, argv, "o:r:w:")) != -1) {
    switch (opt) {
    case 'o':
      out = optarg;
      break;
    case 'r':
      if (xprof_replace_parse(optarg, &mode) < 0)
        return tool_error("-r takes objfile, program or all, got '%s'",
                          optarg);
      break;
    case 'w':
      if (parse_weighted(optarg, &inputs[n]) != 0)
        return 1;
      n++;
      break;
    default:
      return tool_error("unknown option (see --help)");
    }
  }
  for (int i = optind; i < argc; i++) {
    inputs[n].dir = argv[i];
    inputs[n++].weight = 1;
  }
  if (!out)
    return tool_error("no output: give -o OUT.profile (see --help)");
  if (n == 0)
    return tool_error("no input profiles (see --help)");

  xprof_error err;
  xprof_profile *result = xprof_profile_new();
  if (!result)
    return tool_error("out of memory");
  for (int i = 0; i < n; i++) {
    xprof_profile *p;
    if (xprof_read_profile_dir(inputs[i].dir, &p, &err) < 0)
      return tool_fail(&err);
    int rc;
    if (i == 0 && inputs[i].weight == 1) {
      xprof_profile_free(result); /* the first input is the start */
      result = p;
      continue;
    }
    rc = xprof_merge(result, p, inputs[i].weight, mode, &err);
    xprof_profile_free(p);
    if (rc < 0)
      return tool_fail(&err);
  }
  int rc = xprof_write_profile_dir(result, out, &err);
  xprof_profile_free(result);
  free(inputs);
  return rc < 0 ? tool_fail(&err) : 0;
}
