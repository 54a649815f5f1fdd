/*
 * lineprof_counts.c - exact counts as a line-level profile.
 *
 * A collect build's coverage table gives every block of a procedure its
 * source lines and the line the procedure is declared on; the profile
 * gives the blocks' counts (solved from the counters).  A line's count is
 * that of its busiest block: the number of times the line ran, where a
 * block count is the number of times each of its lines did.  (A `for`
 * header shares its line between the block that starts the loop and the
 * one that tests it; the test's count is the one that says the line is
 * hot, and it is the larger.)  A column of a line (version 7 tables)
 * is counted the same way, over the blocks whose code is on it: where
 * one line is several blocks (a condition and its arms), each block of
 * another compilation then finds its own count.
 *
 * Lines of code inlined into the procedure before it was instrumented
 * go under the call site they came from, as the table's inline contexts
 * say.  The callees that its indirect calls reached and the values its
 * other value-profile sites measured (their records) go with the lines of
 * their sites (the table's V records).  Only lines of a function's own source at or after its
 * declaration are kept: an offset is counted from the declaration.
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof_views.h"

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
  inst[k] = xprof_lineprof_inlined(caller, c->call_line - caller->decl_line, 0, c->name,
                      t->sources[c->file].path, c->decl_line);
  *oom |= !inst[k];
  return inst[k];
}

/* The instance of f that line l (a block's line or a site's place) is
 * in, and in *offset its line offset there; NULL when it has none (out of
 * memory: *oom set too). */
static xprof_lp_func *where(const xprof_cfgdump *t, const xprof_cfgdump_entry *c,
                            const xprof_cfg_line *l, xprof_lp_func *f, xprof_lp_func **inst,
                            int *oom, uint32_t *offset) {
  uint32_t file = c->decl_file;
  xprof_lp_func *to = f;
  if (l->context < t->n_contexts) {
    file = t->contexts[l->context].file;
    to = instance(t, l->context, f, inst, oom);
  }
  if (!to || l->file != file || l->line < to->decl_line)
    return NULL;
  *offset = l->line - to->decl_line;
  return to;
}

/* The values that site s of kind `kind` measured, by the site's record
 * in f (if any), as targets of the site's line: the callees that an
 * indirect call reached; a divisor's, a length's or a quotient's values
 * (where the table says which kind the site is: before version 6 it did
 * not, and a site of another kind could not be told from them).  0 or
 * -1. */
static int site_targets(const xprof_objfile *o, const xprof_proc *f, xprof_lp_func *to,
                        uint32_t offset, uint32_t s, uint32_t kind) {
  for (uint32_t r = 0; r < f->n_vp_records; r++) {
    const xprof_vp_record *rec = &f->vp[r];
    int call = rec->type == XPROF_VP_PROC;
    if (rec->expr_id != s || (!call && (kind == XPROF_SITE_CALL || kind >= XPROF_SITE_KINDS)))
      continue;
    for (uint32_t k = 0; k < o->n_values_per_vp; k++) {
      const xprof_vp_value *v = &rec->values[k];
      if (v->count && !call &&
          xprof_lineprof_value(to, offset, 0, kind, v->bits, v->count) < 0)
        return -1;
      if (!v->count || !v->proc)
        continue; /* an empty slot, a value, or a callee that was not profiled */
      const char *colon = strchr(v->proc, ':');
      char *name = xprof_format("%.*s", (int)(colon ? colon - v->proc : (long)strlen(v->proc)),
                                v->proc);
      int rc = name && !strpbrk(name, " \t") ? xprof_lineprof_target(to, offset, 0, name, v->count)
                                             : name ? 0 : -1;
      xprof_free(name);
      if (rc < 0)
        return -1;
    }
  }
  return 0;
}

/* Procedure c's lines (and their columns) with the counts of their
 * busiest blocks (and which blocks those are), the lines
 * of code inlined into it under their call sites, and the callees of its
 * indirect calls (f's records) at the lines of their sites; 0, 1 when it
 * has no usable lines (no debug information, or no declaration line), -1
 * when out of memory. */
static int proc_lines(xprof_lineprof *lp, const xprof_cfgdump *t, const xprof_cfgdump_entry *c,
                      const xprof_objfile *o, const xprof_proc *f, const uint64_t *nodes) {
  if (c->decl_line == XPROF_NO_LINE || c->decl_file >= t->n_sources)
    return 1;
  xprof_lp_func *lf = xprof_lineprof_func(lp, c->name, t->sources[c->decl_file].path,
                                          c->decl_line);
  xprof_lp_func **inst = xprof_calloc((size_t)t->n_contexts + 1, sizeof *inst);
  if (!lf || !inst) {
    xprof_free(inst);
    return -1;
  }
  lf->comdat = c->comdat;
  lf->source_hash = t->sources[c->decl_file].hash;
  lf->head = c->n_nodes ? nodes[0] : 0;
  /* The procedure's blocks numbered after those of the ones before, from
   * 1, so that places of one block are known as such (xprof_lp_line);
   * past 2^32 blocks, not known (0). */
  uint32_t first = 0;
  if (c->n_nodes < UINT32_MAX - lp->blocks_numbered) {
    first = lp->blocks_numbered + 1;
    lp->blocks_numbered += c->n_nodes;
  }
  int oom = 0;
  uint32_t offset;
  for (uint32_t i = 0; i < c->n_lines && !oom; i++) {
    const xprof_cfg_line *l = &c->lines[i];
    if (l->marker)
      continue; /* no code there: another compiler has no line there */
    xprof_lp_func *to = where(t, c, l, lf, inst, &oom, &offset);
    if (to && l->node < c->n_nodes)
      oom = xprof_lineprof_block(to, offset, 0, nodes[l->node], first ? first + l->node : 0) < 0;
  }
  for (uint32_t i = 0; i < c->n_columns && !oom; i++) {
    const xprof_cfg_line *l = &c->columns[i];
    xprof_lp_func *to = where(t, c, l, lf, inst, &oom, &offset);
    if (to && l->node < c->n_nodes && l->column)
      oom = xprof_lineprof_block(to, offset, l->column, nodes[l->node],
                                 first ? first + l->node : 0) < 0;
  }
  for (uint32_t i = 0; i < c->n_sites && !oom; i++) {
    xprof_lp_func *to = where(t, c, &c->sites[i], lf, inst, &oom, &offset);
    if (to)
      oom = site_targets(o, f, to, offset, c->sites[i].node, c->sites[i].kind) < 0;
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
    lp->made_by |= c->gcc_rules ? XPROF_LP_BY_GCC : XPROF_LP_BY_LLVM;
    if (rc == 0 && xprof_solve_proc(o, f, c, edges, nodes) >= 0) {
      rc = proc_lines(lp, &t, c, o, f, nodes);
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

