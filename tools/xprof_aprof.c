/*
 * xprof_aprof - a training run as an aprof report: per routine its calls,
 * its own cost and its cumulative cost, in basic blocks run (exact) or in
 * sampled CPU time.  See xprof_aprof(1); the fields are libxprof's
 * (aprof.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tool_common.h"

/* The C++ runtime's demangler (libstdc++, C linkage). */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static const char usage[] =
    "usage: xprof_aprof [-m bb-count|time-usec] [-o FILE] PROFILE\n"
    "Write the training runs in PROFILE (NAME.profile) as an aprof report:\n"
    "per routine its calls and its cost, its own and with its callees'.\n"
    "  -m bb-count   cost in basic blocks run, exact (the default)\n"
    "  -m time-usec  cost in microseconds of sampled CPU time (runs with\n"
    "                SUN_PROFDATA_SAMPLE=1)\n"
    "  -o FILE       write FILE (default: standard output)\n";

struct ctx {
  xprof_time_table *t;
  char *last; /* the last name demangled */
};

static const char *demangle(void *c, const char *name) {
  struct ctx *x = c;
  int status = -1;
  free(x->last);
  x->last = strncmp(name, "_Z", 2) == 0 ? __cxa_demangle(name, NULL, NULL, &status) : NULL;
  return status == 0 ? x->last : NULL;
}

/* A routine's sampled time: the rows of its name (in the image of the
 * program; a static function of the same name elsewhere adds in). */
static double self_time(void *c, const char *name) {
  const xprof_time_table *t = ((struct ctx *)c)->t;
  double ns = 0;
  for (uint32_t i = 0; i < t->n_rows; i++)
    if (strcmp(t->rows[i].name, name) == 0)
      ns += t->rows[i].ns;
  return ns / 1000.0;
}

static char *find(void *ctx, const char *objpath) {
  return xprof_table_find(ctx, NULL, objpath, objpath);
}

int main(int argc, char **argv) {
  tool_init("xprof_aprof");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  const char *out_path = NULL;
  int time_metric = 0, i = 1;
  for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
    if (strcmp(argv[i], "-o") == 0)
      out_path = argv[i + 1];
    else if (strcmp(argv[i], "-m") == 0 && strcmp(argv[i + 1], "bb-count") == 0)
      time_metric = 0;
    else if (strcmp(argv[i], "-m") == 0 && strcmp(argv[i + 1], "time-usec") == 0)
      time_metric = 1;
    else if (strcmp(argv[i], "-m") == 0)
      return tool_error("-m takes bb-count or time-usec, not '%s'", argv[i + 1]);
    else
      return tool_error("unknown option %s (see --help)", argv[i]);
  }
  if (argc - i != 1) {
    fputs(usage, stderr);
    return 1;
  }
  const char *dir = argv[i];
  xprof_error err;
  xprof_profile *p;
  if (xprof_read_profile_dir(dir, &p, &err) < 0)
    return tool_fail(&err);
  xprof_callgraph *g;
  if (xprof_callgraph_build(p, find, (void *)dir, &g, &err) < 0)
    return tool_fail(&err);
  for (uint32_t k = 0; k < g->n_notes && k < 3; k++)
    tool_error("%s", g->notes[k]);
  struct ctx c = {NULL, NULL};
  xprof_aprof_options opt;
  memset(&opt, 0, sizeof opt);
  opt.time = time_metric;
  opt.demangle = demangle;
  opt.self_time = self_time;
  opt.ctx = &c;
  opt.now = (uint64_t)time(NULL);
  /* The program: the profile's first executable's record. */
  struct stat st;
  for (uint32_t k = 0; k < p->n_programs && !opt.app; k++)
    if (!strstr(p->programs[k].path, ".so"))
      opt.app = p->programs[k].path;
  if (opt.app && stat(opt.app, &st) == 0)
    opt.exe_mtime = (uint64_t)st.st_mtime;
  if (time_metric) {
    if (xprof_time_by_function(p, 0, &c.t, &err) < 0)
      return tool_fail(&err);
    if (!c.t->samples)
      return tool_error("%s: no time samples for -m time-usec (run the program with "
                        "SUN_PROFDATA_SAMPLE=1)",
                        dir);
    opt.total_time = c.t->ns / 1000.0;
  }
  FILE *out = tool_open_output(out_path, "w");
  if (!out)
    return 1;
  int rc = xprof_aprof_write(out, p, g, &opt, &err) < 0 ? tool_fail(&err) : 0;
  rc |= tool_close_output(out, out_path, rc);
  free(c.last);
  xprof_time_table_free(c.t);
  xprof_callgraph_free(g);
  xprof_profile_free(p);
  return rc;
}
