/*
 * xprof_overlap - how alike two trainings are.
 *
 *   xprof_overlap [-n N] [-o OBJECT] a.profile b.profile
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_overlap [-n N] [-o OBJECT] a.profile b.profile\n"
    "\n"
    "How alike the trainings behind two profiles are (a training input\n"
    "against a production-like run, say): the overlap of the whole\n"
    "profile, of each object file and of the N procedures (default 10)\n"
    "that differ most.  Each side's counts are taken as shares of its\n"
    "total; the overlap is the sum, over counters, of the smaller share:\n"
    "100% when the counts are distributed alike, 0% when nothing is in\n"
    "common (the measure of gcov-tool overlap and llvm-profdata overlap).\n"
    "Counters compare only within procedures of the same build.\n"
    "\n"
    "  -n N        list the N procedures that differ most (0: none)\n"
    "  -o OBJECT   only the object file whose path ends in OBJECT\n"
    "  --help, --version\n";

typedef struct diff_row {
  double lost, overlap;
  const char *name, *obj;
  int only; /* 1: only in a, 2: only in b, 3: changed build */
} diff_row;

static int by_lost(const void *x, const void *y) {
  const diff_row *a = x, *b = y;
  if (a->lost != b->lost)
    return a->lost < b->lost ? 1 : -1;
  int c = strcmp(a->obj, b->obj);
  return c ? c : strcmp(a->name, b->name);
}

static int ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), m = strlen(tail);
  return n >= m && strcmp(s + n - m, tail) == 0 && (n == m || tail[0] == '/' ||
                                                    s[n - m - 1] == '/');
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* The procedures of both profiles, by what each contributes to the
 * difference of the whole; returns how many (rows malloc'd). */
static size_t differences(const xprof_profile *a, const xprof_profile *b, const char *only,
                          uint64_t ta, uint64_t tb, diff_row **out) {
  size_t n = 0, cap = 16;
  diff_row *rows = malloc(cap * sizeof *rows);
  for (int side = 0; side < 2 && rows; side++) {
    const xprof_profile *p = side ? b : a, *q = side ? a : b;
    for (uint32_t i = 0; i < p->n_objfiles; i++) {
      const xprof_objfile *o = &p->objfiles[i];
      if (only && !ends_with(o->path, only))
        continue;
      const xprof_objfile *oq = xprof_find_objfile(q, o->path);
      for (uint32_t j = 0; j < o->n_procs; j++) {
        const xprof_proc *f = &o->procs[j];
        const xprof_proc *g = oq ? xprof_find_proc(oq, f->name) : NULL;
        int same = g && g->signature == f->signature && g->n_counters == f->n_counters;
        if (side == 1 && g)
          continue; /* seen from a's side */
        diff_row r = {0, 0, f->name, base_name(o->path), 0};
        r.overlap = side ? xprof_overlap_proc(f, NULL, &r.lost, tb, ta)
                         : xprof_overlap_proc(f, same ? g : NULL, &r.lost, ta, tb);
        r.only = !g ? side + 1 : same ? 0 : 3;
        if (n == cap) {
          diff_row *grown = realloc(rows, 2 * cap * sizeof *rows);
          if (!grown)
            break;
          rows = grown;
          cap *= 2;
        }
        rows[n++] = r;
      }
    }
  }
  *out = rows;
  return rows ? n : 0;
}

static void print_object_lines(const xprof_profile *a, const xprof_profile *b, const char *only) {
  printf("object files:\n");
  for (int side = 0; side < 2; side++) {
    const xprof_profile *p = side ? b : a, *q = side ? a : b;
    for (uint32_t i = 0; i < p->n_objfiles; i++) {
      const char *path = p->objfiles[i].path;
      if ((only && !ends_with(path, only)) || (side && xprof_find_objfile(q, path)))
        continue;
      if (!xprof_find_objfile(q, path)) {
        printf("  %6s  %s (only in %s)\n", "-", path, side ? "b" : "a");
        continue;
      }
      printf("  %5.1f%%  %s\n", 100 * xprof_overlap_score(a, b, path, NULL), path);
    }
  }
}

int main(int argc, char **argv) {
  tool_init("xprof_overlap");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  long top = 10;
  const char *only = NULL;
  int opt;
  while ((opt = getopt(argc, argv, "n:o:")) != -1) {
    char *end;
    if (opt == 'n') {
      top = strtol(optarg, &end, 10);
      if (*end || top < 0)
        return tool_error("-n takes a number, got '%s'", optarg);
    } else if (opt == 'o') {
      only = optarg;
    } else {
      return tool_error("unknown option (see --help)");
    }
  }
  if (argc - optind != 2) {
    fputs(usage, stderr);
    return 1;
  }
  xprof_error err;
  xprof_profile *a, *b;
  if (xprof_read_input(argv[optind], &a, &err) < 0 ||
      xprof_read_input(argv[optind + 1], &b, &err) < 0)
    return tool_fail(&err);
  xprof_overlap_counts c;
  double whole;
  if (only) {
    const char *match = NULL;
    for (uint32_t i = 0; i < a->n_objfiles && !match; i++)
      if (ends_with(a->objfiles[i].path, only))
        match = a->objfiles[i].path;
    for (uint32_t i = 0; i < b->n_objfiles && !match; i++)
      if (ends_with(b->objfiles[i].path, only))
        match = b->objfiles[i].path;
    if (!match)
      return tool_error("no object file ending in '%s' in either profile", only);
    only = match;
  }
  whole = xprof_overlap_score(a, b, only, &c);
  printf("a: %s (count %llu)\nb: %s (count %llu)\n", argv[optind],
         (unsigned long long)c.sum_a, argv[optind + 1], (unsigned long long)c.sum_b);
  printf("overlap: %.1f%%\n", 100 * whole);
  printf("procedures: %u in both, %u changed build, %u only in a, %u only in b\n",
         c.procs_both, c.procs_changed, c.procs_only_a, c.procs_only_b);
  print_object_lines(a, b, only);
  diff_row *rows;
  size_t n = top ? differences(a, b, only, c.sum_a, c.sum_b, &rows) : 0;
  if (top && n)
    qsort(rows, n, sizeof *rows, by_lost);
  if (top && n && rows[0].lost > 0) {
    printf("procedures that differ most (share of the whole difference, own overlap):\n");
    for (size_t k = 0; k < n && k < (size_t)top && rows[k].lost > 0; k++) {
      static const char *const why[] = {"", " (only in a)", " (only in b)",
                                        " (changed build)"};
      printf("  %5.1f%%  %5.1f%%  %s (%s)%s\n", 100 * rows[k].lost / (1 - whole > 0 ? 1 - whole : 1),
             100 * rows[k].overlap, rows[k].name, rows[k].obj, why[rows[k].only]);
    }
  }
  if (top)
    free(rows);
  xprof_profile_free(a);
  xprof_profile_free(b);
  return 0;
}
