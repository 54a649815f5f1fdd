/*
 * xprof_tcov - line, function and branch coverage of a training run, from
 * a profile and the coverage tables its collect build wrote
 * (in the objects, OBJECT.xpcov or PROFILE/tcov): annotated listings in the manner of Sun's tcov(1), an
 * lcov tracefile, a summary.  Line counts follow gcov's rules
 * (libxprof/coverage.c); see xprof_tcov(1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_tcov [-a] [-n] [-o FILE] [-p OLD NEW]... -x PROFILE SOURCE...\n"
    "       xprof_tcov --lcov FILE [-t NAME] [-p OLD NEW]... -x PROFILE [SOURCE...]\n"
    "       xprof_tcov --summary [-p OLD NEW]... -x PROFILE [SOURCE...]\n"
    "Coverage of the runs in PROFILE (NAME.profile of a program built with\n"
    "-xprofile=tcov or -xprofile=collect), from the coverage tables the\n"
    "compilers kept in the objects (or the program PROFILE is named after),\n"
    "beside them (OBJECT.xpcov) or in PROFILE/tcov.\n"
    "  -x PROFILE     the profile directory (or NAME, for NAME.profile)\n"
    "  (default)      write SOURCE.tcov in the current directory: each line\n"
    "                 where a block begins with its count, ##### when it\n"
    "                 never ran, and a summary of the file's blocks\n"
    "  -a             a count on every line with code, not only where blocks\n"
    "                 begin\n"
    "  -n             the table at the end lists every block that ran,\n"
    "                 busiest first (not only the top 10)\n"
    "  -o FILE        all listings into FILE (- for standard output)\n"
    "  -p OLD NEW     sources and objects under OLD at compile time are under\n"
    "                 NEW now (repeatable; the first match wins)\n"
    "  --lcov FILE    write an lcov tracefile (- for standard output): every\n"
    "                 source, or the SOURCEs given\n"
    "  -t NAME        the test name of the tracefile (TN:; default: the\n"
    "                 profile's name)\n"
    "  --summary      lines, functions and branches executed, per source\n"
    "Exit status 1 when a source could not be reported (missing, without\n"
    "data, or changed since it was compiled).\n";

/* ---- what was run, per source file ------------------------------------- */

/* A line over all the procedures of its source, added up as gcov does
 * (xprof.h, xprof_cov_line): the counts of the procedures where a block
 * ends on it, if any does, else the sums of its blocks; plus, apart, each
 * count of the line in a function of a group (functions that start on
 * the same line: a header's static function in several objects), which
 * gcov counts function by function within the function's own lines. */
typedef struct line_data {
  uint64_t ends, blocks, group;
  unsigned char exists, begins, any_ends; /* code; a block begins / ends here */
} line_data;

static uint64_t line_count(const line_data *l) {
  return xprof_sat_add(l->any_ends ? l->ends : l->blocks, l->group);
}

typedef struct block_data {
  uint32_t line;
  uint64_t count;
} block_data;

typedef struct branch_data {
  uint32_t line, block, index;
  uint64_t count, block_count;
} branch_data;

typedef struct func_data {
  const char *name;
  uint32_t line;
  uint64_t calls;
} func_data;

typedef struct source {
  char *path;  /* as compiled, then mapped by -p */
  uint64_t size, hash;
  int conflict; /* objects compiled from different versions of it */
  line_data *lines;
  uint32_t n_lines; /* highest line + 1 */
  block_data *blocks;
  uint32_t n_blocks, cap_blocks;
  branch_data *branches;
  uint32_t n_branches, cap_branches, next_block;
  func_data *funcs;
  uint32_t n_funcs, cap_funcs;
} source;

typedef struct string_list {
  char **v;
  size_t n, cap;
} string_list;

/* Append s (malloc'd; the list owns it). */
static void push_string(string_list *l, char *s) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->v = realloc(l->v, l->cap * sizeof *l->v);
    if (!l->v)
      exit(tool_error("out of memory"));
  }
  l->v[l->n++] = s;
}

typedef struct report {
  const char **map; /* OLD, NEW pairs */
  int n_map;
  source *sources;
  uint32_t n_sources, cap_sources;
  string_list seen;   /* name#signature of procedures counted (comdat once) */
  string_list starts; /* "path:line" of every procedure's start, sorted */
  int problems;
} report;

static void *grow(void *array, uint32_t *cap, uint32_t n, size_t elem) {
  if (n < *cap)
    return array;
  *cap = *cap ? 2 * *cap : 16;
  void *p = realloc(array, (size_t)*cap * elem);
  if (!p)
    exit(tool_error("out of memory"));
  return p;
}

/* path with the first matching -p prefix replaced (malloc'd). */
static char *mapped(const report *r, const char *path) {
  for (int k = 0; k < r->n_map; k++) {
    size_t n = strlen(r->map[2 * k]);
    if (strncmp(path, r->map[2 * k], n) == 0 && (path[n] == '/' || path[n] == 0 || n == 0)) {
      char *out;
      if (asprintf(&out, "%s%s", r->map[2 * k + 1], path + n) < 0)
        exit(tool_error("out of memory"));
      return out;
    }
  }
  char *out = strdup(path);
  if (!out)
    exit(tool_error("out of memory"));
  return out;
}

/* The index of the report's entry of a table's source (made on first
 * sight, which may move the others: an index, not a pointer). */
static uint32_t source_of(report *r, const xprof_cfg_source *s) {
  char *path = mapped(r, s->path);
  for (uint32_t i = 0; i < r->n_sources; i++)
    if (strcmp(r->sources[i].path, path) == 0) {
      free(path);
      source *known = &r->sources[i];
      known->conflict |= known->hash != s->hash;
      return i;
    }
  r->sources = grow(r->sources, &r->cap_sources, r->n_sources, sizeof *r->sources);
  source *n = &r->sources[r->n_sources++];
  memset(n, 0, sizeof *n);
  n->path = path;
  n->size = s->size;
  n->hash = s->hash;
  return r->n_sources - 1;
}

static line_data *line_of(source *s, uint32_t line) {
  if (line >= s->n_lines) {
    uint32_t n = line + 64;
    s->lines = realloc(s->lines, (size_t)n * sizeof *s->lines);
    if (!s->lines)
      exit(tool_error("out of memory"));
    memset(s->lines + s->n_lines, 0, (size_t)(n - s->n_lines) * sizeof *s->lines);
    s->n_lines = n;
  }
  return &s->lines[line];
}

/* Has a copy of this procedure been counted?  A comdat function (an
 * inline function of a header, a template) is in every object that uses
 * it, sharing one counter array: each object's record holds the same
 * counts, which are counted once. */
static int counted_before(report *r, const char *name, uint64_t signature) {
  char *key;
  if (asprintf(&key, "%s#%" PRIx64, name, signature) < 0)
    exit(tool_error("out of memory"));
  for (size_t i = 0; i < r->seen.n; i++)
    if (strcmp(r->seen.v[i], key) == 0) {
      free(key);
      return 1;
    }
  push_string(&r->seen, key);
  return 0;
}

/* A function of source s; the copies of a static function of a header in
 * several objects are one, with their calls summed (as lcov sums them). */
static void add_function(source *s, const char *name, uint32_t line, uint64_t calls) {
  for (uint32_t i = 0; i < s->n_funcs; i++)
    if (strcmp(s->funcs[i].name, name) == 0 && s->funcs[i].line == line) {
      s->funcs[i].calls = xprof_sat_add(s->funcs[i].calls, calls);
      return;
    }
  s->funcs = grow(s->funcs, &s->cap_funcs, s->n_funcs, sizeof *s->funcs);
  s->funcs[s->n_funcs++] = (func_data){name, line, calls};
}

/* Add one procedure's coverage to its sources; grouped: it is in a
 * group (is_grouped). */
static void add_proc(report *r, const xprof_cfgdump *t, const xprof_cfgdump_entry *c,
                     const xprof_proc_cov *cov, int grouped) {
  source **of = calloc(t->n_sources + 1, sizeof *of);
  if (!of)
    exit(tool_error("out of memory"));
  uint32_t *at = calloc(t->n_sources + 1, sizeof *at);
  if (!at)
    exit(tool_error("out of memory"));
  for (uint32_t i = 0; i < t->n_sources; i++)
    at[i] = source_of(r, &t->sources[i]);
  for (uint32_t i = 0; i < t->n_sources; i++) /* all made: none moves now */
    of[i] = &r->sources[at[i]];
  free(at);
  for (uint32_t i = 0; i < cov->n_lines; i++) {
    line_data *l = line_of(of[cov->lines[i].file], cov->lines[i].line);
    l->exists = 1;
    l->begins |= (cov->lines[i].flags & XPROF_COV_BEGINS_BLOCK) != 0;
    if (grouped && cov->lines[i].file == c->decl_file && cov->lines[i].line >= c->decl_line &&
        cov->lines[i].line <= c->end_line) {
      l->group = xprof_sat_add(l->group, cov->lines[i].count);
      continue;
    }
    if (cov->lines[i].flags & XPROF_COV_ENDS_BLOCK) {
      l->ends = xprof_sat_add(l->ends, cov->lines[i].count);
      l->any_ends = 1;
    }
    l->blocks = xprof_sat_add(l->blocks, cov->lines[i].blocks);
  }
  for (uint32_t i = 0; i < cov->n_blocks; i++) {
    source *s = of[cov->blocks[i].file];
    s->blocks = grow(s->blocks, &s->cap_blocks, s->n_blocks, sizeof *s->blocks);
    s->blocks[s->n_blocks++] = (block_data){cov->blocks[i].line, cov->blocks[i].count};
  }
  uint32_t last_node = UINT32_MAX;
  for (uint32_t i = 0; i < cov->n_branches; i++) {
    const xprof_cov_branch *b = &cov->branches[i];
    source *s = of[b->file];
    if (b->node != last_node) /* lcov wants block numbers unique per line */
      s->next_block++;
    last_node = b->node;
    s->branches = grow(s->branches, &s->cap_branches, s->n_branches, sizeof *s->branches);
    s->branches[s->n_branches++] =
        (branch_data){b->line, s->next_block, b->index, b->count, b->block_count};
  }
  if (c->decl_file != XPROF_NO_LINE)
    add_function(of[c->decl_file], c->name, c->decl_line, cov->entry_count);
  free(of);
}

/* ---- gcov's function groups ------------------------------------------ */

/* "path:line" where procedure c of table t starts (malloc'd), or NULL
 * when the table does not say where it starts and ends. */
static char *start_key(const report *r, const xprof_cfgdump *t, const xprof_cfgdump_entry *c) {
  if (c->decl_file == XPROF_NO_LINE || c->end_line == XPROF_NO_LINE)
    return NULL;
  char *path = mapped(r, t->sources[c->decl_file].path), *key;
  if (asprintf(&key, "%s:%u", path, c->decl_line) < 0)
    exit(tool_error("out of memory"));
  free(path);
  return key;
}

static int by_string(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void note_start(report *r, const xprof_cfgdump *t, const xprof_cfgdump_entry *c) {
  char *key = start_key(r, t, c);
  if (key)
    push_string(&r->starts, key);
}

/* Is c in a group: do two procedures of the profile (copies in other
 * objects included) start where it starts?  (r->starts sorted.) */
static int is_grouped(const report *r, const xprof_cfgdump *t, const xprof_cfgdump_entry *c) {
  char *key = start_key(r, t, c);
  if (!key)
    return 0;
  char **v = r->starts.v, **hit = bsearch(&key, v, r->starts.n, sizeof *v, by_string);
  int grouped = hit && ((hit > v && strcmp(hit[-1], key) == 0) ||
                        (hit + 1 < v + r->starts.n && strcmp(hit[1], key) == 0));
  free(key);
  return grouped;
}

/* ---- reading the profile and the tables -------------------------------- */

/* The coverage table of object o, its path mapped by -p (malloc'd), or
 * NULL. */
static char *find_table(const report *r, const char *profile_dir, const char *objpath) {
  char *obj = mapped(r, objpath);
  char *path = xprof_table_find(profile_dir, NULL, objpath, obj);
  free(obj);
  return path;
}

/* Say why object objpath has no table: where it was looked for, and
 * what keeps one. */
static void explain_missing(const report *r, const char *profile_dir, const char *objpath) {
  char *obj = mapped(r, objpath);
  const char *why = access(obj, F_OK) != 0
                        ? "the object file is gone (a make clean, or a temporary object of a "
                          "compile-and-link)"
                        : "the object file holds none (built with no-coverage-table, or by "
                          "an older xprof)";
  tool_error("no coverage table for %s: %s, and there is none in the program the profile "
             "is named after, in %s/tcov or beside the object (%s.xpcov); a collect build "
             "keeps the table in the object file and in the program linked from it: report "
             "while they are there, or build with -xprofile=tcov:NAME, which keeps tables in "
             "NAME.profile/tcov",
             obj, why, profile_dir, obj);
  free(obj);
}

/* An object of the profile with its table. */
typedef struct loaded {
  const xprof_objfile *o;
  char *table;
  xprof_cfgdump t;
} loaded;

/* Is c as the profile has it (the object not rebuilt since)?  Its record. */
static const xprof_proc *profiled(const xprof_objfile *o, const xprof_cfgdump_entry *c) {
  const xprof_proc *f = xprof_find_proc(o, c->name);
  return f && f->signature == c->signature ? f : NULL;
}

/* Count the procedures of one object by its table. */
static void add_object(report *r, const loaded *x) {
  uint32_t stale = 0;
  for (uint32_t i = 0; i < x->t.n_procs; i++) {
    const xprof_cfgdump_entry *c = &x->t.procs[i];
    const xprof_proc *f = profiled(x->o, c);
    if (!f) {
      stale++;
      continue;
    }
    if (c->comdat && counted_before(r, c->name, c->signature))
      continue;
    uint64_t *edges = calloc((size_t)c->n_edges + 1, 8), *nodes = calloc((size_t)c->n_nodes + 1, 8);
    xprof_proc_cov cov;
    if (!edges || !nodes)
      exit(tool_error("out of memory"));
    if (xprof_solve_proc(x->o, f, c, edges, nodes) < 0 ||
        xprof_proc_coverage(c, edges, nodes, &cov) < 0)
      exit(tool_error("%s: cannot solve the counts of %s", x->table, c->name));
    add_proc(r, &x->t, c, &cov, is_grouped(r, &x->t, c));
    xprof_proc_coverage_free(&cov);
    free(edges);
    free(nodes);
  }
  if (stale)
    tool_error("%s: %u procedure%s not as in the profile (the object was rebuilt after the "
               "run?): left out",
               x->table, stale, xprof_plural(stale));
}

/* Every object's table, read before any is counted: which procedures
 * form groups depends on all of them. */
/* Whether a table knows any line of its procedures. */
static int has_lines(const xprof_cfgdump *t) {
  for (uint32_t k = 0; k < t->n_procs; k++)
    if (t->procs[k].n_lines || t->procs[k].decl_line != XPROF_NO_LINE)
      return 1;
  return !t->n_procs;
}

static void read_coverage(report *r, const char *profile_dir, xprof_profile *p) {
  loaded *all = calloc((size_t)p->n_objfiles + 1, sizeof *all);
  uint32_t n = 0, missing = 0, no_lines = 0;
  if (!all)
    exit(tool_error("out of memory"));
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    const xprof_objfile *o = &p->objfiles[i];
    char *table = find_table(r, profile_dir, o->path);
    xprof_error err;
    if (!table) {
      if (missing++ < 5)
        explain_missing(r, profile_dir, o->path);
      continue;
    }
    if (xprof_table_read(table, o->path, p, &all[n].t, &err) < 0) {
      tool_fail(&err);
      r->problems++;
      xprof_free(table);
      continue;
    }
    all[n].o = o;
    all[n].table = table;
    no_lines += !has_lines(&all[n].t);
    for (uint32_t k = 0; k < all[n].t.n_procs; k++)
      if (profiled(o, &all[n].t.procs[k]))
        note_start(r, &all[n].t, &all[n].t.procs[k]);
    n++;
  }
  if (missing > 5)
    tool_error("... and %u more object files without coverage tables", missing - 5);
  if (no_lines)
    tool_error("the coverage tables of %u object file%s have no line information: compiled "
               "without debug information, which clang needs for lines (GCC does not); add -g "
               "or -gline-tables-only to the collect build (-xprofile=tcov adds it)",
               no_lines, xprof_plural(no_lines));
  qsort(r->starts.v, r->starts.n, sizeof *r->starts.v, by_string);
  for (uint32_t i = 0; i < n; i++) {
    add_object(r, &all[i]);
    xprof_free(all[i].table);
  }
  free(all);
}

/* ---- choosing sources ------------------------------------------------- */

/* The source an argument names: the same file, or a source whose path
 * ends with the argument's ("src/a.c"); NULL after saying why not. */
static source *find_source(report *r, const char *arg) {
  char real[PATH_MAX];
  const char *want = realpath(arg, real) ? real : arg;
  size_t n = strlen(arg);
  source *suffix = NULL;
  for (uint32_t i = 0; i < r->n_sources; i++) {
    source *s = &r->sources[i];
    if (strcmp(s->path, want) == 0)
      return s;
    size_t m = strlen(s->path);
    if (!suffix && m > n && s->path[m - n - 1] == '/' && strcmp(s->path + m - n, arg) == 0)
      suffix = s;
  }
  if (suffix)
    return suffix;
  /* A source of the program without code (tables of data) has no blocks:
   * worth a word, not a failure.  A name that is no file is a mistake. */
  if (access(arg, R_OK) == 0) {
    tool_error("%s: no code of it is in the profile's objects (only data, or not compiled "
               "with xprof); no listing",
               arg);
  } else {
    tool_error("%s: no coverage data, and no such file", arg);
    r->problems++;
  }
  return NULL;
}

static int by_path(const void *a, const void *b) {
  return strcmp(((const source *)a)->path, ((const source *)b)->path);
}

/* ---- listings ---------------------------------------------------------- */

static int busiest_first(const void *a, const void *b) {
  const block_data *x = a, *y = b;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* The table of the busiest blocks and the file's totals, as tcov ends a
 * listing. */
static void write_summary_table(FILE *out, const source *s, int all_busy) {
  block_data *b = malloc(((size_t)s->n_blocks + 1) * sizeof *b);
  if (!b)
    exit(tool_error("out of memory"));
  memcpy(b, s->blocks, (size_t)s->n_blocks * sizeof *b);
  qsort(b, s->n_blocks, sizeof *b, busiest_first);
  uint64_t run = 0, total = 0;
  for (uint32_t i = 0; i < s->n_blocks; i++) {
    run += b[i].count > 0;
    total = xprof_sat_add(total, b[i].count);
  }
  uint32_t top = all_busy ? (uint32_t)run : (run < 10 ? (uint32_t)run : 10);
  fprintf(out, "\n\n\t %s Blocks\n\n\t Line\t Count\n\n", all_busy ? "Busiest" : "Top 10");
  for (uint32_t i = 0; i < top; i++)
    fprintf(out, "\t%5u\t%6" PRIu64 "\n", b[i].line, b[i].count);
  double n = s->n_blocks ? (double)s->n_blocks : 1;
  fprintf(out, "\n\n\t%u\tBasic blocks in this file\n", s->n_blocks);
  fprintf(out, "\t%" PRIu64 "\tBasic blocks executed\n", run);
  fprintf(out, "\t%.2f\tPercent of the file executed\n\n", 100.0 * (double)run / n);
  fprintf(out, "\t%" PRIu64 "\tTotal basic block executions\n", total);
  fprintf(out, "\t%.2f\tAverage executions per basic block\n", (double)total / n);
  free(b);
}

/* Read the source as it is now, and tell whether it is the one compiled
 * (by size and hash); text is malloc'd. */
static int read_current(const source *s, char **text, size_t *len) {
  FILE *f = fopen(s->path, "rb");
  char *buf = NULL;
  size_t cap = 0, n = 0, got;
  if (!f) {
    tool_error("cannot read %s: %s (use -p OLD NEW if the sources moved)", s->path,
               strerror(errno));
    return -1;
  }
  do {
    if (n == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 65536)))
      exit(tool_error("out of memory"));
    got = fread(buf + n, 1, cap - n, f);
    n += got;
  } while (got);
  int bad = ferror(f);
  fclose(f);
  *text = buf;
  *len = n;
  if (bad) {
    tool_error("cannot read %s: %s", s->path, strerror(errno));
    return -1;
  }
  if (s->conflict) {
    tool_error("%s: the objects were compiled from different versions of it; not annotated",
               s->path);
    return -1;
  }
  if (n != s->size || xprof_hash64(buf, n) != s->hash) {
    tool_error("%s has changed since it was compiled; not annotated (rebuild and run again)",
               s->path);
    return -1;
  }
  return 0;
}

static void write_listing(FILE *out, const source *s, const char *text, size_t len, int every,
                          int all_busy) {
  uint32_t line = 1;
  for (size_t at = 0; at < len; line++) {
    const char *end = memchr(text + at, '\n', len - at);
    size_t n = end ? (size_t)(end - (text + at)) : len - at;
    const line_data *l = line < s->n_lines ? &s->lines[line] : NULL;
    if (l && l->exists && (l->begins || every)) {
      if (line_count(l))
        fprintf(out, "%10" PRIu64 " -> ", line_count(l));
      else
        fputs("     ##### -> ", out);
    } else {
      fputs("              ", out);
    }
    fprintf(out, "%.*s\n", (int)n, text + at);
    at += n + 1;
  }
  write_summary_table(out, s, all_busy);
}

/* SOURCE.tcov (or into `shared`), for one source; 0 or -1. */
static int list_source(const source *s, const char *arg, FILE *shared, int every,
                       int all_busy) {
  char *text = NULL;
  size_t len = 0;
  int rc = read_current(s, &text, &len);
  if (rc == 0) {
    FILE *out = shared;
    char *name = NULL;
    if (!out) {
      const char *base = strrchr(arg, '/');
      if (asprintf(&name, "%s.tcov", base ? base + 1 : arg) < 0)
        exit(tool_error("out of memory"));
      out = fopen(name, "w");
      if (!out)
        rc = -tool_error("cannot write %s: %s", name, strerror(errno));
    }
    if (out)
      write_listing(out, s, text, len, every, all_busy);
    if (out && !shared && fclose(out) != 0)
      rc = -tool_error("cannot write %s: %s", name, strerror(errno));
    free(name);
  }
  free(text);
  return rc;
}

/* ---- lcov tracefiles and summaries ------------------------------------ */

typedef struct totals {
  uint64_t lines, lines_hit, funcs, funcs_hit, branches, branches_hit;
} totals;

static void count_source(const source *s, totals *t) {
  for (uint32_t i = 0; i < s->n_lines; i++) {
    t->lines += s->lines[i].exists;
    t->lines_hit += s->lines[i].exists && line_count(&s->lines[i]);
  }
  for (uint32_t i = 0; i < s->n_funcs; i++) {
    t->funcs++;
    t->funcs_hit += s->funcs[i].calls > 0;
  }
  for (uint32_t i = 0; i < s->n_branches; i++) {
    t->branches++;
    t->branches_hit += s->branches[i].count > 0;
  }
}

static int by_line(const void *a, const void *b) {
  const func_data *x = a, *y = b;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return strcmp(x->name, y->name);
}

static void write_lcov_source(FILE *out, source *s, const char *test) {
  totals t = {0};
  count_source(s, &t);
  qsort(s->funcs, s->n_funcs, sizeof *s->funcs, by_line);
  fprintf(out, "TN:%s\nSF:%s\n", test, s->path);
  for (uint32_t i = 0; i < s->n_funcs; i++)
    fprintf(out, "FN:%u,%s\n", s->funcs[i].line, s->funcs[i].name);
  for (uint32_t i = 0; i < s->n_funcs; i++)
    fprintf(out, "FNDA:%" PRIu64 ",%s\n", s->funcs[i].calls, s->funcs[i].name);
  fprintf(out, "FNF:%" PRIu64 "\nFNH:%" PRIu64 "\n", t.funcs, t.funcs_hit);
  for (uint32_t i = 0; i < s->n_branches; i++) {
    const branch_data *b = &s->branches[i];
    if (b->block_count)
      fprintf(out, "BRDA:%u,%u,%u,%" PRIu64 "\n", b->line, b->block, b->index, b->count);
    else
      fprintf(out, "BRDA:%u,%u,%u,-\n", b->line, b->block, b->index);
  }
  fprintf(out, "BRF:%" PRIu64 "\nBRH:%" PRIu64 "\n", t.branches, t.branches_hit);
  for (uint32_t i = 0; i < s->n_lines; i++)
    if (s->lines[i].exists)
      fprintf(out, "DA:%u,%" PRIu64 "\n", i, line_count(&s->lines[i]));
  fprintf(out, "LF:%" PRIu64 "\nLH:%" PRIu64 "\nend_of_record\n", t.lines, t.lines_hit);
}

static double percent(uint64_t part, uint64_t whole) {
  return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Per source, then the totals in lcov --summary's words. */
static void write_summary(FILE *out, source **list, uint32_t n) {
  totals all = {0};
  fprintf(out, "%-22s %-22s %-22s %s\n", "Lines", "Functions", "Branches", "Source");
  for (uint32_t i = 0; i < n; i++) {
    totals t = {0};
    count_source(list[i], &t);
    char l[64], f[64], b[64];
    snprintf(l, sizeof l, "%5.1f%% %" PRIu64 "/%" PRIu64, percent(t.lines_hit, t.lines),
             t.lines_hit, t.lines);
    snprintf(f, sizeof f, "%5.1f%% %" PRIu64 "/%" PRIu64, percent(t.funcs_hit, t.funcs),
             t.funcs_hit, t.funcs);
    snprintf(b, sizeof b, "%5.1f%% %" PRIu64 "/%" PRIu64,
             percent(t.branches_hit, t.branches), t.branches_hit, t.branches);
    fprintf(out, "%-22s %-22s %-22s %s\n", l, f, b, list[i]->path);
    all.lines += t.lines, all.lines_hit += t.lines_hit;
    all.funcs += t.funcs, all.funcs_hit += t.funcs_hit;
    all.branches += t.branches, all.branches_hit += t.branches_hit;
  }
  fprintf(out, "Summary coverage rate:\n");
  fprintf(out, "  lines......: %.1f%% (%" PRIu64 " of %" PRIu64 " lines)\n",
          percent(all.lines_hit, all.lines), all.lines_hit, all.lines);
  fprintf(out, "  functions..: %.1f%% (%" PRIu64 " of %" PRIu64 " functions)\n",
          percent(all.funcs_hit, all.funcs), all.funcs_hit, all.funcs);
  fprintf(out, "  branches...: %.1f%% (%" PRIu64 " of %" PRIu64 " branches)\n",
          percent(all.branches_hit, all.branches), all.branches_hit, all.branches);
}

/* ---- the command ------------------------------------------------------- */

struct options {
  const char *profile, *output, *lcov, *test;
  int every, all_busy, summary;
  const char **sources;
  int n_sources;
};

static int parse_options(int argc, char **argv, struct options *o, report *r) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int has_next = i + 1 < argc;
    if (strcmp(a, "-a") == 0)
      o->every = 1;
    else if (strcmp(a, "-n") == 0)
      o->all_busy = 1;
    else if (strcmp(a, "--summary") == 0)
      o->summary = 1;
    else if (strcmp(a, "-x") == 0 && has_next)
      o->profile = argv[++i];
    else if (strcmp(a, "-o") == 0 && has_next)
      o->output = argv[++i];
    else if (strcmp(a, "--lcov") == 0 && has_next)
      o->lcov = argv[++i];
    else if (strcmp(a, "-t") == 0 && has_next)
      o->test = argv[++i];
    else if (strcmp(a, "-p") == 0 && i + 2 < argc) {
      r->map[2 * r->n_map] = argv[++i];
      r->map[2 * r->n_map++ + 1] = argv[++i];
    } else if (a[0] == '-' && a[1])
      return tool_error("unknown option or missing value: %s (see --help)", a);
    else
      o->sources[o->n_sources++] = a;
  }
  if (!o->profile)
    return tool_error("no profile: give -x PROFILE (see --help)");
  if (!o->lcov && !o->summary && !o->n_sources)
    return tool_error("no source files to list (or give --lcov FILE or --summary)");
  return 0;
}

static FILE *open_output(const char *path) {
  FILE *f = tool_open_output(path, "w");
  if (!f)
    exit(1);
  return f;
}

static void close_output(FILE *f, const char *path) {
  if (tool_close_output(f, path, 0))
    exit(1);
}

/* The sources to report: those named, or all of them, by path. */
static source **chosen_sources(report *r, const struct options *o, uint32_t *n) {
  source **list = calloc((size_t)r->n_sources + (size_t)o->n_sources + 1, sizeof *list);
  if (!list)
    exit(tool_error("out of memory"));
  *n = 0;
  if (!o->n_sources) {
    qsort(r->sources, r->n_sources, sizeof *r->sources, by_path);
    for (uint32_t i = 0; i < r->n_sources; i++)
      list[(*n)++] = &r->sources[i];
    return list;
  }
  for (int k = 0; k < o->n_sources; k++)
    list[(*n)++] = find_source(r, o->sources[k]);
  return list;
}

/* The tracefile's test name: -t, else the profile's name (prog for
 * prog.profile) in the letters lcov allows in one (malloc'd). */
static char *test_name(const struct options *o, const char *dir) {
  const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
  char *name = strdup(o->test ? o->test : base);
  if (!name)
    exit(tool_error("out of memory"));
  size_t n = strlen(name);
  if (!o->test && n > 8 && strcmp(name + n - 8, ".profile") == 0)
    name[n - 8] = 0;
  for (char *c = name; *c; c++)
    if (!(*c == '_' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
          (*c >= 'A' && *c <= 'Z')))
      *c = '_';
  return name;
}

static void write_reports(report *r, const struct options *o, const char *dir) {
  uint32_t n;
  source **list = chosen_sources(r, o, &n);
  if (o->lcov) {
    FILE *out = open_output(o->lcov);
    char *test = test_name(o, dir);
    for (uint32_t i = 0; i < n; i++)
      if (list[i])
        write_lcov_source(out, list[i], test);
    free(test);
    close_output(out, o->lcov);
  }
  if (o->summary) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
      if (list[i])
        list[m++] = list[i];
    write_summary(stdout, list, m);
    n = o->n_sources ? n : 0;
  }
  FILE *shared = o->output && o->n_sources ? open_output(o->output) : NULL;
  for (int k = 0; !o->lcov && !o->summary && k < o->n_sources; k++)
    if (list[k] && list_source(list[k], o->sources[k], shared, o->every, o->all_busy) < 0)
      r->problems++;
  if (shared)
    close_output(shared, o->output);
  free(list);
}

int main(int argc, char **argv) {
  tool_init("xprof_tcov");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  report r = {0};
  struct options o = {0};
  r.map = calloc((size_t)argc + 1, sizeof *r.map);
  o.sources = calloc((size_t)argc + 1, sizeof *o.sources);
  if (!r.map || !o.sources)
    return tool_error("out of memory");
  if (parse_options(argc, argv, &o, &r))
    return 2;
  char *dir = xprof_profile_dir_name(o.profile);
  struct stat st;
  if (!dir)
    return tool_error("out of memory");
  if (stat(o.profile, &st) == 0 && S_ISDIR(st.st_mode)) { /* named as it is */
    free(dir);
    dir = strdup(o.profile);
  }
  xprof_error err;
  xprof_profile *p;
  if (xprof_read_profile_dir(dir, &p, &err) < 0)
    return tool_fail(&err);
  read_coverage(&r, dir, p);
  write_reports(&r, &o, dir);
  xprof_profile_free(p);
  free(dir);
  return r.problems ? 1 : 0;
}
