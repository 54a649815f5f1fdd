/*
 * xprof_merge - merge profile directories into one.
 *
 *   xprof_merge -o OUT.profile [-n] [-v] [-r objfile|program|all] [-w N:]IN.profile...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_merge -o OUT.profile [-n] [-v] [-r objfile|program|all]\n"
    "                   [-w N:IN.profile | IN.profile]...\n"
    "\n"
    "Merge the profile directories IN.profile (binary or text data) into\n"
    "OUT.profile, which is written atomically and may be one of the\n"
    "inputs.  Counts add (saturating at 2^64-1); -w N:IN.profile multiplies\n"
    "that input's counts by N first.  An object file rebuilt between two\n"
    "inputs keeps the newer data only; -r widens what is reset with it,\n"
    "like SUN_PROFDATA_REPLACE: objfile (default), program or all.\n"
    "-n weighs trainings of different lengths alike: each input's weight\n"
    "is multiplied by its total count's ratio to the largest input's total,\n"
    "rounded to a whole number (whole weights keep every procedure's counts\n"
    "consistent).  The output is in canonical order: the same data gives\n"
    "the same bytes, whatever the order of the inputs and of the runs.\n"
    "\n"
    "  -o DIR      output profile directory (required)\n"
    "  -r SCOPE    replacement scope for rebuilt object files\n"
    "  -w N:DIR    weighted input (N >= 1)\n"
    "  -n          normalize: weigh each input by the largest total / its own\n"
    "  -v          say each input's total count and weight\n"
    "  --help, --version\n";

typedef struct input {
  const char *dir;
  uint64_t weight;
  uint64_t total; /* its counts' sum, once read */
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

/* The sum of all counts of a profile (saturating). */
static uint64_t total_count(const xprof_profile *p) {
  uint64_t sum = 0;
  for (uint32_t i = 0; i < p->n_objfiles; i++)
    for (uint32_t j = 0; j < p->objfiles[i].n_procs; j++)
      sum = xprof_sat_add(sum, xprof_proc_sum(&p->objfiles[i].procs[j]));
  return sum;
}

/* -n: each input's weight times the largest input's total over its own,
 * rounded, at least 1.  Whole numbers: a fractional scale would round
 * counters one by one, and the counts derived from them by the flow
 * solver could come out negative. */
static void normalize_weights(input *in, int n) {
  uint64_t largest = 0;
  for (int i = 0; i < n; i++)
    if (in[i].total > largest)
      largest = in[i].total;
  for (int i = 0; i < n; i++) {
    uint64_t own = in[i].total;
    uint64_t factor = own ? (uint64_t)((long double)largest / own + 0.5L) : 1;
    uint64_t w = in[i].weight * (factor ? factor : 1);
    in[i].weight = factor && w / factor != in[i].weight ? UINT64_MAX : w;
  }
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
  int normalize = 0, verbose = 0;
  while ((opt = getopt(argc, argv, "o:r:w:nv")) != -1) {
    switch (opt) {
    case 'n':
      normalize = 1;
      break;
    case 'v':
      verbose = 1;
      break;
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
  xprof_profile **read = calloc((size_t)n, sizeof *read);
  if (!read)
    return tool_error("out of memory");
  for (int i = 0; i < n; i++) {
    if (xprof_read_input(inputs[i].dir, &read[i], &err) < 0)
      return tool_fail(&err);
    inputs[i].total = total_count(read[i]);
  }
  if (normalize)
    normalize_weights(inputs, n);
  for (int i = 0; verbose && i < n; i++)
    fprintf(stderr, "xprof_merge: %s: total count %llu, weight %llu\n", inputs[i].dir,
            (unsigned long long)inputs[i].total, (unsigned long long)inputs[i].weight);
  xprof_profile *result = NULL;
  for (int i = 0; i < n; i++) {
    if (!result && inputs[i].weight == 1) {
      result = read[i]; /* the first input is the start */
      continue;
    }
    if (!result && !(result = xprof_profile_new()))
      return tool_error("out of memory");
    int rc = xprof_merge(result, read[i], inputs[i].weight, mode, &err);
    xprof_profile_free(read[i]);
    if (rc < 0)
      return tool_fail(&err);
  }
  free(read);
  xprof_profile_sort(result);
  int rc = xprof_write_profile_dir(result, out, &err);
  xprof_profile_free(result);
  free(inputs);
  return rc < 0 ? tool_fail(&err) : 0;
}
