/*
 * lines.c - a function's counts from a line-level profile: what a use
 * build gives a function whose graph its profile cannot match (trained
 * with another compiler or version, or changed beyond salvage), and a
 * function of a program that was only sampled.
 *
 * Each block's estimate is the largest count among the places its code
 * comes from (a line, under the functions inlined around it): the
 * profile's count of that line in that inline context, as AutoFDO gives a
 * block the count of its busiest instruction.  A block whose places the
 * profile's function holds, but not their lines, ran 0 times there; a
 * block none of whose places can be found (code inlined here that the
 * trained build did not inline, or no lines at all) has no estimate.  The
 * entry's estimate is the function's head.  The estimates are then made a
 * flow (xprof_infer_flow): the counts the compiler sees are consistent
 * whatever the profile said.
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof_plan.h"

/* The instance of the function inlined at line offset `offset` of f
 * under the name `name`, or NULL. */
static const xprof_lp_func *callee(const xprof_lp_func *f, uint32_t offset, const char *name) {
  for (uint32_t i = 0; i < f->n_calls; i++)
    if (f->calls[i].offset == offset && strcmp(f->calls[i].callee->name, name) == 0)
      return f->calls[i].callee;
  return NULL;
}

/* The count of line offset `offset` of f (of its busiest discriminator),
 * 0 when f does not have it. */
static uint64_t line_count(const xprof_lp_func *f, uint32_t offset) {
  uint32_t a = 0, b = f->n_lines;
  while (a < b) { /* the first line at offset or after */
    uint32_t mid = a + (b - a) / 2;
    if (f->lines[mid].offset < offset)
      a = mid + 1;
    else
      b = mid;
  }
  uint64_t most = 0;
  for (uint32_t i = a; i < f->n_lines && f->lines[i].offset == offset; i++)
    if (f->lines[i].count > most)
      most = f->lines[i].count;
  return most;
}

/* The instance of f that place l's code is in, and l's line offset there;
 * NULL when the profile does not have that inline context. */
static const xprof_lp_func *place(const xprof_lp_func *f, uint32_t decl_line,
                                  const xprof_line_loc *l, uint32_t *offset) {
  uint32_t base = decl_line;
  for (uint32_t i = l->depth; f && i-- > 0;) { /* from the outermost in */
    const xprof_inline_frame *fr = &l->frames[i];
    if (!fr->fn || fr->call_line < base)
      return NULL;
    f = callee(f, fr->call_line - base, fr->fn);
    base = fr->fn_line;
  }
  if (!f || l->line < base)
    return NULL;
  *offset = l->line - base;
  return f;
}

int xprof_line_counts(const xprof_lp_func *f, uint32_t decl_line, uint32_t n_nodes,
                      const xprof_edge *edges, uint32_t n_edges, const xprof_line_loc *locs,
                      uint32_t n_locs, uint64_t *edge_count, uint64_t *node_count,
                      xprof_line_match *m) {
  memset(m, 0, sizeof *m);
  if (n_nodes <= XPROF_EXIT)
    return 0;
  uint64_t *weight = xprof_calloc(n_nodes, sizeof *weight);
  unsigned char *known = xprof_calloc(n_nodes, 1);
  if (!weight || !known) {
    xprof_free(weight);
    xprof_free(known);
    return -1;
  }
  for (uint32_t i = 0; i < n_locs; i++) {
    const xprof_line_loc *l = &locs[i];
    if (l->node >= n_nodes || l->node == XPROF_ENTRY || l->node == XPROF_EXIT)
      continue;
    m->located++;
    uint32_t offset;
    const xprof_lp_func *in = place(f, decl_line, l, &offset);
    if (!in)
      continue;
    uint64_t c = line_count(in, offset);
    m->matched += c > 0;
    known[l->node] = 1;
    if (c > weight[l->node])
      weight[l->node] = c;
  }
  if (f->head) {
    weight[XPROF_ENTRY] = f->head;
    known[XPROF_ENTRY] = 1;
  }
  int rc = 0;
  if (m->matched)
    rc = xprof_infer_flow(n_nodes, edges, n_edges, weight, known, edge_count, node_count) < 0
             ? -1
             : 1;
  xprof_free(weight);
  xprof_free(known);
  return rc;
}
