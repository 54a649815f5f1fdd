/*
 * aprof.c - an aprof report (the input-sensitive profiler's text format:
 * v, e, t, c, a, m, k, r, u and p lines) of a training run.
 *
 * A routine's cost is, with the bb-count metric, the basic blocks it ran
 * (exact: the entries of its blocks), with time-usec the CPU time of its
 * samples.  Its cumulative cost adds its callees' the way gprof does: a
 * callee's cumulative cost is shared among its callers by their share of
 * its calls, which is exact wherever a routine has one caller, an
 * estimate where calls of one routine cost different amounts; routines
 * that call each other (a recursion) are taken together, and their
 * cumulative cost is shared among them by their calls from outside.
 *
 * xprof measures neither the read memory size of an activation nor each
 * activation's cost on its own: every routine has one performance point,
 * at read memory size 0, whose minimum, maximum and sums of squares are 0
 * -- said in the report's c lines, not made up.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "xprof_views.h"

typedef struct routine {
  uint32_t id;
  uint64_t occ;   /* calls */
  double self;    /* cost */
  double cum;     /* cumulative cost (real: outermost activations) */
  uint64_t ext;   /* calls from outside its recursion (and from nowhere known) */
  uint32_t scc;   /* its strongly connected component */
  const char *image;
} routine;

/* ---- recursions: strongly connected components (Tarjan) ---------------- */

typedef struct scc_state {
  const xprof_callgraph *g;
  uint32_t *first_arc; /* per routine: its arcs in g->arcs (sorted by caller) */
  uint32_t *index, *low, *stack, n_stack, next, n_sccs;
  unsigned char *on_stack;
  routine *r;
} scc_state;

static void strongconnect(scc_state *s, uint32_t v) {
  /* Recursive: call graphs are as deep as their longest call chain. */
  s->index[v] = s->low[v] = ++s->next;
  s->stack[s->n_stack++] = v;
  s->on_stack[v] = 1;
  for (uint32_t k = s->first_arc[v]; k < s->first_arc[v + 1]; k++) {
    uint32_t w = s->g->arcs[k].callee_proc;
    if (w == UINT32_MAX)
      continue;
    if (!s->index[w]) {
      strongconnect(s, w);
      if (s->low[w] < s->low[v])
        s->low[v] = s->low[w];
    } else if (s->on_stack[w] && s->index[w] < s->low[v]) {
      s->low[v] = s->index[w];
    }
  }
  if (s->low[v] != s->index[v])
    return;
  uint32_t w;
  do {
    w = s->stack[--s->n_stack];
    s->on_stack[w] = 0;
    s->r[w].scc = s->n_sccs;
  } while (w != v);
  s->n_sccs++; /* numbered callees first: a reverse topological order */
}

/* ---- cumulative costs --------------------------------------------------- */

static int cumulate(const xprof_callgraph *g, routine *r, const uint32_t *first_arc,
                    uint32_t n_sccs) {
  uint32_t n = g->n_procs;
  double *self = xprof_calloc((size_t)n_sccs + 1, sizeof *self);
  double *cum = xprof_calloc((size_t)n_sccs + 1, sizeof *cum);
  uint64_t *ext = xprof_calloc((size_t)n_sccs + 1, sizeof *ext);
  uint32_t *order = xprof_calloc((size_t)n + 1, sizeof *order);
  uint32_t *count = xprof_calloc((size_t)n_sccs + 1, sizeof *count);
  int rc = -1;
  if (!self || !cum || !ext || !order || !count)
    goto out;
  /* Calls from outside each routine's recursion: all, less those from
   * inside it. */
  for (uint32_t f = 0; f < n; f++)
    r[f].ext = r[f].occ;
  for (uint32_t k = 0; k < g->n_arcs; k++) {
    const xprof_cg_arc *a = &g->arcs[k];
    if (a->callee_proc != UINT32_MAX && r[a->caller].scc == r[a->callee_proc].scc)
      r[a->callee_proc].ext -= a->count < r[a->callee_proc].ext ? a->count : r[a->callee_proc].ext;
  }
  for (uint32_t f = 0; f < n; f++) {
    self[r[f].scc] += r[f].self;
    ext[r[f].scc] += r[f].ext;
  }
  /* Components in the order Tarjan closed them: callees first. */
  for (uint32_t f = 0; f < n; f++)
    count[r[f].scc + 1]++;
  for (uint32_t c = 0; c < n_sccs; c++)
    count[c + 1] += count[c];
  for (uint32_t f = 0; f < n; f++)
    order[count[r[f].scc]++] = f;
  for (uint32_t c = 0, at = 0; c < n_sccs; c++) {
    cum[c] = self[c];
    for (; at < n && r[order[at]].scc == c; at++) {
      uint32_t f = order[at];
      for (uint32_t k = first_arc[f]; k < first_arc[f + 1]; k++) {
        uint32_t to = g->arcs[k].callee_proc;
        if (to == UINT32_MAX || r[to].scc == c || !ext[r[to].scc])
          continue;
        cum[c] += (double)g->arcs[k].count / (double)ext[r[to].scc] * cum[r[to].scc];
      }
    }
  }
  for (uint32_t f = 0; f < n; f++) {
    uint32_t c = r[f].scc;
    r[f].cum = ext[c] ? cum[c] * (double)r[f].ext / (double)ext[c] : r[f].self;
  }
  rc = 0;
out:
  xprof_free(self);
  xprof_free(cum);
  xprof_free(ext);
  xprof_free(order);
  xprof_free(count);
  return rc;
}

/* ---- ids and images ----------------------------------------------------- */

/* An id from the routine's name and image, so that the same routine has
 * the same id in every report; routines whose ids clash (by id, then
 * name) take the next free ones. */
typedef struct id_of {
  uint32_t id, row;
  const char *name;
} id_of;

static int id_cmp(const void *a, const void *b) {
  const id_of *x = a, *y = b;
  if (x->id != y->id)
    return x->id < y->id ? -1 : 1;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->row > y->row) - (x->row < y->row);
}

static int give_ids(const xprof_callgraph *g, routine *r) {
  id_of *ids = xprof_malloc(((size_t)g->n_procs + 1) * sizeof *ids);
  if (!ids)
    return -1;
  for (uint32_t f = 0; f < g->n_procs; f++) {
    uint64_t h = xprof_hash64(g->procs[f].name, strlen(g->procs[f].name));
    h ^= xprof_hash64(r[f].image, strlen(r[f].image)) * 31;
    ids[f] = (id_of){(uint32_t)(h ^ (h >> 32)) & 0x7fffffffu, f, g->procs[f].name};
  }
  if (g->n_procs > 1)
    xprof_sort(ids, g->n_procs, sizeof *ids, id_cmp);
  for (uint32_t k = 0; k < g->n_procs; k++) {
    if (k && ids[k].id <= ids[k - 1].id)
      ids[k].id = ids[k - 1].id + 1;
    r[ids[k].row].id = ids[k].id;
  }
  xprof_free(ids);
  return 0;
}

/* The program (executable or library) an object file was linked into. */
static const char *image_of(const xprof_profile *p, const xprof_objfile *o) {
  for (uint32_t i = 0; i < p->n_programs; i++)
    for (uint32_t k = 0; k < p->programs[i].n_objrefs; k++)
      if (strcmp(p->programs[i].objrefs[k], o->path) == 0)
        return p->programs[i].path;
  return o->path;
}

/* ---- the report --------------------------------------------------------- */

static const char *const comments[] = {
    "written by xprof_aprof from an xprof profile: one performance point per routine",
    "rms is 0: xprof does not measure the memory an activation reads",
    "min, max, sqr-sum, self-min, self-max and self-sqr are 0: xprof counts all "
    "activations of a routine together, not each on its own",
    "sum (cumulative cost) shares each callee's cost among its callers by their calls; "
    "routines in a recursion share theirs by their calls from outside it, and their "
    "sum is their real-sum",
    "no f line: xprof does not record the program's command line",
};

static void emit(FILE *out, const xprof_profile *p, const xprof_callgraph *g,
                 const routine *r, const xprof_aprof_options *opt) {
  fprintf(out, "v %d\n", XPROF_APROF_VERSION);
  if (opt->exe_mtime)
    fprintf(out, "e %" PRIu64 "\n", opt->exe_mtime);
  fprintf(out, "t %" PRIu64 "\n", opt->now);
  for (size_t i = 0; i < sizeof comments / sizeof *comments; i++)
    fprintf(out, "c %s\n", comments[i]);
  if (opt->app)
    fprintf(out, "a %s\n", opt->app);
  fprintf(out, "m %s\n", opt->time ? "time-usec" : "bb-count");
  double total = opt->time ? opt->total_time : 0;
  if (!opt->time)
    for (uint32_t f = 0; f < g->n_procs; f++)
      total += r[f].self;
  fprintf(out, "k %" PRIu64 "\n", (uint64_t)(total + 0.5));
  for (uint32_t f = 0; f < g->n_procs; f++) {
    if (!r[f].occ)
      continue; /* never ran */
    const char *name = g->procs[f].name;
    const char *shown = opt->demangle ? opt->demangle(opt->ctx, name) : name;
    fprintf(out, "r \"%s\" \"%s\" %u\n", shown ? shown : name, r[f].image, r[f].id);
    if (strncmp(name, "_Z", 2) == 0)
      fprintf(out, "u %u \"%s\"\n", r[f].id, name);
  }
  for (uint32_t f = 0; f < g->n_procs; f++) {
    if (!r[f].occ)
      continue;
    uint64_t self = (uint64_t)(r[f].self + 0.5), cum = (uint64_t)(r[f].cum + 0.5);
    if (cum < self)
      cum = self;
    /* id rms min max sum sqr-sum occ real-sum self-sum self-min self-max self-sqr */
    fprintf(out, "p %u 0 0 0 %" PRIu64 " 0 %" PRIu64 " %" PRIu64 " %" PRIu64 " 0 0 0\n",
            r[f].id, cum, r[f].occ, cum, self);
  }
  (void)p;
}

int xprof_aprof_write(FILE *out, const xprof_profile *p, const xprof_callgraph *g,
                      const xprof_aprof_options *opt, xprof_error *err) {
  uint32_t n = g->n_procs;
  routine *r = xprof_calloc((size_t)n + 1, sizeof *r);
  scc_state s = {g, xprof_calloc((size_t)n + 2, 4), xprof_calloc((size_t)n + 1, 4),
                 xprof_calloc((size_t)n + 1, 4), xprof_calloc((size_t)n + 1, 4), 0, 0, 0,
                 xprof_calloc((size_t)n + 1, 1), r};
  int rc = -1;
  if (!r || !s.first_arc || !s.index || !s.low || !s.stack || !s.on_stack)
    goto out;
  for (uint32_t f = 0; f < n; f++) {
    r[f].occ = g->procs[f].calls;
    r[f].self = opt->time ? (opt->self_time ? opt->self_time(opt->ctx, g->procs[f].name) : 0)
                          : (double)g->procs[f].blocks;
    r[f].image = image_of(p, g->procs[f].objfile);
  }
  for (uint32_t k = 0; k < g->n_arcs; k++) /* arcs are sorted by caller */
    s.first_arc[g->arcs[k].caller + 1]++;
  for (uint32_t f = 0; f < n; f++)
    s.first_arc[f + 1] += s.first_arc[f];
  for (uint32_t f = 0; f < n; f++)
    if (!s.index[f])
      strongconnect(&s, f);
  if (cumulate(g, r, s.first_arc, s.n_sccs) < 0)
    goto out;
  if (give_ids(g, r) < 0)
    goto out;
  emit(out, p, g, r, opt);
  rc = 0;
out:
  xprof_free(r);
  xprof_free(s.first_arc);
  xprof_free(s.index);
  xprof_free(s.low);
  xprof_free(s.stack);
  xprof_free(s.on_stack);
  return rc < 0 ? xprof_fail_nomem(err, "aprof report") : 0;
}
