/*
 * lineprof.c - line-level profiles: the model, and how exact counts
 * become one.
 *
 * A collect build's coverage table gives every block of a procedure its
 * source lines and the line the procedure is declared on; the profile
 * gives the blocks' counts (solved from the counters).  A line's count is
 * that of its busiest block: the number of times the line ran, where a
 * block count is the number of times each of its lines did.  (A `for`
 * header shares its line between the block that starts the loop and the
 * one that tests it; the test's count is the one that says the line is
 * hot, and it is the larger.)
 *
 * Lines of code inlined into the procedure before it was instrumented
 * go to the function they came from (the table names it), so that the
 * profile is flat: one entry per function, for all its copies.  Only
 * lines of a function's own source at or after its declaration are kept:
 * an offset is counted from the declaration.
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof_views.h"

int xprof_lineprof_note(xprof_lineprof *lp, char *msg) {
  if (!msg)
    return -1;
  if (xprof_grow((void **)&lp->notes, &lp->cap_notes, lp->n_notes, sizeof *lp->notes) < 0) {
    xprof_free(msg);
    return -1;
  }
  lp->notes[lp->n_notes++] = msg;
  return 0;
}

int xprof_lineprof_add(xprof_lp_func *f, uint32_t offset, uint32_t discr, uint64_t count) {
  if (!count)
    return 0;
  if (xprof_grow((void **)&f->lines, &f->cap_lines, f->n_lines, sizeof *f->lines) < 0)
    return -1;
  f->lines[f->n_lines++] = (xprof_lp_line){offset, discr, count};
  return 0;
}

/* ---- from exact counts ---------------------------------------------------- */

/* Fill f as a function named `name` declared at file:decl_line; 0, or -1
 * when out of memory. */
static int init_func(xprof_lp_func *f, const char *name, const char *file, uint32_t decl_line) {
  memset(f, 0, sizeof *f);
  f->name = xprof_format("%s", name);
  f->file = file ? xprof_format("%s", file) : NULL;
  f->decl_line = decl_line;
  if (f->name && (!file || f->file))
    return 0;
  xprof_free(f->name);
  xprof_free(f->file);
  return -1;
}

xprof_lp_func *xprof_lineprof_func(xprof_lineprof *lp, const char *name, const char *file,
                                   uint32_t decl_line) {
  if (xprof_grow((void **)&lp->funcs, &lp->cap_funcs, lp->n_funcs, sizeof *lp->funcs) < 0 ||
      init_func(&lp->funcs[lp->n_funcs], name, file, decl_line) < 0)
    return NULL;
  return &lp->funcs[lp->n_funcs++];
}

xprof_lp_func *xprof_lineprof_inlined(xprof_lp_func *f, uint32_t offset, const char *name,
                                      const char *file, uint32_t decl_line) {
  for (uint32_t i = 0; i < f->n_calls; i++)
    if (f->calls[i].offset == offset && strcmp(f->calls[i].callee->name, name) == 0)
      return f->calls[i].callee;
  xprof_lp_func *c = xprof_malloc(sizeof *c);
  if (!c || init_func(c, name, file, decl_line) < 0 ||
      xprof_grow((void **)&f->calls, &f->cap_calls, f->n_calls, sizeof *f->calls) < 0) {
    if (c)
      xprof_free(c->name), xprof_free(c->file);
    xprof_free(c);
    return NULL;
  }
  f->calls[f->n_calls++] = (xprof_lp_call){offset, 0, c};
  return c;
}

/* The instance of inline context k of table t inside procedure row top
 * (made on first use; inst caches them by context); NULL when a call
 * line lies before its caller's declaration (it has no offset), or when
 * out of memory (*oom set). */
static xprof_lp_func *instance(const xprof_cfgdump *t, uint32_t k, xprof_lp_func *top,
                               xprof_lp_func **inst, int *oom) {
  if (inst[k])
    return inst[k];
  const xprof_cfg_context *c = &t->contexts[k];
  xprof_lp_func *caller =
      c->parent == XPROF_NO_LINE ? top : instance(t, c->parent, top, inst, oom);
  if (!caller || c->call_line < caller->decl_line)
    return NULL;
  inst[k] = xprof_lineprof_inlined(caller, c->call_line - caller->decl_line, c->name,
                      t->sources[c->file].path, c->decl_line);
  *oom |= !inst[k];
  return inst[k];
}

/* Procedure c's lines with the counts of their busiest blocks, the lines
 * of code inlined into it under their call sites; 0, 1 when it has no
 * usable lines (no debug information, or no declaration line), -1 when
 * out of memory. */
static int proc_lines(xprof_lineprof *lp, const xprof_cfgdump *t, const xprof_cfgdump_entry *c,
                      const uint64_t *nodes) {
  if (c->decl_line == XPROF_NO_LINE || c->decl_file >= t->n_sources)
    return 1;
  xprof_lp_func *f = xprof_lineprof_func(lp, c->name, t->sources[c->decl_file].path, c->decl_line);
  xprof_lp_func **inst = xprof_calloc((size_t)t->n_contexts + 1, sizeof *inst);
  if (!f || !inst) {
    xprof_free(inst);
    return -1;
  }
  f->comdat = c->comdat;
  f->head = c->n_nodes ? nodes[0] : 0;
  int oom = 0;
  for (uint32_t i = 0; i < c->n_lines && !oom; i++) {
    const xprof_cfg_line *l = &c->lines[i];
    uint32_t file = c->decl_file;
    xprof_lp_func *to = f;
    if (l->context < t->n_contexts) {
      file = t->contexts[l->context].file;
      to = instance(t, l->context, f, inst, &oom);
    }
    if (!to || l->file != file || l->line < to->decl_line || l->node >= c->n_nodes)
      continue;
    oom = xprof_lineprof_add(to, l->line - to->decl_line, 0, nodes[l->node]) < 0;
  }
  xprof_free(inst);
  return oom ? -1 : 0;
}

/* The procedures of object o that its table describes as they ran. */
static int add_object(xprof_lineprof *lp, const xprof_objfile *o, const char *table,
                      xprof_profile *owner) {
  xprof_cfgdump t;
  xprof_error err;
  if (!table)
    return xprof_lineprof_note(lp, xprof_format("%s: no coverage table (neither in the object file nor beside "
                                 "it, nor in the program): its procedures have no lines",
                                 o->path));
  if (xprof_table_read(table, o->path, owner, &t, &err) < 0)
    return xprof_lineprof_note(lp, xprof_format("%s", err.msg));
  uint32_t stale = 0, no_lines = 0;
  int rc = 0;
  for (uint32_t i = 0; i < t.n_procs && rc >= 0; i++) {
    const xprof_cfgdump_entry *c = &t.procs[i];
    const xprof_proc *f = xprof_find_proc(o, c->name);
    if (!f || f->signature != c->signature) {
      stale += f != NULL;
      continue;
    }
    uint64_t *edges = xprof_calloc((size_t)c->n_edges + 1, 8);
    uint64_t *nodes = xprof_calloc((size_t)c->n_nodes + 1, 8);
    rc = edges && nodes ? 0 : -1;
    if (rc == 0 && xprof_solve_proc(o, f, c, edges, nodes) >= 0) {
      rc = proc_lines(lp, &t, c, nodes);
      no_lines += rc == 1;
    }
    xprof_free(edges);
    xprof_free(nodes);
  }
  if (rc < 0)
    return -1;
  if (stale && xprof_lineprof_note(lp, xprof_format("%s: %u procedure%s not as in the profile (rebuilt after "
                                     "the run?): left out",
                                     table, stale, xprof_plural(stale))) < 0)
    return -1;
  if (no_lines && xprof_lineprof_note(lp, xprof_format("%s: %u procedure%s without source lines (compiled "
                                        "without -g?): left out",
                                        table, no_lines, xprof_plural(no_lines))) < 0)
    return -1;
  return 0;
}

int xprof_lineprof_from_counts(xprof_profile *p, xprof_table_finder find, void *ctx,
                               xprof_lineprof **out, xprof_error *err) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  *out = NULL;
  if (!lp)
    return xprof_fail_nomem(err, "line profile");
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    const xprof_objfile *o = &p->objfiles[i];
    char *table = find(ctx, o->path);
    int rc = add_object(lp, o, table, p);
    xprof_free(table);
    if (rc < 0) {
      xprof_lineprof_free(lp);
      return xprof_fail_nomem(err, "line profile");
    }
  }
  if (xprof_lineprof_finish(lp) < 0) {
    xprof_lineprof_free(lp);
    return xprof_fail_nomem(err, "line profile");
  }
  *out = lp;
  return 0;
}

/* ---- putting it in order -------------------------------------------------- */

static int line_cmp(const void *a, const void *b) {
  const xprof_lp_line *x = a, *y = b;
  if (x->offset != y->offset)
    return x->offset < y->offset ? -1 : 1;
  return x->discr < y->discr ? -1 : x->discr > y->discr;
}

static void func_free(xprof_lp_func *f) {
  xprof_free(f->name);
  xprof_free(f->file);
  xprof_free(f->lines);
  for (uint32_t i = 0; i < f->n_calls; i++) {
    func_free(f->calls[i].callee);
    xprof_free(f->calls[i].callee);
  }
  xprof_free(f->calls);
}

static int call_cmp(const void *a, const void *b) {
  const xprof_lp_call *x = a, *y = b;
  if (x->offset != y->offset)
    return x->offset < y->offset ? -1 : 1;
  if (x->discr != y->discr)
    return x->discr < y->discr ? -1 : 1;
  return strcmp(x->callee->name, y->callee->name);
}

static int settle(xprof_lp_func *f, int add);

/* Add f's lines and calls into `into`'s (f is left empty); 0 or -1. */
static int fold(xprof_lp_func *into, xprof_lp_func *f) {
  for (uint32_t i = 0; i < f->n_lines; i++)
    if (xprof_lineprof_add(into, f->lines[i].offset, f->lines[i].discr, f->lines[i].count) < 0)
      return -1;
  for (uint32_t i = 0; i < f->n_calls; i++) {
    if (xprof_grow((void **)&into->calls, &into->cap_calls, into->n_calls, sizeof *into->calls) <
        0)
      return -1;
    into->calls[into->n_calls++] = f->calls[i];
  }
  f->n_calls = 0;
  into->head = xprof_sat_add(into->head, f->head);
  return settle(into, 1);
}

/* Sort f's lines and calls and merge repeats, within its calls too: a
 * line given twice keeps its larger count (two blocks of one line: the
 * line ran as often as the busier), or with `add`, the sum (one
 * function's lines from two copies); calls of one callee at one place
 * add up.  The totals follow.  0, or -1 when out of memory. */
static int settle(xprof_lp_func *f, int add) {
  if (f->n_lines > 1)
    xprof_sort(f->lines, f->n_lines, sizeof *f->lines, line_cmp);
  uint32_t k = 0;
  for (uint32_t i = 0; i < f->n_lines; i++) {
    xprof_lp_line *l = k ? &f->lines[k - 1] : NULL;
    if (l && line_cmp(l, &f->lines[i]) == 0)
      l->count = add ? xprof_sat_add(l->count, f->lines[i].count)
                     : (l->count > f->lines[i].count ? l->count : f->lines[i].count);
    else
      f->lines[k++] = f->lines[i];
  }
  f->n_lines = k;
  if (f->n_calls > 1)
    xprof_sort(f->calls, f->n_calls, sizeof *f->calls, call_cmp);
  k = 0;
  for (uint32_t i = 0; i < f->n_calls; i++) {
    xprof_lp_call *c = &f->calls[i];
    if (k && call_cmp(&f->calls[k - 1], c) == 0) {
      if (fold(f->calls[k - 1].callee, c->callee) < 0)
        return -1;
      func_free(c->callee);
      xprof_free(c->callee);
    } else {
      f->calls[k++] = *c;
      if (settle(c->callee, add) < 0)
        return -1;
    }
  }
  f->n_calls = k;
  f->total = 0;
  for (uint32_t i = 0; i < f->n_lines; i++)
    f->total = xprof_sat_add(f->total, f->lines[i].count);
  for (uint32_t i = 0; i < f->n_calls; i++)
    f->total = xprof_sat_add(f->total, f->calls[i].callee->total);
  return 0;
}

static int func_cmp(const void *a, const void *b) {
  const xprof_lp_func *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->total > y->total ? -1 : x->total < y->total);
}

static int same_place(const xprof_lp_func *a, const xprof_lp_func *b) {
  return a->decl_line == b->decl_line &&
         (a->file && b->file ? strcmp(a->file, b->file) == 0 : a->file == b->file);
}

int xprof_lineprof_finish(xprof_lineprof *lp) {
  for (uint32_t i = 0; i < lp->n_funcs; i++)
    if (settle(&lp->funcs[i], lp->from_samples) < 0)
      return -1;
  if (lp->n_funcs > 1)
    xprof_sort(lp->funcs, lp->n_funcs, sizeof *lp->funcs, func_cmp);
  uint32_t k = 0, clashes = 0;
  const char *clash = NULL;
  for (uint32_t i = 0; i < lp->n_funcs; i++) {
    xprof_lp_func *f = &lp->funcs[i];
    xprof_lp_func *prev = k ? &lp->funcs[k - 1] : NULL;
    if (!prev || strcmp(prev->name, f->name) != 0) {
      lp->funcs[k++] = *f;
      continue;
    }
    if (!same_place(prev, f)) {
      clashes++;
      clash = prev->name; /* the busier, first by func_cmp, stays */
    } else if (!(prev->comdat && f->comdat)) {
      if (fold(prev, f) < 0)
        return -1;
      prev->comdat |= f->comdat;
    }
    func_free(f);
  }
  lp->n_funcs = k;
  if (clashes &&
      xprof_lineprof_note(lp, xprof_format("%u function%s a name with another declared "
                                           "elsewhere (same-named static functions; e.g. %s): a "
                                           "sample profile names functions only, the busiest of "
                                           "each name is kept",
                                           clashes, clashes == 1 ? " shares" : "s share",
                                           clash)) < 0)
    return -1;
  return 0;
}

void xprof_lineprof_free(xprof_lineprof *lp) {
  if (!lp)
    return;
  for (uint32_t i = 0; i < lp->n_funcs; i++)
    func_free(&lp->funcs[i]);
  xprof_free(lp->funcs);
  for (uint32_t i = 0; i < lp->n_notes; i++)
    xprof_free(lp->notes[i]);
  xprof_free(lp->notes);
  xprof_free(lp);
}
