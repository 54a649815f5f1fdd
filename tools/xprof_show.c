/*
 * xprof_show - a summary of a profile: totals per program and object file,
 * and the busiest procedures.
 *
 *   xprof_show [-n N] profile_directory
 *
 * A procedure's activity is the sum of its counters: every counted edge
 * traversal, which grows with how often its code ran.  (Entry counts need
 * the procedure's CFG, which only the compiler has.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_show [-n N] profile_directory\n"
    "\n"
    "Print the programs and object files of a profile and its N busiest\n"
    "procedures (default 10), by the sum of their counters.\n";

typedef struct row {
  uint64_t sum;
  const char *name, *obj;
} row;

static int by_sum(const void *a, const void *b) {
  uint64_t x = ((const row *)a)->sum, y = ((const row *)b)->sum;
  return x < y ? 1 : x > y ? -1 : strcmp(((const row *)a)->name, ((const row *)b)->name);
}

int main(int argc, char **argv) {
  tool_init("xprof_show");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  long top = 10;
  int i = 1;
  if (i + 1 < argc && strcmp(argv[i], "-n") == 0) {
    char *end;
    top = strtol(argv[i + 1], &end, 10);
    if (*end || top < 1)
      return tool_error("-n takes a positive number, got '%s'", argv[i + 1]);
    i += 2;
  }
  if (argc - i != 1) {
    fputs(usage, stderr);
    return 1;
  }
  xprof_error err;
  xprof_profile *p;
  if (xprof_read_profile_dir(argv[i], &p, &err) < 0)
    return tool_fail(&err);
  size_t n = 0, ran = 0;
  for (uint32_t k = 0; k < p->n_objfiles; k++)
    n += p->objfiles[k].n_procs;
  row *rows = calloc(n + 1, sizeof *rows);
  if (!rows)
    return tool_error("out of memory");
  n = 0;
  for (uint32_t k = 0; k < p->n_objfiles; k++) {
    const xprof_objfile *o = &p->objfiles[k];
    const char *base = strrchr(o->path, '/');
    for (uint32_t j = 0; j < o->n_procs; j++) {
      const xprof_proc *f = &o->procs[j];
      uint64_t s = 0;
      for (uint32_t c = 0; c < f->n_counters; c++)
        s = xprof_sat_add(s, f->counters[c]);
      ran += s != 0;
      rows[n++] = (row){s, f->name, base ? base + 1 : o->path};
    }
  }
  printf("%s: %u program%s, %u object file%s, %zu procedure%s (%zu ran)\n",
         argv[i], p->n_programs, xprof_plural(p->n_programs), p->n_objfiles,
         xprof_plural(p->n_objfiles), n, xprof_plural(n), ran);
  for (uint32_t k = 0; k < p->n_programs; k++)
    printf("  program %s: %u object file%s\n", p->programs[k].path,
           p->programs[k].n_objrefs, xprof_plural(p->programs[k].n_objrefs));
  qsort(rows, n, sizeof *rows, by_sum);
  printf("busiest procedures (sum of counters):\n");
  for (size_t k = 0; k < n && k < (size_t)top && rows[k].sum; k++)
    printf("  %14llu  %s  (%s)\n", (unsigned long long)rows[k].sum,
           rows[k].name, rows[k].obj);
  free(rows);
  xprof_profile_free(p);
  return 0;
}
