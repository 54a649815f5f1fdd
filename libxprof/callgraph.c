/*
 * callgraph.c - the exact call graph of a training run: how often each
 * procedure was entered, how many basic blocks it ran, and how often each
 * caller called each callee.
 *
 * Direct calls come from the coverage tables (K records: the calls of
 * each block, written by the collect pass) times the solved count of
 * their block; indirect calls from the value profiles of indirect-call
 * sites (VP_PROC: callee and count).  Both are the counts a use build
 * hands the compiler.  Calls from code xprof did not instrument (a C
 * library calling back, say) have no caller here, as gprof's own mcount
 * finds none for them.
 */
#include <stdlib.h>

#include "internal.h"

static int note(xprof_callgraph *g, char *msg) {
  if (!msg || xprof_grow((void **)&g->notes, &g->cap_notes, g->n_notes, sizeof *g->notes) < 0) {
    xprof_free(msg);
    return -1;
  }
  g->notes[g->n_notes++] = msg;
  return 0;
}

/* The procedure row of (name, signature), made on first sight. */
static uint32_t proc_row(xprof_callgraph *g, const xprof_objfile *o, const xprof_proc *f) {
  for (uint32_t i = 0; i < g->n_procs; i++)
    if (g->procs[i].signature == f->signature && strcmp(g->procs[i].name, f->name) == 0)
      return i;
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

static int add_arc(xprof_callgraph *g, uint32_t caller, const char *callee, uint64_t count,
                   int indirect) {
  if (!count)
    return 0;
  /* A caller's arcs are made together, at the end of the list. */
  for (uint32_t i = g->n_arcs; i-- > 0 && g->arcs[i].caller == caller;) {
    xprof_cg_arc *a = &g->arcs[i];
    if (strcmp(a->callee, callee) == 0) {
      a->count = xprof_sat_add(a->count, count);
      a->indirect |= indirect;
      return 0;
    }
  }
  if (xprof_grow((void **)&g->arcs, &g->cap_arcs, g->n_arcs, sizeof *g->arcs) < 0)
    return -1;
  g->arcs[g->n_arcs++] = (xprof_cg_arc){caller, callee, UINT32_MAX, count, indirect};
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
      if (!name || add_arc(g, row, name, v->values[k].count, 1) < 0)
        return -1;
    }
  }
  return 0;
}

/* One procedure of a coverage table: its counts and direct calls. */
static int add_proc(xprof_callgraph *g, const xprof_objfile *o, const xprof_proc *f,
                    const xprof_cfgdump_entry *c) {
  uint32_t row = proc_row(g, o, f);
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
    r->calls = c->n_nodes ? nodes[0] : 0; /* node 0: the entry */
    for (uint32_t n = 2; n < c->n_nodes; n++)
      r->blocks = xprof_sat_add(r->blocks, nodes[n]);
    for (uint32_t k = 0; k < c->n_calls && rc >= 0; k++)
      rc = add_arc(g, row, c->calls[k].callee, nodes[c->calls[k].node], 0);
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
    return note(g, xprof_format("%s: no coverage table (%s.xpcov): its procedures' calls "
                                "are unknown",
                                o->path, o->path));
  if (xprof_cfgdump_read(table, g->owner, &t, &err) < 0)
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

static int arc_cmp(const void *a, const void *b) {
  const xprof_cg_arc *x = a, *y = b;
  if (x->caller != y->caller)
    return x->caller < y->caller ? -1 : 1;
  return strcmp(x->callee, y->callee);
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
  /* Callees by procedure, where the profile has them. */
  for (uint32_t i = 0; i < g->n_arcs; i++)
    for (uint32_t k = 0; k < g->n_procs && g->arcs[i].callee_proc == UINT32_MAX; k++)
      if (strcmp(g->procs[k].name, g->arcs[i].callee) == 0)
        g->arcs[i].callee_proc = k;
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
  xprof_free(g->arcs);
  xprof_free(g);
}

uint32_t xprof_callgraph_find(const xprof_callgraph *g, const char *name) {
  for (uint32_t i = 0; i < g->n_procs; i++)
    if (strcmp(g->procs[i].name, name) == 0)
      return i;
  return UINT32_MAX;
}
