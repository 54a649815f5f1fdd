/*
 * xprof_gprof - a training run as GNU gprof reads it: a gmon.out with the
 * time samples of the executable's text (SUN_PROFDATA_SAMPLE runs) and
 * the exact number of calls of every caller -> callee pair the profile
 * knows (libxprof's call graph).  See xprof_gprof(1).
 */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_gprof [-o FILE] [-v] PROFILE EXECUTABLE\n"
    "Write the training runs in PROFILE (NAME.profile) as a gmon.out for\n"
    "GNU gprof: the time samples of EXECUTABLE's text (runs with\n"
    "SUN_PROFDATA_SAMPLE=1) as its histogram, and the exact number of calls\n"
    "between the instrumented functions as its call graph, and the count of\n"
    "every line of theirs (from the coverage tables and the executable's\n"
    "line table, -g) as its basic-block counts.  Then:\n"
    "  gprof EXECUTABLE gmon.out       (gprof -A -x: annotated source)\n"
    "  -o FILE   write FILE (default: gmon.out)\n"
    "  -v        say what was left out, and why\n";

/* Whether gprof takes a symbol for a function: the parts after each '.'
 * must be numbers, after an optional "clone." or "constprop." (GCC's
 * clones it knows).  gprof counts what falls in other symbols -- .isra,
 * .part and .cold clones -- to the function before them. */
static int gprof_function(const char *name) {
  for (const char *dot = strchr(name, '.'); dot; dot = strchr(dot + 1, '.')) {
    const char *p = dot + 1;
    if (strncmp(p, "clone.", 6) == 0)
      p += 6;
    else if (strncmp(p, "constprop.", 10) == 0)
      p += 10;
    if (!isdigit((unsigned char)*p))
      return 0;
    while (isdigit((unsigned char)*p))
      p++;
    if (*p && *p != '.')
      return 0;
    dot = p - 1;
  }
  return 1;
}

/* The source file (STT_FILE group of local symbols) an object file's
 * static functions are in: the group most of its procedures with a
 * unique local symbol fall in.  Cached per object file. */
static uint32_t object_file_group(const xprof_elf *e, const xprof_profile *p,
                                  const xprof_objfile *o) {
  static uint32_t *cache;
  static const xprof_profile *cached_for;
  if (cached_for != p) {
    free(cache);
    cache = malloc(((size_t)p->n_objfiles + 1) * sizeof *cache);
    if (!cache)
      exit(tool_error("out of memory"));
    for (uint32_t i = 0; i < p->n_objfiles; i++)
      cache[i] = XPROF_ELF_NO_FILE - 1; /* not worked out */
    cached_for = p;
  }
  uint32_t k = (uint32_t)(o - p->objfiles);
  if (cache[k] != XPROF_ELF_NO_FILE - 1)
    return cache[k];
  /* Votes: of its procedures whose names are unique in the executable,
   * how many each source file's locals hold. */
  uint32_t *groups = calloc((size_t)o->n_procs + 1, sizeof *groups);
  uint32_t *votes = calloc((size_t)o->n_procs + 1, sizeof *votes);
  uint32_t n_groups = 0, best = XPROF_ELF_NO_FILE, best_votes = 0;
  if (!groups || !votes)
    exit(tool_error("out of memory"));
  for (uint32_t j = 0; j < o->n_procs; j++) {
    uint32_t first, g;
    if (xprof_elf_funcs_named(e, o->procs[j].name, &first) != 1 ||
        (g = e->by_name[first]->file) == XPROF_ELF_NO_FILE)
      continue;
    uint32_t m = 0;
    while (m < n_groups && groups[m] != g)
      m++;
    if (m == n_groups)
      groups[n_groups++] = g;
    if (++votes[m] > best_votes) {
      best_votes = votes[m];
      best = g;
    }
  }
  free(groups);
  free(votes);
  return cache[k] = best;
}

/* Of the n functions of one name from by_name[first], the one in o's
 * source file, or the first. */
static const xprof_elf_func *pick(const xprof_elf *e, const xprof_profile *p, uint32_t first,
                                  uint32_t n, const xprof_objfile *o) {
  if (n > 1 && o && p) {
    uint32_t group = object_file_group(e, p, o);
    for (uint32_t i = 0; i < n && group != XPROF_ELF_NO_FILE; i++)
      if (e->by_name[first + i]->file == group)
        return e->by_name[first + i];
  }
  return e->by_name[first];
}

/* The function of procedure `name` of object file o (NULL: unknown) in
 * the executable, as gprof knows functions: the symbol itself -- of
 * several static functions of that name, the one of o's source file --
 * or a clone GCC made of it after instrumentation that gprof shows
 * (NAME.constprop.0); NULL for none (a procedure inlined everywhere, or
 * cloned into a form gprof folds into its neighbour). */
static const xprof_elf_func *resolve_in(const xprof_elf *e, const xprof_profile *p,
                                        const char *name, const xprof_objfile *o) {
  uint32_t first, n = xprof_elf_funcs_named(e, name, &first);
  if (n)
    return gprof_function(name) ? pick(e, p, first, n, o) : NULL;
  size_t len = strlen(name);
  for (uint32_t i = first; i < e->n_funcs; i++) {
    const char *s = e->by_name[i]->name;
    if (strncmp(s, name, len) != 0)
      break;
    if (s[len] == '.' && gprof_function(s)) {
      uint32_t f2, m = xprof_elf_funcs_named(e, s, &f2);
      return pick(e, p, f2, m, o);
    }
  }
  return NULL;
}


/* A histogram of no samples over the executable's text: without one
 * gprof divides by a total time of zero. */
static int empty_histogram(const xprof_elf *e, xprof_gmon *g) {
  if (!e->n_segs)
    return 0;
  const uint32_t width = 64;
  uint64_t n = e->segs[0].size / width + 1;
  if (n > UINT32_MAX)
    return 0;
  g->hist = calloc(n, sizeof *g->hist);
  if (!g->hist)
    return tool_error("out of memory");
  g->n_hist = (uint32_t)n;
  g->hist_low = e->segs[0].vaddr;
  g->hist_high = e->segs[0].vaddr + n * width;
  g->prof_rate = 100;
  strcpy(g->dimen, "seconds");
  g->dimen_abbrev = 's';
  return 0;
}

/* The histogram of the executable's samples, if the profile has any. */
static int histogram(const xprof_profile *p, const xprof_elf *e, const char *exe,
                     xprof_gmon *g, int verbose) {
  const xprof_image *img = NULL;
  int rebuilt = 0, sampled = 0;
  char real[PATH_MAX];
  const char *path = realpath(exe, real) ? real : exe;
  for (uint32_t i = 0; i < p->n_images; i++) {
    if (p->images[i].flags & XPROF_IMAGE_OVERFLOW)
      continue;
    sampled = 1;
    if (xprof_elf_matches_image(e, &p->images[i]))
      img = &p->images[i];
    else if (strcmp(p->images[i].path, path) == 0)
      rebuilt = 1;
  }
  if (!img) {
    /* Said without -v only when it is a surprise: a file rebuilt since. */
    if (verbose || rebuilt)
      tool_error("%s: no time samples of it in the profile (%s); the gmon.out's histogram "
                 "is empty",
                 exe,
                 rebuilt   ? "it was rebuilt since the run"
                 : sampled ? "the sampled runs spent no time in it"
                           : "run the program with SUN_PROFDATA_SAMPLE=1");
    return empty_histogram(e, g);
  }
  /* gprof reads a histogram in units of two bytes at least (its UNIT):
   * narrower bins (the runtime's are a byte) are added up into bins of
   * four bytes at least, as glibc's gmon makes them. */
  uint32_t merged = img->bin_width >= 4 ? 1 : (4 + img->bin_width - 1) / img->bin_width;
  uint64_t width = (uint64_t)img->bin_width * merged;
  uint64_t n = img->text_size / width + (img->text_size % width != 0);
  if (n > UINT32_MAX)
    return tool_error("%s: a text of %" PRIu64 " bins is too large for gmon.out", exe, n);
  g->hist = calloc(n ? n : 1, sizeof *g->hist);
  if (!g->hist)
    return tool_error("out of memory");
  g->n_hist = (uint32_t)n;
  g->hist_low = img->text_off;
  g->hist_high = img->text_off + n * width;
  for (uint32_t i = 0; i < img->n_bins; i++)
    g->hist[img->bins[i].index / merged] =
        xprof_sat_add(g->hist[img->bins[i].index / merged], img->bins[i].count);
  double ns = xprof_image_sample_ns(img);
  g->prof_rate = ns > 0 ? (uint32_t)llround(1e9 / ns) : 100;
  strcpy(g->dimen, "seconds");
  g->dimen_abbrev = 's';
  return 0;
}

/* Add n calls from the function of procedure `caller` to `to`.  A caller
 * the compiler inlined everywhere after instrumentation has no function
 * of its own: its calls are made from the functions it was inlined into,
 * its own callers, which get them in proportion to their calls of it (all
 * of them when it has one caller, the usual case; up to 8 levels).  The
 * callee's count stays exact either way.  Returns the calls left out. */
/* The arcs into each procedure: into[first[k] .. first[k + 1]) index
 * cg->arcs, callers other than k itself. */
typedef struct arcs_in {
  uint32_t *first, *into;
} arcs_in;

static void index_arcs_in(const xprof_callgraph *cg, arcs_in *x) {
  x->first = calloc((size_t)cg->n_procs + 2, sizeof *x->first);
  x->into = calloc((size_t)cg->n_arcs + 1, sizeof *x->into);
  if (!x->first || !x->into)
    exit(tool_error("out of memory"));
  for (uint32_t i = 0; i < cg->n_arcs; i++)
    if (cg->arcs[i].callee_proc != UINT32_MAX && cg->arcs[i].callee_proc != cg->arcs[i].caller)
      x->first[cg->arcs[i].callee_proc + 2]++;
  for (uint32_t k = 0; k < cg->n_procs; k++)
    x->first[k + 2] += x->first[k + 1];
  for (uint32_t i = 0; i < cg->n_arcs; i++)
    if (cg->arcs[i].callee_proc != UINT32_MAX && cg->arcs[i].callee_proc != cg->arcs[i].caller)
      x->into[x->first[cg->arcs[i].callee_proc + 1]++] = i;
}

static void add_gmon_arc(xprof_gmon *g, uint64_t from, uint64_t self, uint64_t n) {
  /* Repeats of a pair are fine: gprof adds them up. */
  if (g->n_arcs == g->cap_arcs) {
    g->cap_arcs = g->cap_arcs ? 2 * g->cap_arcs : 256;
    if (!(g->arcs = realloc(g->arcs, g->cap_arcs * sizeof *g->arcs)))
      exit(tool_error("out of memory"));
  }
  g->arcs[g->n_arcs++] = (xprof_gmon_arc){from, self, n};
}

static uint64_t place_arc(const xprof_callgraph *cg, const arcs_in *x, const xprof_elf *e,
                          uint32_t caller, const xprof_elf_func *to, uint64_t n, int depth,
                          xprof_gmon *g) {
  const xprof_elf_func *from =
      resolve_in(e, cg->owner, cg->procs[caller].name, cg->procs[caller].objfile);
  if (from) {
    add_gmon_arc(g, from->addr, to->addr, n);
    return 0;
  }
  uint32_t lo = x->first[caller], hi = x->first[caller + 1];
  uint64_t in = 0, left = n, lost = 0;
  for (uint32_t k = lo; k < hi; k++)
    in += cg->arcs[x->into[k]].count;
  if (!in || depth == 8)
    return n;
  for (uint32_t k = lo; k < hi; k++) {
    const xprof_cg_arc *a = &cg->arcs[x->into[k]];
    /* Shares by calls; the last caller takes what rounding left. */
    uint64_t share = k + 1 == hi ? left : (uint64_t)((double)n * (double)a->count / (double)in);
    if (share > left)
      share = left;
    left -= share;
    if (share)
      lost += place_arc(cg, x, e, a->caller, to, share, depth + 1, g);
  }
  return lost;
}

/* The call arcs between functions of the executable. */
static int arcs(const xprof_callgraph *cg, const xprof_elf *e, xprof_gmon *g, int verbose) {
  uint64_t outside = 0;
  arcs_in x;
  index_arcs_in(cg, &x);
  for (uint32_t i = 0; i < cg->n_arcs; i++) {
    const xprof_cg_arc *a = &cg->arcs[i];
    const xprof_objfile *obj = a->callee_proc != UINT32_MAX ? cg->procs[a->callee_proc].objfile : NULL;
    const xprof_elf_func *to = resolve_in(e, cg->owner, a->callee, obj);
    if (!to) /* a library's, or inlined everywhere */
      outside += a->count;
    else
      outside += place_arc(cg, &x, e, a->caller, to, a->count, 0, g);
  }
  free(x.first);
  free(x.into);
  /* The use build's entry count of a function entered abnormally (a
   * computed goto's or setjmp's targets) also counts those entries. */
  for (uint32_t i = 0; verbose && i < cg->n_procs; i++)
    if (cg->procs[i].entries > cg->procs[i].calls &&
        resolve_in(e, cg->owner, cg->procs[i].name, cg->procs[i].objfile))
      tool_error("%s: %" PRIu64 " calls and %" PRIu64 " abnormal entries (computed gotos, "
                 "setjmp), which the compiler's entry count includes",
                 cg->procs[i].name, cg->procs[i].calls,
                 cg->procs[i].entries - cg->procs[i].calls);
  for (uint32_t i = 0; verbose && i < cg->n_procs; i++)
    if (cg->procs[i].unknown && resolve_in(e, cg->owner, cg->procs[i].name, cg->procs[i].objfile))
      tool_error("%s: %" PRIu64 " calls of unknown caller (code xprof did not instrument, or "
                 "an indirect-call site that kept other targets): gprof lists no caller for them",
                 cg->procs[i].name, cg->procs[i].unknown);
  if (verbose && outside)
    tool_error("%" PRIu64 " call%s with a callee outside the executable's functions (in a "
               "shared library, or inlined everywhere), or no caller in them: left out",
               outside, outside == 1 ? "" : "s");
  return 0;
}

struct finder {
  const char *profile_dir, *exe;
};

static int bb_cmp(const void *a, const void *b) {
  const xprof_gmon_bb *x = a, *y = b;
  return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The counted lines of one procedure, each at an address inside it where
 * a statement of the line begins (gcov's line counts, xprof_tcov's).  A
 * line the compiler left no statement of has none.  Returns the lines
 * without an address. */
static uint32_t proc_lines(const xprof_objfile *o, const xprof_proc *f,
                           const xprof_cfgdump *t, const xprof_cfgdump_entry *c,
                           const xprof_elf_func *fn, const xprof_line_table *lt, xprof_gmon *g) {
  uint64_t *edges = calloc((size_t)c->n_edges + 1, 8), *nodes = calloc((size_t)c->n_nodes + 1, 8);
  xprof_proc_cov cov;
  uint32_t missing = 0;
  if (!edges || !nodes)
    exit(tool_error("out of memory"));
  if (xprof_solve_proc(o, f, c, edges, nodes) < 0 || xprof_proc_coverage(c, edges, nodes, &cov) < 0)
    exit(tool_error("cannot solve the counts of %s", c->name));
  uint64_t hi = fn->addr + (fn->size ? fn->size : 1);
  for (uint32_t i = 0; i < cov.n_lines; i++) {
    const xprof_cov_line *l = &cov.lines[i];
    uint64_t addr;
    if (l->file >= t->n_sources ||
        xprof_line_address(lt, fn->addr, hi, t->sources[l->file].path, l->line, &addr) < 0) {
      missing++;
      continue;
    }
    if (g->n_bbs == g->cap_bbs) {
      g->cap_bbs = g->cap_bbs ? 2 * g->cap_bbs : 256;
      g->bbs = realloc(g->bbs, g->cap_bbs * sizeof *g->bbs);
      if (!g->bbs)
        exit(tool_error("out of memory"));
    }
    g->bbs[g->n_bbs++] = (xprof_gmon_bb){addr, l->count};
  }
  xprof_proc_coverage_free(&cov);
  free(edges);
  free(nodes);
  return missing;
}

/* Basic-block records: every counted line of every procedure of the
 * executable, from the coverage tables and the executable's line table. */
static void block_records(xprof_profile *p, const char *dir, const xprof_elf *e, const char *exe,
                          xprof_gmon *g, int verbose) {
  xprof_error err;
  xprof_line_table *lt;
  if (xprof_line_table_read(exe, &lt, &err) < 0) {
    if (verbose)
      tool_error("%s; the gmon.out has no basic-block counts (for gprof -l -A)", err.msg);
    return;
  }
  uint32_t missing = 0;
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    const xprof_objfile *o = &p->objfiles[i];
    char *table = xprof_table_find(dir, exe, o->path, o->path);
    xprof_cfgdump t;
    if (!table || xprof_table_read(table, o->path, p, &t, &err) < 0) {
      xprof_free(table);
      continue; /* the call graph's notes said so */
    }
    xprof_free(table);
    for (uint32_t k = 0; k < t.n_procs; k++) {
      const xprof_cfgdump_entry *c = &t.procs[k];
      const xprof_proc *f = xprof_find_proc(o, c->name);
      const xprof_elf_func *fn = resolve_in(e, p, c->name, o);
      if (f && fn && f->signature == c->signature)
        missing += proc_lines(o, f, &t, c, fn, lt, g);
    }
  }
  /* One record per address: a comdat function in several objects, or
   * two lines at one address, would add up in gprof. */
  if (g->n_bbs > 1)
    qsort(g->bbs, g->n_bbs, sizeof *g->bbs, bb_cmp);
  uint32_t n = 0;
  for (uint32_t i = 0; i < g->n_bbs; i++)
    if (!n || g->bbs[i].addr != g->bbs[n - 1].addr)
      g->bbs[n++] = g->bbs[i];
  g->n_bbs = n;
  if (verbose && missing)
    tool_error("%u counted line%s with no statement left in the executable (optimized "
               "away or merged): no basic-block count",
               missing, xprof_plural(missing));
  xprof_line_table_free(lt);
}

static char *find(void *ctx, const char *objpath) {
  const struct finder *f = ctx;
  return xprof_table_find(f->profile_dir, f->exe, objpath, objpath);
}

static int write_cb(void *ctx, int fd, const char *name, xprof_error *err) {
  const xprof_gmon *g = ctx;
  unsigned char *bytes;
  size_t len;
  if (xprof_gmon_serialize(g, &bytes, &len, err) < 0)
    return -1;
  int rc = xprof_write_all(fd, bytes, len, name, err);
  xprof_free(bytes);
  return rc;
}

int main(int argc, char **argv) {
  tool_init("xprof_gprof");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  const char *out = "gmon.out";
  int verbose = 0, i = 1;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
      out = argv[++i];
    else if (strcmp(argv[i], "-v") == 0)
      verbose = 1;
    else
      return tool_error("unknown option %s (see --help)", argv[i]);
  }
  if (argc - i != 2) {
    fputs(usage, stderr);
    return 1;
  }
  const char *dir = argv[i], *exe = argv[i + 1];
  xprof_error err;
  xprof_profile *p;
  xprof_elf *e;
  if (xprof_read_profile_dir(dir, &p, &err) < 0)
    return tool_fail(&err);
  if (xprof_elf_read(exe, &e, &err) < 0)
    return tool_fail(&err);
  struct finder fd = {dir, exe};
  xprof_callgraph *cg;
  if (xprof_callgraph_build(p, find, &fd, &cg, &err) < 0)
    return tool_fail(&err);
  for (uint32_t k = 0; k < cg->n_notes && (verbose || k < 3); k++)
    tool_error("%s", cg->notes[k]);
  xprof_gmon g;
  memset(&g, 0, sizeof g);
  int rc = histogram(p, e, exe, &g, verbose) || arcs(cg, e, &g, verbose);
  if (!rc)
    block_records(p, dir, e, exe, &g, verbose);
  if (!rc && xprof_replace_file(out, write_cb, &g, &err) < 0)
    rc = tool_fail(&err);
  xprof_gmon_free(&g);
  xprof_callgraph_free(cg);
  xprof_elf_free(e);
  xprof_profile_free(p);
  return rc;
}
