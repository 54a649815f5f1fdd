/*
 * xprof_gprof - a training run as GNU gprof reads it: a gmon.out with the
 * time samples of the executable's text (SUN_PROFDATA_SAMPLE runs) and
 * the exact number of calls of every caller -> callee pair the profile
 * knows (libxprof's call graph).  See xprof_gprof(1).
 */
#include <inttypes.h>
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

/* The function of a procedure name in the executable: the symbol itself,
 * or a clone GCC made of it after instrumentation (NAME.constprop.0,
 * NAME.isra.0, ...; not NAME.cold, the cold part of another). */
static const xprof_elf_func *resolve(const xprof_elf *e, const char *name) {
  const xprof_elf_func *f = xprof_elf_func_named(e, name);
  if (f)
    return f;
  size_t n = strlen(name);
  for (uint32_t i = 0; i < e->n_funcs; i++) {
    const char *s = e->funcs[i].name;
    if (strncmp(s, name, n) == 0 && s[n] == '.' && strncmp(s + n, ".cold", 5) != 0)
      return &e->funcs[i];
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
  int other = 0;
  for (uint32_t i = 0; i < p->n_images; i++) {
    if (p->images[i].flags & XPROF_IMAGE_OVERFLOW)
      continue;
    if (xprof_elf_matches_image(e, &p->images[i]))
      img = &p->images[i];
    else
      other = 1;
  }
  if (!img) {
    if (verbose || other)
      tool_error("%s: no time samples of %s in the profile (%s); the gmon.out's histogram "
                 "is empty",
                 exe, exe,
                 other ? "it was rebuilt since, or the samples are of other programs"
                       : "run it with SUN_PROFDATA_SAMPLE=1");
    return empty_histogram(e, g);
  }
  uint64_t n = img->text_size / img->bin_width + (img->text_size % img->bin_width != 0);
  if (n > UINT32_MAX)
    return tool_error("%s: a text of %" PRIu64 " bins is too large for gmon.out", exe, n);
  g->hist = calloc(n ? n : 1, sizeof *g->hist);
  if (!g->hist)
    return tool_error("out of memory");
  g->n_hist = (uint32_t)n;
  g->hist_low = img->text_off;
  g->hist_high = img->text_off + n * img->bin_width;
  for (uint32_t i = 0; i < img->n_bins; i++)
    g->hist[img->bins[i].index] = img->bins[i].count;
  double ns = xprof_image_sample_ns(img);
  g->prof_rate = ns > 0 ? (uint32_t)llround(1e9 / ns) : 100;
  strcpy(g->dimen, "seconds");
  g->dimen_abbrev = 's';
  return 0;
}

/* The call arcs between functions of the executable. */
static int arcs(const xprof_callgraph *cg, const xprof_elf *e, xprof_gmon *g, int verbose) {
  uint32_t outside = 0;
  g->arcs = calloc((size_t)cg->n_arcs + 1, sizeof *g->arcs);
  if (!g->arcs)
    return tool_error("out of memory");
  for (uint32_t i = 0; i < cg->n_arcs; i++) {
    const xprof_cg_arc *a = &cg->arcs[i];
    const xprof_elf_func *from = resolve(e, cg->procs[a->caller].name);
    const xprof_elf_func *to = resolve(e, a->callee);
    if (!from || !to) { /* a library's, or inlined everywhere */
      outside++;
      continue;
    }
    g->arcs[g->n_arcs++] = (xprof_gmon_arc){from->addr, to->addr, a->count};
  }
  if (verbose && outside)
    tool_error("%u call arc%s with a caller or callee outside the executable's functions "
               "(in a shared library, or inlined everywhere): left out",
               outside, xprof_plural(outside));
  return 0;
}

struct finder {
  const char *profile_dir;
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
    char *table = tool_find_table(dir, o->path, o->path);
    xprof_cfgdump t;
    if (!table || xprof_cfgdump_read(table, p, &t, &err) < 0) {
      xprof_free(table);
      continue; /* the call graph's notes said so */
    }
    xprof_free(table);
    for (uint32_t k = 0; k < t.n_procs; k++) {
      const xprof_cfgdump_entry *c = &t.procs[k];
      const xprof_proc *f = xprof_find_proc(o, c->name);
      const xprof_elf_func *fn = resolve(e, c->name);
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
  return tool_find_table(((struct finder *)ctx)->profile_dir, objpath, objpath);
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
  struct finder fd = {dir};
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
