/*
 * xprof_show - a summary of a profile: totals per program and object file,
 * and the busiest procedures.
 *
 *   xprof_show [-n N] profile_directory
 *   xprof_show --dot PROC profile_directory OBJECT.xpcfg
 *   xprof_show --html OUT [-n N] profile_directory [OBJECT.xpcfg...]
 *
 * A procedure's activity is the sum of its counters: every counted edge
 * traversal, which grows with how often its code ran.  (Entry counts need
 * the procedure's CFG, which only the compiler has.)
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_show [-n N] profile_directory\n"
    "       xprof_show --dot PROC profile_directory OBJECT.xpcfg\n"
    "       xprof_show --html OUT [-n N] profile_directory [OBJECT.xpcfg...]\n"
    "\n"
    "Print the programs and object files of a profile and its N busiest\n"
    "procedures (default 10), by the sum of their counters, and, where\n"
    "the profile has a time profile (binary data), the first N procedures\n"
    "to run.\n"
    "\n"
    "--dot writes procedure PROC's control flow graph for Graphviz, with\n"
    "the count of every block and edge solved from the profile: hot edges\n"
    "thick, blocks that never ran grey, fake edges dashed.  It needs the\n"
    "graph: OBJECT.xpcfg, which the plugins write beside the object file\n"
    "with their cfg-dump option (see xprof_verify(1)).\n"
    "\n"
    "--html writes OUT/index.html: the programs, the object files, the N\n"
    "busiest procedures (default 50) and, for the procedures of the CFG\n"
    "dumps given, their graphs as SVG drawn by Graphviz's dot (OUT/cfg/).\n";

/* A count with thousands separators ("1,234,567"), in buf (32 bytes). */
static const char *grouped(uint64_t v, char *buf) {
  char digits[24];
  int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), k = 0;
  for (int i = 0; i < n; i++) {
    if (i && (n - i) % 3 == 0)
      buf[k++] = ',';
    buf[k++] = digits[i];
  }
  buf[k] = 0;
  return buf;
}

/* Write a procedure's CFG in DOT to `out`, with the counts solved from
 * its counters: hot edges thick, blocks that never ran grey, fake edges
 * dashed.  Returns as xprof_solve_flow. */
static int write_dot(FILE *out, const xprof_objfile *o, const xprof_proc *f,
                     const xprof_cfgdump_entry *c) {
  uint64_t *edge = calloc((size_t)c->n_edges + 1, sizeof *edge);
  uint64_t *node = calloc((size_t)c->n_nodes + 1, sizeof *node);
  if (!edge || !node)
    exit(tool_error("out of memory"));
  int rc = xprof_solve_proc(o, f, c, edge, node);
  uint64_t max = 1;
  for (uint32_t e = 0; e < c->n_edges; e++)
    if (edge[e] > max)
      max = edge[e];
  fprintf(out, "digraph \"%s\" {\n  label=\"%s (%s)%s\";\n", f->name, f->name, o->path,
          rc > 0 ? ": inconsistent counts, clamped" : "");
  fprintf(out, "  node [shape=box fontname=monospace];\n");
  for (uint32_t v = 0; v < c->n_nodes; v++) {
    char b[32];
    if (v == XPROF_ENTRY || v == XPROF_EXIT)
      fprintf(out, "  n%u [label=\"%s\\n%s\" shape=ellipse", v,
              v == XPROF_ENTRY ? "ENTRY" : "EXIT", grouped(node[v], b));
    else
      fprintf(out, "  n%u [label=\"block %u\\n%s\"", v, v, grouped(node[v], b));
    fprintf(out, "%s];\n", node[v] ? "" : " style=filled fillcolor=grey85 fontcolor=grey40");
  }
  for (uint32_t e = 0; e < c->n_edges; e++) {
    const xprof_edge *x = &c->edges[e];
    if (x->flags & XPROF_EDGE_IGNORE)
      continue;
    /* 1 to 6 points wide by the count's order of magnitude against the
     * largest. */
    double w = 1 + 5 * (edge[e] ? log1p((double)edge[e]) / log1p((double)max) : 0);
    char b[32];
    fprintf(out, "  n%u -> n%u [label=\"%s\" penwidth=%.1f%s];\n", x->src, x->dst,
            grouped(edge[e], b), w,
            x->flags & XPROF_EDGE_FAKE ? " style=dashed" : edge[e] ? "" : " color=grey60");
  }
  fprintf(out, "}\n");
  free(edge);
  free(node);
  return rc;
}

/* A procedure of a CFG dump, with its data in the profile: the entry of
 * the dump, or NULL after saying why not (`quiet`: say nothing). */
static const xprof_cfgdump_entry *dumped_proc(const xprof_objfile *o, const xprof_proc *f,
                                               const xprof_cfgdump_entry *c, const char *dump,
                                               int quiet) {
  if (f->signature == c->signature)
    return c;
  if (!quiet)
    tool_error("%s: %s was compiled again since the training (signature 0x%llx in the "
               "profile, 0x%llx in %s)",
               o->path, f->name, (unsigned long long)f->signature,
               (unsigned long long)c->signature, dump);
  return NULL;
}

/* --dot: procedure `name`'s CFG on standard output. */
static int show_dot(const char *name, const char *dir, const char *dump) {
  xprof_error err;
  xprof_profile *p;
  if (xprof_read_input(dir, &p, &err) < 0)
    return tool_fail(&err);
  xprof_cfgdump dumped;
  if (xprof_cfgdump_read(dump, p, &dumped, &err) < 0)
    return tool_fail(&err);
  xprof_cfgdump_entry *cfgs = dumped.procs;
  uint32_t n = dumped.n_procs;
  const xprof_cfgdump_entry *c = NULL;
  for (uint32_t i = 0; i < n && !c; i++)
    if (strcmp(cfgs[i].name, name) == 0)
      c = &cfgs[i];
  if (!c)
    return tool_error("%s: no procedure %s", dump, name);
  char objpath[8192];
  const xprof_objfile *o = tool_dump_object(p, dump, objpath);
  const xprof_proc *f = o ? xprof_find_proc(o, name) : NULL;
  if (!f)
    return tool_error("%s: no data for %s in %s", dir, name, objpath);
  if (!dumped_proc(o, f, c, dump, 0))
    return 1;
  if (write_dot(stdout, o, f, c) < 0)
    return tool_error("%s: cannot solve the counts of %s", dump, name);
  xprof_profile_free(p);
  return 0;
}

typedef struct row {
  uint64_t sum;
  const char *name, *obj;      /* obj: the object file's base name */
  const xprof_objfile *objfile;
  const xprof_proc *proc;
} row;

static int by_sum(const void *a, const void *b) {
  uint64_t x = ((const row *)a)->sum, y = ((const row *)b)->sum;
  return x < y ? 1 : x > y ? -1 : strcmp(((const row *)a)->name, ((const row *)b)->name);
}

/* Every procedure of the profile, busiest first (malloc'd); *ran gets how
 * many ran. */
static row *busiest(const xprof_profile *p, size_t *n_rows, size_t *ran) {
  size_t n = 0;
  for (uint32_t k = 0; k < p->n_objfiles; k++)
    n += p->objfiles[k].n_procs;
  row *rows = calloc(n + 1, sizeof *rows);
  if (!rows)
    exit(tool_error("out of memory"));
  n = *ran = 0;
  for (uint32_t k = 0; k < p->n_objfiles; k++) {
    const xprof_objfile *o = &p->objfiles[k];
    const char *base = strrchr(o->path, '/');
    for (uint32_t j = 0; j < o->n_procs; j++) {
      uint64_t s = xprof_proc_sum(&o->procs[j]);
      *ran += s != 0;
      rows[n++] = (row){s, o->procs[j].name, base ? base + 1 : o->path, o, &o->procs[j]};
    }
  }
  qsort(rows, n, sizeof *rows, by_sum);
  *n_rows = n;
  return rows;
}

static int by_first_run(const void *a, const void *b) {
  uint64_t x = ((const row *)a)->proc->first_run, y = ((const row *)b)->proc->first_run;
  x = x ? x : UINT64_MAX; /* never ran (or not recorded): last */
  y = y ? y : UINT64_MAX;
  return x < y ? -1 : x > y ? 1 : strcmp(((const row *)a)->name, ((const row *)b)->name);
}

/* The time profile (binary data of GCC builds): the first N procedures
 * to run, by the smallest rank of the runs merged. */
static void first_runs(row *rows, size_t n, long top) {
  qsort(rows, n, sizeof *rows, by_first_run);
  if (!n || !rows[0].proc->first_run)
    return;
  printf("first procedures to run (rank of the first call):\n");
  for (size_t k = 0; k < n && k < (size_t)top && rows[k].proc->first_run; k++)
    printf("  %14llu  %s  (%s)\n", (unsigned long long)rows[k].proc->first_run,
           rows[k].name, rows[k].obj);
}

/* Time samples (SUN_PROFDATA_SAMPLE runs): the images that took time. */
static void time_by_image(xprof_profile *p, long top) {
  uint64_t total = 0;
  double ns = 0;
  for (uint32_t i = 0; i < p->n_images; i++) {
    total += p->images[i].samples;
    ns += (double)p->images[i].time_ns;
  }
  if (!total)
    return;
  xprof_sort_images(p->images, p->n_images);
  printf("time samples: %llu, %.3f s of CPU time (%.2f ms each)\n", (unsigned long long)total,
         ns / 1e9, ns / 1e6 / (double)total);
  printf("busiest images (samples, share, seconds):\n");
  for (uint32_t i = 0; i < p->n_images && i < (uint32_t)top; i++) {
    const xprof_image *img = &p->images[i];
    printf("  %10llu  %5.1f%%  %8.3f  %s\n", (unsigned long long)img->samples,
           100.0 * (double)img->samples / (double)total, (double)img->time_ns / 1e9,
           img->flags & XPROF_IMAGE_OVERFLOW ? "(outside every known text segment)" : img->path);
  }
  xprof_error err;
  xprof_time_table *t;
  if (xprof_time_by_function(p, 0, &t, &err) < 0) {
    tool_fail(&err);
    return;
  }
  printf("busiest functions by time (samples, share, seconds):\n");
  for (uint32_t i = 0; i < t->n_rows && i < (uint32_t)top; i++) {
    const xprof_func_time *r = &t->rows[i];
    const char *img = strrchr(r->image->path, '/');
    printf("  %10llu  %5.1f%%  %8.3f  %s  (%s)\n", (unsigned long long)r->samples,
           100.0 * (double)r->samples / (double)total, r->ns / 1e9, r->name,
           r->image->flags & XPROF_IMAGE_OVERFLOW ? "overflow" : img ? img + 1 : r->image->path);
  }
  for (uint32_t i = 0; i < t->n_notes; i++)
    printf("  note: %s\n", t->notes[i]);
  xprof_time_table_free(t);
}

static void summary(xprof_profile *p, const char *dir, long top) {
  size_t n, ran;
  row *rows = busiest(p, &n, &ran);
  printf("%s: %u program%s, %u object file%s, %zu procedure%s (%zu ran)\n", dir,
         p->n_programs, xprof_plural(p->n_programs), p->n_objfiles,
         xprof_plural(p->n_objfiles), n, xprof_plural(n), ran);
  for (uint32_t k = 0; k < p->n_programs; k++)
    printf("  program %s: %u object file%s\n", p->programs[k].path,
           p->programs[k].n_objrefs, xprof_plural(p->programs[k].n_objrefs));
  if (p->runs)
    printf("  training runs: %" PRIu64 " (their largest counters add up to %" PRIu64 ")\n",
           p->runs, p->run_max_sum);
  printf("busiest procedures (sum of counters):\n");
  for (size_t k = 0; k < n && k < (size_t)top && rows[k].sum; k++)
    printf("  %14llu  %s  (%s)\n", (unsigned long long)rows[k].sum, rows[k].name, rows[k].obj);
  first_runs(rows, n, top);
  free(rows);
  time_by_image(p, top);
}

/* ---- --html ------------------------------------------------------------ */

/* Text for HTML: C++ names hold <, > and &. */
static void put_html(FILE *f, const char *s) {
  for (; *s; s++)
    switch (*s) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    default: fputc(*s, f);
    }
}

/* Graphviz's dot: the .dot file to an .svg beside it; returns 0 when it
 * ran and succeeded. */
static int run_dot(const char *dot_file, const char *svg_file) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0)
      dup2(null, 2);
    execlp("dot", "dot", "-Tsvg", "-o", svg_file, dot_file, (char *)NULL);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* One graph of the page: the procedure's row and the dump's CFG. */
typedef struct graph {
  const row *r;
  const xprof_cfgdump_entry *cfg;
  int svg; /* rendered */
} graph;

/* The graphs of every dumped procedure that ran, busiest first, written
 * to OUT/cfg/K.dot and rendered to K.svg; returns how many (*graphs
 * malloc'd).  *no_dot: Graphviz's dot did not run. */
static size_t make_graphs(const char *out, xprof_profile *p, const row *rows, size_t n_rows,
                          char **dumps, int n_dumps, graph **graphs, int *no_dot) {
  graph *g = calloc(n_rows + 1, sizeof *g);
  if (!g)
    exit(tool_error("out of memory"));
  for (int d = 0; d < n_dumps; d++) {
    xprof_error err;
    xprof_cfgdump dumped;
    char objpath[8192];
    if (xprof_cfgdump_read(dumps[d], p, &dumped, &err) < 0)
      exit(tool_fail(&err));
    xprof_cfgdump_entry *cfgs = dumped.procs;
    uint32_t n = dumped.n_procs;
    const xprof_objfile *o = tool_dump_object(p, dumps[d], objpath);
    for (uint32_t i = 0; o && i < n; i++)
      for (size_t k = 0; k < n_rows; k++)
        if (rows[k].objfile == o && rows[k].sum && strcmp(rows[k].name, cfgs[i].name) == 0 &&
            dumped_proc(o, rows[k].proc, &cfgs[i], dumps[d], 0))
          g[k] = (graph){&rows[k], &cfgs[i], 0};
  }
  size_t m = 0;
  for (size_t k = 0; k < n_rows; k++) /* rows are busiest first */
    if (g[k].r)
      g[m++] = g[k];
  *no_dot = 0;
  for (size_t k = 0; k < m; k++) {
    char *dot = xprof_format("%s/cfg/%zu.dot", out, k), *svg = xprof_format("%s/cfg/%zu.svg", out, k);
    FILE *f = dot ? fopen(dot, "w") : NULL;
    if (!f)
      exit(tool_error("cannot write %s: %s", dot ? dot : out, strerror(errno)));
    write_dot(f, g[k].r->objfile, g[k].r->proc, g[k].cfg);
    if (fclose(f) != 0)
      exit(tool_error("cannot write %s: %s", dot, strerror(errno)));
    g[k].svg = !*no_dot && run_dot(dot, svg) == 0;
    *no_dot |= !g[k].svg;
    xprof_free(dot);
    xprof_free(svg);
  }
  *graphs = g;
  return m;
}

static const char html_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<title>xprof: %s</title>\n<style>\n"
    "body { font-family: sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; }\n"
    "table { border-collapse: collapse; margin-bottom: 1.5em; }\n"
    "th, td { padding: .25em .8em; text-align: left; border-bottom: 1px solid #ddd; }\n"
    "td.n { text-align: right; font-family: monospace; }\n"
    "code { font-size: 95%%; }\n"
    "figure { margin: 1em 0 2.5em; } figure img { max-width: 100%%; border: 1px solid #ccc; }\n"
    "figcaption { font-weight: bold; margin-bottom: .4em; }\n"
    ".bar { display: inline-block; height: .7em; background: #c0392b; }\n"
    "</style></head><body>\n";

static void html_tables(FILE *f, const xprof_profile *p, const row *rows, size_t n_rows,
                        const graph *g, size_t n_graphs, long top) {
  uint64_t total = 0;
  for (size_t k = 0; k < n_rows; k++)
    total = xprof_sat_add(total, rows[k].sum);
  fprintf(f, "<h2>Programs</h2>\n<table><tr><th>program</th><th>object files</th></tr>\n");
  for (uint32_t k = 0; k < p->n_programs; k++) {
    fputs("<tr><td><code>", f);
    put_html(f, p->programs[k].path);
    fprintf(f, "</code></td><td class=\"n\">%u</td></tr>\n", p->programs[k].n_objrefs);
  }
  fprintf(f, "</table>\n<h2>Object files</h2>\n<table><tr><th>counts</th><th>share</th>"
             "<th>object file</th><th>procedures</th></tr>\n");
  for (uint32_t k = 0; k < p->n_objfiles; k++) {
    const xprof_objfile *o = &p->objfiles[k];
    uint64_t s = 0;
    for (uint32_t j = 0; j < o->n_procs; j++)
      s = xprof_sat_add(s, xprof_proc_sum(&o->procs[j]));
    char b[32];
    fprintf(f, "<tr><td class=\"n\">%s</td><td class=\"n\">%.1f%%</td><td><code>",
            grouped(s, b), total ? 100.0 * (double)s / (double)total : 0.0);
    put_html(f, o->path);
    fprintf(f, "</code></td><td class=\"n\">%u</td></tr>\n", o->n_procs);
  }
  fprintf(f, "</table>\n<h2>Busiest procedures</h2>\n<p>By the sum of their counters: every "
             "counted edge traversal.</p>\n<table><tr><th>counts</th><th>share</th><th></th>"
             "<th>procedure</th><th>object file</th></tr>\n");
  for (size_t k = 0; k < n_rows && k < (size_t)top && rows[k].sum; k++) {
    double share = total ? (double)rows[k].sum / (double)total : 0;
    char b[32];
    fprintf(f, "<tr><td class=\"n\">%s</td><td class=\"n\">%.1f%%</td><td><span "
               "class=\"bar\" style=\"width:%.1fem\"></span></td><td><code>",
            grouped(rows[k].sum, b), 100 * share, 8 * share);
    size_t gk = 0;
    while (gk < n_graphs && g[gk].r != &rows[k])
      gk++;
    if (gk < n_graphs)
      fprintf(f, "<a href=\"#g%zu\">", gk);
    put_html(f, rows[k].name);
    fprintf(f, "%s</code></td><td>", gk < n_graphs ? "</a>" : "");
    put_html(f, rows[k].obj);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

static void html_graphs(FILE *f, const graph *g, size_t n, int no_dot) {
  fputs("<h2>Control flow graphs</h2>\n", f);
  if (!n)
    fputs("<p>None: give the CFG dumps (<code>OBJECT.xpcfg</code>, from the plugins' "
          "cfg-dump option) after the profile.</p>\n", f);
  else
    fputs("<p>Every block and edge with its count, solved from the counters; thick edges "
          "are hot, grey blocks never ran, dashed edges are fake (calls that did not "
          "return, loops that never ended).</p>\n", f);
  if (no_dot)
    fputs("<p>Graphviz's <code>dot</code> did not run: the graphs are left as "
          "<code>cfg/*.dot</code> files.</p>\n", f);
  for (size_t k = 0; k < n; k++) {
    fprintf(f, "<figure id=\"g%zu\"><figcaption><code>", k);
    put_html(f, g[k].r->name);
    fputs("</code> (", f);
    put_html(f, g[k].r->obj);
    fputs(")</figcaption>\n", f);
    if (g[k].svg)
      fprintf(f, "<img src=\"cfg/%zu.svg\" alt=\"control flow graph\">", k);
    else
      fprintf(f, "<a href=\"cfg/%zu.dot\">cfg/%zu.dot</a>", k, k);
    fputs("</figure>\n", f);
  }
}

/* --html OUT: OUT/index.html and OUT/cfg/; returns the exit status. */
static int show_html(const char *out, const char *dir, long top, char **dumps, int n_dumps) {
  xprof_error err;
  xprof_profile *p;
  if (xprof_read_input(dir, &p, &err) < 0)
    return tool_fail(&err);
  char *cfg_dir = xprof_format("%s/cfg", out);
  if ((mkdir(out, 0777) < 0 && errno != EEXIST) || !cfg_dir ||
      (mkdir(cfg_dir, 0777) < 0 && errno != EEXIST))
    return tool_error("cannot make %s: %s", cfg_dir ? cfg_dir : out, strerror(errno));
  size_t n_rows, ran;
  row *rows = busiest(p, &n_rows, &ran);
  graph *g;
  int no_dot;
  size_t n_graphs = make_graphs(out, p, rows, n_rows, dumps, n_dumps, &g, &no_dot);
  char *index = xprof_format("%s/index.html", out);
  FILE *f = index ? fopen(index, "w") : NULL;
  if (!f)
    return tool_error("cannot write %s/index.html: %s", out, strerror(errno));
  fprintf(f, html_head, dir);
  fputs("<h1>Profile <code>", f);
  put_html(f, dir);
  fprintf(f, "</code></h1>\n<p>%u program%s, %u object file%s, %zu procedure%s, %zu of them ran "
             "in training.</p>\n",
          p->n_programs, xprof_plural(p->n_programs), p->n_objfiles,
          xprof_plural(p->n_objfiles), n_rows, xprof_plural(n_rows), ran);
  html_tables(f, p, rows, n_rows, g, n_graphs, top);
  html_graphs(f, g, n_graphs, no_dot);
  fputs("</body></html>\n", f);
  if (fclose(f) != 0)
    return tool_error("cannot write %s: %s", index, strerror(errno));
  printf("%s: %zu procedure%s, %zu graph%s\n", index, n_rows, xprof_plural(n_rows), n_graphs,
         xprof_plural(n_graphs));
  xprof_free(index);
  xprof_free(cfg_dir);
  free(g);
  free(rows);
  xprof_profile_free(p);
  return 0;
}

int main(int argc, char **argv) {
  tool_init("xprof_show");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  if (argc == 5 && strcmp(argv[1], "--dot") == 0)
    return show_dot(argv[2], argv[3], argv[4]);
  if (argc > 1 && strcmp(argv[1], "--dot") == 0)
    return tool_error("--dot takes PROC profile_directory OBJECT.xpcfg (see --help)");
  const char *html = NULL;
  int i = 1;
  if (i + 1 < argc && strcmp(argv[i], "--html") == 0) {
    html = argv[i + 1];
    i += 2;
  }
  long top = html ? 50 : 10;
  if (i + 1 < argc && strcmp(argv[i], "-n") == 0) {
    char *end;
    top = strtol(argv[i + 1], &end, 10);
    if (*end || top < 1)
      return tool_error("-n takes a positive number, got '%s'", argv[i + 1]);
    i += 2;
  }
  if (html && i < argc)
    return show_html(html, argv[i], top, argv + i + 1, argc - i - 1);
  if (argc - i != 1) {
    fputs(usage, stderr);
    return 1;
  }
  xprof_error err;
  xprof_profile *p;
  if (xprof_read_input(argv[i], &p, &err) < 0)
    return tool_fail(&err);
  summary(p, strcmp(argv[i], "-") == 0 ? "<stdin>" : argv[i], top);
  xprof_profile_free(p);
  return 0;
}
