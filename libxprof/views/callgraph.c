/*
 * callgraph.c - the exact call graph of a training run: how often each
 * procedure was entered, how many basic blocks it ran, and how often each
 * caller called each callee.
 *
 * Direct calls come from the coverage tables (K records: the calls of
 * each block, written by the collect pass) times the solved count of
 * their block; indirect calls from the value profiles of indirect-call
 * sites (VP_PROC: callee and count), set to what the callee's exact call
 * count leaves (balance_indirect).  Both are the counts
 * a use build hands the compiler.  Calls from code xprof did not instrument (a C
 * library calling back, say) have no caller here, as gprof's own mcount
 * finds none for them.
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof_views.h"

static int note(xprof_callgraph *g, char *msg) {
  if (!msg || xprof_grow((void **)&g->notes, &g->cap_notes, g->n_notes, sizeof *g->notes) < 0) {
    xprof_free(msg);
    return -1;
  }
  g->notes[g->n_notes++] = msg;
  return 0;
}

/* The row of comdat function (name, signature) in g's hash of them
 * (open addressing, slots hold row + 1), or UINT32_MAX; with add, a new
 * row is entered when there is none (UINT32_MAX when out of memory). */
static uint64_t comdat_key(const char *name, uint64_t signature) {
  return xprof_hash64(name, strlen(name)) ^ signature;
}

static int comdat_grow(xprof_callgraph *g) {
  uint32_t size = g->comdat_mask ? 2 * (g->comdat_mask + 1) : 64;
  uint32_t *slots = xprof_calloc(size, sizeof *slots);
  if (!slots)
    return -1;
  for (uint32_t i = 0; g->comdat_slots && i <= g->comdat_mask; i++) {
    uint32_t row = g->comdat_slots[i];
    if (!row)
      continue;
    const xprof_cg_proc *r = &g->procs[row - 1];
    uint32_t s = (uint32_t)comdat_key(r->name, r->signature) & (size - 1);
    while (slots[s])
      s = (s + 1) & (size - 1);
    slots[s] = row;
  }
  xprof_free(g->comdat_slots);
  g->comdat_slots = slots;
  g->comdat_mask = size - 1;
  return 0;
}

/* A new row for procedure f of object o. */
static uint32_t new_row(xprof_callgraph *g, const xprof_objfile *o, const xprof_proc *f) {
  if (xprof_grow((void **)&g->procs, &g->cap_procs, g->n_procs, sizeof *g->procs) < 0)
    return UINT32_MAX;
  xprof_cg_proc *r = &g->procs[g->n_procs];
  memset(r, 0, sizeof *r);
  r->name = f->name;
  r->signature = f->signature;
  r->objfile = o;
  r->proc = f;
  return g->n_procs++;
}

/* The procedure row of a procedure, made on first sight: one per comdat
 * function (its copies share their counts), one per object file for the
 * others (static functions of the same name are different functions; an
 * object's table lists each of its procedures once). */
static uint32_t proc_row(xprof_callgraph *g, const xprof_objfile *o, const xprof_proc *f,
                         int comdat) {
  if (!comdat)
    return new_row(g, o, f);
  if (2 * (g->n_comdat + 1) > g->comdat_mask && comdat_grow(g) < 0)
    return UINT32_MAX;
  uint32_t s = (uint32_t)comdat_key(f->name, f->signature) & g->comdat_mask;
  for (; g->comdat_slots[s]; s = (s + 1) & g->comdat_mask) {
    const xprof_cg_proc *r = &g->procs[g->comdat_slots[s] - 1];
    if (r->signature == f->signature && strcmp(r->name, f->name) == 0)
      return g->comdat_slots[s] - 1;
  }
  uint32_t row = new_row(g, o, f);
  if (row != UINT32_MAX) {
    g->comdat_slots[s] = row + 1;
    g->n_comdat++;
  }
  return row;
}

static int add_arc(xprof_callgraph *g, uint32_t caller, const char *callee, const char *obj,
                   uint64_t count, int indirect) {
  uint64_t through = indirect ? count : 0;
  if (!count)
    return 0;
  /* A caller's arcs are made together, at the end of the list. */
  for (uint32_t i = g->n_arcs; i-- > 0 && g->arcs[i].caller == caller;) {
    xprof_cg_arc *a = &g->arcs[i];
    if (strcmp(a->callee, callee) == 0 &&
        (a->callee_obj == obj || (a->callee_obj && obj && strcmp(a->callee_obj, obj) == 0))) {
      a->count = xprof_sat_add(a->count, count);
      a->indirect = xprof_sat_add(a->indirect, through);
      return 0;
    }
  }
  if (xprof_grow((void **)&g->arcs, &g->cap_arcs, g->n_arcs, sizeof *g->arcs) < 0)
    return -1;
  g->arcs[g->n_arcs++] = (xprof_cg_arc){caller, callee, UINT32_MAX, count, through, obj};
  return 0;
}

/* Indirect calls of procedure f: its VP_PROC records ("name:object"). */
static int indirect_arcs(xprof_callgraph *g, uint32_t row, const xprof_objfile *o,
                         const xprof_proc *f) {
  for (uint32_t r = 0; r < f->n_vp_records; r++) {
    const xprof_vp_record *v = &f->vp[r];
    if (v->type != XPROF_VP_PROC)
      continue;
    for (uint32_t k = 0; k < o->n_values_per_vp; k++) {
      const char *target = v->values[k].proc;
      if (!target || !v->values[k].count)
        continue;
      const char *colon = strchr(target, ':');
      const char *name = colon ? xprof_strndup(g->owner, target, (size_t)(colon - target)) : target;
      if (!name || add_arc(g, row, name, colon ? colon + 1 : NULL, v->values[k].count, 1) < 0)
        return -1;
    }
  }
  return 0;
}

/* One procedure of a coverage table: its counts and direct calls. */
static int add_proc(xprof_callgraph *g, const xprof_objfile *o, const xprof_proc *f,
                    const xprof_cfgdump_entry *c) {
  uint32_t row = proc_row(g, o, f, c->comdat);
  if (row == UINT32_MAX)
    return -1;
  xprof_cg_proc *r = &g->procs[row];
  if (r->solved)
    return 0; /* a comdat function seen in another object: the same counts */
  uint64_t *edges = xprof_calloc((size_t)c->n_edges + 1, 8);
  uint64_t *nodes = xprof_calloc((size_t)c->n_nodes + 1, 8);
  int rc = edges && nodes ? xprof_solve_proc(o, f, c, edges, nodes) : -1;
  if (rc >= 0) {
    r->solved = 1;
    /* Node 0 is ENTRY.  Its fake edges stand for abnormal entries (a
     * computed goto's or setjmp's targets): they are in the compilers'
     * entry count, not calls. */
    r->entries = c->n_nodes ? nodes[0] : 0;
    for (uint32_t e = 0; e < c->n_edges; e++)
      if (c->edges[e].src == 0 && !(c->edges[e].flags & (XPROF_EDGE_FAKE | XPROF_EDGE_IGNORE)))
        r->calls = xprof_sat_add(r->calls, edges[e]);
    for (uint32_t n = 2; n < c->n_nodes; n++)
      r->blocks = xprof_sat_add(r->blocks, nodes[n]);
    for (uint32_t k = 0; k < c->n_calls && rc >= 0; k++)
      rc = add_arc(g, row, c->calls[k].callee, NULL, nodes[c->calls[k].node], 0);
    if (rc >= 0)
      rc = indirect_arcs(g, row, o, f);
  }
  xprof_free(edges);
  xprof_free(nodes);
  return rc < 0 ? -1 : 0;
}

/* The procedures of object o by its table; 0, or -1 when out of memory. */
static int add_object(xprof_callgraph *g, const xprof_objfile *o, const char *table) {
  xprof_cfgdump t;
  xprof_error err;
  if (!table)
    return note(g, xprof_format("%s: no coverage table (neither in the object file nor "
                                "beside it): its procedures' calls are unknown",
                                o->path));
  if (xprof_table_read(table, o->path, g->owner, &t, &err) < 0)
    return note(g, xprof_format("%s", err.msg));
  if (t.version < 3)
    note(g, xprof_format("%s: written by an xprof before direct calls were recorded: "
                         "its procedures' direct calls are unknown",
                         table));
  uint32_t stale = 0;
  for (uint32_t i = 0; i < t.n_procs; i++) {
    const xprof_cfgdump_entry *c = &t.procs[i];
    const xprof_proc *f = xprof_find_proc(o, c->name);
    if (!f || f->signature != c->signature) {
      stale++;
      continue;
    }
    if (add_proc(g, o, f, c) < 0)
      return -1;
  }
  if (stale)
    return note(g, xprof_format("%s: %u procedure%s not as in the profile (rebuilt after the "
                                "run?): left out",
                                table, stale, xprof_plural(stale)));
  return 0;
}

/* A value profile keeps a few targets per site: a site that called more
 * folds the calls of the others into those it keeps, or loses them.  A
 * target's entry count is exact, and so are the direct calls into it, so
 * its indirect calls are set to what those leave: cut down, or made up,
 * in proportion, among the sites that called it indirectly (the likely
 * makers of the calls lost).  What is left without a caller is `unknown`
 * (calls from code not instrumented, or through sites that kept no trace
 * of the target). */
static int balance_indirect(xprof_callgraph *g) {
  /* Per callee, the direct and indirect calls the arcs give it. */
  uint64_t *direct = xprof_calloc((size_t)g->n_procs + 1, sizeof *direct);
  uint64_t *indirect = xprof_calloc((size_t)g->n_procs + 1, sizeof *indirect);
  uint64_t *room = xprof_calloc((size_t)g->n_procs + 1, sizeof *room);
  if (!direct || !indirect || !room) {
    xprof_free(direct);
    xprof_free(indirect);
    xprof_free(room);
    return -1;
  }
  for (uint32_t i = 0; i < g->n_arcs; i++) {
    const xprof_cg_arc *a = &g->arcs[i];
    if (a->callee_proc == UINT32_MAX)
      continue;
    direct[a->callee_proc] += a->count - a->indirect;
    indirect[a->callee_proc] += a->indirect;
  }
  for (uint32_t t = 0; t < g->n_procs; t++) {
    xprof_cg_proc *r = &g->procs[t];
    room[t] = r->calls > direct[t] ? r->calls - direct[t] : 0;
    r->unknown = r->solved && !indirect[t] ? room[t] : 0;
  }
  /* Each indirect arc's share of its callee's room; what rounding leaves
   * goes to the callee's first indirect arc. */
  uint64_t *left = direct; /* reused: the room not yet given out */
  for (uint32_t t = 0; t < g->n_procs; t++)
    left[t] = room[t];
  for (uint32_t i = 0; i < g->n_arcs; i++) {
    xprof_cg_arc *a = &g->arcs[i];
    uint32_t t = a->callee_proc;
    if (t == UINT32_MAX || !a->indirect || !g->procs[t].solved || indirect[t] == room[t])
      continue;
    uint64_t keep = (uint64_t)((double)a->indirect * (double)room[t] / (double)indirect[t]);
    if (keep > left[t])
      keep = left[t];
    left[t] -= keep;
    a->count = a->count - a->indirect + keep;
    a->indirect = keep;
  }
  for (uint32_t i = 0; i < g->n_arcs; i++) {
    xprof_cg_arc *a = &g->arcs[i];
    uint32_t t = a->callee_proc;
    if (t == UINT32_MAX || !a->indirect || !left[t] || indirect[t] == room[t] ||
        !g->procs[t].solved)
      continue;
    a->count += left[t];
    a->indirect += left[t];
    left[t] = 0;
  }
  xprof_free(direct);
  xprof_free(indirect);
  xprof_free(room);
  return 0;
}

static int arc_cmp(const void *a, const void *b) {
  const xprof_cg_arc *x = a, *y = b;
  if (x->caller != y->caller)
    return x->caller < y->caller ? -1 : 1;
  return strcmp(x->callee, y->callee);
}

typedef struct named {
  const char *name;
  uint32_t row;
} named;

static int named_cmp(const void *a, const void *b) {
  const named *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* Callees by procedure, where the profile has them: of several of the
 * name (static functions), the one of the object file the value profile
 * names, or else of the caller's object file, or else the first.  0, or
 * -1 when out of memory. */
static int find_callees(xprof_callgraph *g) {
  named *by_name = xprof_malloc(((size_t)g->n_procs + 1) * sizeof *by_name);
  if (!by_name)
    return -1;
  for (uint32_t k = 0; k < g->n_procs; k++)
    by_name[k] = (named){g->procs[k].name, k};
  if (g->n_procs > 1)
    xprof_sort(by_name, g->n_procs, sizeof *by_name, named_cmp);
  for (uint32_t i = 0; i < g->n_arcs; i++) {
    xprof_cg_arc *a = &g->arcs[i];
    uint32_t lo = 0, hi = g->n_procs;
    while (lo < hi) { /* the first row of the callee's name */
      uint32_t mid = lo + (hi - lo) / 2;
      if (strcmp(by_name[mid].name, a->callee) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
    const char *want = a->callee_obj ? a->callee_obj : g->procs[a->caller].objfile->path;
    for (uint32_t k = lo; k < g->n_procs && strcmp(by_name[k].name, a->callee) == 0; k++)
      if (a->callee_proc == UINT32_MAX ||
          strcmp(g->procs[by_name[k].row].objfile->path, want) == 0) {
        a->callee_proc = by_name[k].row;
        if (strcmp(g->procs[a->callee_proc].objfile->path, want) == 0)
          break;
      }
  }
  xprof_free(by_name);
  return 0;
}

int xprof_callgraph_build(xprof_profile *p, xprof_table_finder find, void *ctx,
                          xprof_callgraph **out, xprof_error *err) {
  xprof_callgraph *g = xprof_calloc(1, sizeof *g);
  *out = NULL;
  if (!g)
    return xprof_fail_nomem(err, "call graph");
  g->owner = p;
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    char *table = find(ctx, p->objfiles[i].path);
    int rc = add_object(g, &p->objfiles[i], table);
    xprof_free(table);
    if (rc < 0) {
      xprof_callgraph_free(g);
      return xprof_fail_nomem(err, "call graph");
    }
  }
  if (find_callees(g) < 0 || balance_indirect(g) < 0) {
    xprof_callgraph_free(g);
    return xprof_fail_nomem(err, "call graph");
  }
  if (g->n_arcs > 1)
    xprof_sort(g->arcs, g->n_arcs, sizeof *g->arcs, arc_cmp);
  *out = g;
  return 0;
}

void xprof_callgraph_free(xprof_callgraph *g) {
  if (!g)
    return;
  for (uint32_t i = 0; i < g->n_notes; i++)
    xprof_free(g->notes[i]);
  xprof_free(g->notes);
  xprof_free(g->procs);
  xprof_free(g->comdat_slots);
  xprof_free(g->arcs);
  xprof_free(g);
}

uint32_t xprof_callgraph_find(const xprof_callgraph *g, const char *name) {
  for (uint32_t i = 0; i < g->n_procs; i++)
    if (strcmp(g->procs[i].name, name) == 0)
      return i;
  return UINT32_MAX;
}
