/*
 * lines.c - a function's counts from a line-level profile: what a use
 * build gives a function whose graph its profile cannot match (trained
 * with another compiler or version, or changed beyond salvage), and a
 * function of a program that was only sampled.
 *
 * Each block's estimate is the largest count among the places its code
 * comes from (a line, under the functions inlined around it): the
 * profile's count of that line in that inline context, as AutoFDO gives a
 * block the count of its busiest instruction; of the place's column where
 * the profile has the line by column (the collect build's coverage table
 * or the sampled file's line table gave columns), so that blocks of one
 * line (a condition and its arms) are told apart.  Where blocks share a
 * place, as the tokens of a macro expansion all do, only those that may
 * be the busiest take its count (drop_dominated).  Code inlined here that
 * the training build called takes the callee's own lines, scaled by the
 * call's count against the callee's entries (its profile over all its
 * calls; the call site's own is not known).  A block none of whose
 * places the profile has (lines the training build's compiler folded
 * away, lines without samples, no lines at all) has no estimate.  The
 * entry's estimate is the function's head.  The estimates are then made a
 * flow (xprof_infer_flow): the counts the compiler sees are consistent
 * whatever the profile said.  Where a branch leads only to blocks without
 * estimates that meet again (an if and else the training build made a
 * select, whose lines have no counts of their own), the cheapest flow
 * takes one side and leaves the other at 0, which a compiler reads as
 * never run: the flow is split evenly there instead, as profi does.
 *
 * The callees of an indirect call are those of its line in its context
 * (xprof_line_targets), found as a block's count is.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "xprof_plan.h"

/* The instance of the function inlined at line offset `offset` of f
 * under the name `name` (of several, told apart by discriminators that
 * this compilation's places do not carry, the busiest, as for lines), or
 * NULL. */
static const xprof_lp_func *callee(const xprof_lp_func *f, uint32_t offset, const char *name) {
  const xprof_lp_func *best = NULL;
  for (uint32_t i = 0; i < f->n_calls; i++)
    if (f->calls[i].offset == offset && strcmp(f->calls[i].callee->name, name) == 0 &&
        (!best || f->calls[i].callee->total > best->total))
      best = f->calls[i].callee;
  return best;
}

/* The first of the n entries of v (lines or targets, each `size` bytes,
 * sorted by their offset, which comes first in both) at `offset` or
 * after it. */
static uint32_t first_at(const void *v, uint32_t n, size_t size, uint32_t offset) {
  _Static_assert(offsetof(xprof_lp_line, offset) == 0 && offsetof(xprof_lp_target, offset) == 0,
                 "first_at reads the offset first");
  uint32_t a = 0, b = n;
  while (a < b) {
    uint32_t mid = a + (b - a) / 2, at;
    memcpy(&at, (const char *)v + (size_t)mid * size, sizeof at);
    if (at < offset)
      a = mid + 1;
    else
      b = mid;
  }
  return a;
}

/* Line offset `offset` of f (its busiest discriminator), NULL when f
 * does not have it. */
static const xprof_lp_line *line_of(const xprof_lp_func *f, uint32_t offset) {
  uint32_t a = first_at(f->lines, f->n_lines, sizeof *f->lines, offset);
  const xprof_lp_line *most = NULL;
  for (uint32_t i = a; i < f->n_lines && f->lines[i].offset == offset; i++)
    if (!most || f->lines[i].count > most->count)
      most = &f->lines[i];
  return most;
}

/* Two compilers put an expression's column on different tokens of it
 * (GCC a member access's `->`, clang the member's name): a column the
 * profile does not have is taken as the nearest it has within this many. */
#define COLUMN_SLACK 2

/* Column `column` of f's line at offset `offset` (line: that line's own):
 * the line where f has no counts by column there (every column has the
 * line's count) or the place has no column; else f's column, or from exact
 * counts the nearest within COLUMN_SLACK; NULL when there is none.  With
 * exact counts every column that had code in training has its count (0
 * too): code at another column is code the training's compiler put
 * elsewhere, of which the line's count (its busiest block's) says
 * nothing.  Samples leave out the columns that drew none: there the line
 * stands. */
static const xprof_lp_line *column_of(const xprof_lp_func *f, uint32_t offset, uint32_t column,
                                      const xprof_lp_line *line, int exact) {
  if (!column || !f->n_columns)
    return line;
  uint32_t a = first_at(f->columns, f->n_columns, sizeof *f->columns, offset), i;
  const xprof_lp_line *near = NULL;
  uint32_t best = COLUMN_SLACK + 1;
  for (i = a; i < f->n_columns && f->columns[i].offset == offset; i++) {
    const xprof_lp_line *c = &f->columns[i];
    uint32_t d = c->discr > column ? c->discr - column : column - c->discr;
    if (d < best) { /* the earlier of two as near */
      best = d;
      near = c;
    }
  }
  if (i == a) /* no columns at this line */
    return line;
  return best == 0 || exact ? near : line;
}

static int ptr_cmp(const void *a, const void *b) {
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  return x < y ? -1 : x > y;
}

/* v[0..n) sorted, each pointer once; how many are left. */
static uint32_t distinct(const void **v, uint32_t n) {
  if (n > 1)
    qsort(v, n, sizeof *v, ptr_cmp);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    if (k == 0 || v[i] != v[k - 1])
      v[k++] = v[i];
  return k;
}

/* The counts of the profile's lines that some block took, each once
 * (used[] left distinct and sorted, *n_used their number). */
static uint64_t placed_mass(const xprof_lp_line **used, uint32_t *n_used) {
  uint32_t n = *n_used = distinct((const void **)used, *n_used);
  uint64_t mass = 0;
  for (uint32_t i = 0; i < n; i++)
    mass = xprof_sat_add(mass, used[i]->count);
  return mass;
}

/* ---- the source's own lines ------------------------------------------------ */

struct xprof_source_fn {
  char *name;
  uint32_t *lines, n;
};

static int u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int source_fn_cmp(const void *a, const void *b) {
  return strcmp(((const xprof_source_fn *)a)->name, ((const xprof_source_fn *)b)->name);
}

int xprof_source_lines_add(xprof_source_lines *s, const char *fn, uint32_t *lines, uint32_t n) {
  if (n > 1)
    xprof_sort(lines, n, sizeof *lines, u32_cmp);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    if (k == 0 || lines[i] != lines[k - 1])
      lines[k++] = lines[i];
  if (xprof_grow((void **)&s->fns, &s->cap, s->n, sizeof *s->fns) < 0)
    return -1;
  xprof_source_fn *f = &s->fns[s->n];
  f->name = xprof_format("%s", fn);
  f->lines = k ? xprof_malloc(k * sizeof *lines) : NULL;
  if (!f->name || (k && !f->lines)) {
    xprof_free(f->name);
    xprof_free(f->lines);
    return -1;
  }
  if (k)
    memcpy(f->lines, lines, k * sizeof *lines);
  f->n = k;
  s->n++;
  s->sorted = 0;
  return 0;
}

int xprof_source_lines_had(void *ctx, const char *fn, uint32_t line) {
  xprof_source_lines *s = ctx;
  if (!s->sorted) { /* a compilation's function names are distinct */
    xprof_sort(s->fns, s->n, sizeof *s->fns, source_fn_cmp);
    s->sorted = 1;
  }
  xprof_source_fn key = {(char *)fn, NULL, 0};
  const xprof_source_fn *f = bsearch(&key, s->fns, s->n, sizeof key, source_fn_cmp);
  if (!f || !f->n)
    return -1;
  return bsearch(&line, f->lines, f->n, sizeof line, u32_cmp) != NULL;
}

void xprof_source_lines_free(xprof_source_lines *s) {
  for (uint32_t i = 0; i < s->n; i++) {
    xprof_free(s->fns[i].name);
    xprof_free(s->fns[i].lines);
  }
  xprof_free(s->fns);
  memset(s, 0, sizeof *s);
}

/* ---- the share placed ------------------------------------------------------ */

/* An instance of the profile that some place here is in, and the line
 * it is declared on here. */
typedef struct reach {
  const xprof_lp_func *in;
  uint32_t base;
} reach;

static int reach_cmp(const void *a, const void *b) {
  const reach *x = a, *y = b;
  if (x->in != y->in)
    return (uintptr_t)x->in < (uintptr_t)y->in ? -1 : 1;
  return x->base < y->base ? -1 : x->base > y->base;
}

static int used_has(const xprof_lp_line **used, uint32_t n, const xprof_lp_line *l) {
  return n && bsearch(&l, used, n, sizeof *used, ptr_cmp) != NULL;
}

/* The counts the code here could take: the own lines (not the inlined
 * calls') of f and of each instance inlined into it that some place here
 * is in (reached[0..n), f among them).  An instance the training inlined
 * at a call that is a call here is not: its counts are the callee's,
 * whose own entry has them (xprof_lineprof_fold_inlined), and a function
 * whose training build inlined most of its time away would otherwise
 * seem to place little of its profile and be refused.  Nor is a line
 * that no place took but this source had (p->had_line): the compiler
 * folded it away (their counts added to *folded).  used[0..n_used): the
 * lines placed, distinct and sorted. */
static uint64_t reachable_mass(reach *reached, uint32_t n, const xprof_lp_line **used,
                               uint32_t n_used, const xprof_places *p, uint64_t *folded) {
  if (n > 1)
    qsort(reached, n, sizeof *reached, reach_cmp);
  uint64_t mass = 0;
  for (uint32_t i = 0; i < n; i++) {
    const xprof_lp_func *in = reached[i].in;
    if (i && in == reached[i - 1].in)
      continue;
    for (uint32_t k = 0; k < in->n_lines; k++) {
      const xprof_lp_line *l = &in->lines[k];
      if (p->had_line && !used_has(used, n_used, l) &&
          p->had_line(p->had_ctx, in->name, reached[i].base + l->offset) == 1) {
        *folded = xprof_sat_add(*folded, l->count);
        continue;
      }
      mass = xprof_sat_add(mass, l->count);
    }
  }
  return mass;
}

/* The instance of f that place l's code is in, and l's line offset there
 * (*base: the line the instance is declared on here); NULL when the
 * profile does not have that inline context.  Where the
 * training build called a function that is inlined here, the callee's
 * own entry in lp (if lp) stands for the instance, its counts to be
 * multiplied by *scale, the call line's count over the callee's entries
 * (*scale < 0: f's own counts). */
static const xprof_lp_func *place(const xprof_lineprof *lp, const xprof_lp_func *f,
                                  uint32_t decl_line, const xprof_line_loc *l,
                                  uint32_t *offset, uint32_t *base_out, double *scale) {
  uint32_t base = decl_line;
  *scale = -1;
  for (uint32_t i = l->depth; f && i-- > 0;) { /* from the outermost in */
    const xprof_inline_frame *fr = &l->frames[i];
    if (!fr->fn || fr->call_line < base)
      return NULL;
    const xprof_lp_func *in = callee(f, fr->call_line - base, fr->fn);
    if (!in && lp) {
      const xprof_lp_line *call = line_of(f, fr->call_line - base);
      in = call ? xprof_lineprof_find(lp, fr->fn, fr->fn_file) : NULL;
      if (!in || !in->head)
        return NULL;
      *scale = (*scale < 0 ? 1 : *scale) * (double)call->count / (double)in->head;
    }
    f = in;
    base = fr->fn_line;
  }
  if (!f || l->line < base)
    return NULL;
  *offset = l->line - base;
  *base_out = base;
  return f;
}

/* The branch out of block b through edge e, in a diamond or triangle of
 * blocks without estimates: the block it leads to (or the join itself,
 * for a direct edge), set in *mid (UINT32_MAX: none) and the edge on from
 * it in *on.  Returns the join, or UINT32_MAX when e is no such branch.
 * out[v]..out[v+1]: v's out-edges in order (by[]); indeg: real in-edges. */
static uint32_t branch_join(const xprof_edge *edges, const uint32_t *out, const uint32_t *by,
                            const uint32_t *indeg, const unsigned char *known,
                            const uint64_t *edge_count, uint32_t e, uint32_t *mid,
                            uint32_t *on) {
  uint32_t s = edges[e].dst;
  *mid = UINT32_MAX;
  if (s == XPROF_EXIT || known[s] || indeg[s] != 1)
    return s == XPROF_EXIT ? UINT32_MAX : s; /* a direct edge to the join */
  uint32_t next = UINT32_MAX;
  for (uint32_t k = out[s]; k < out[s + 1]; k++) {
    const xprof_edge *x = &edges[by[k]];
    if (x->flags & XPROF_EDGE_IGNORE)
      continue;
    if (x->flags & XPROF_EDGE_FAKE) {
      if (edge_count[by[k]])
        return UINT32_MAX;
    } else if (next != UINT32_MAX) {
      return UINT32_MAX;
    } else {
      next = by[k];
    }
  }
  if (next == UINT32_MAX || edges[next].dst == XPROF_EXIT)
    return UINT32_MAX;
  *mid = s;
  *on = next;
  return edges[next].dst;
}

/* Split evenly the flow out of each block whose branches all lead to
 * blocks without estimates that meet again (see the top). */
static void even_splits(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                        const unsigned char *known, uint64_t *edge_count, uint64_t *node_count) {
  uint32_t *out = xprof_calloc((size_t)n_nodes + 2, sizeof *out);
  uint32_t *by = xprof_calloc((size_t)n_edges + 1, sizeof *by);
  uint32_t *indeg = xprof_calloc((size_t)n_nodes + 1, sizeof *indeg);
  uint32_t *br = xprof_calloc((size_t)n_edges + 1, 3 * sizeof *br);
  if (!out || !by || !indeg || !br)
    goto done;
  xprof_out_edges(n_nodes, edges, n_edges, out, by);
  for (uint32_t e = 0; e < n_edges; e++)
    indeg[edges[e].dst] += !(edges[e].flags & (XPROF_EDGE_IGNORE | XPROF_EDGE_FAKE));
  for (uint32_t b = 2; b < n_nodes; b++) {
    uint32_t n = 0, join = UINT32_MAX, mids = 0;
    uint64_t flow = 0;
    int ok = 1;
    for (uint32_t k = out[b]; ok && k < out[b + 1]; k++) {
      uint32_t e = by[k];
      if (edges[e].flags & (XPROF_EDGE_IGNORE | XPROF_EDGE_FAKE))
        continue;
      uint32_t mid, on = 0;
      uint32_t j = branch_join(edges, out, by, indeg, known, edge_count, e, &mid, &on);
      ok = j != UINT32_MAX && (join == UINT32_MAX || j == join);
      join = j;
      for (uint32_t i = 0; ok && i < n; i++) /* each branch its own block */
        ok = edges[br[3 * i]].dst != edges[e].dst;
      br[3 * n] = e, br[3 * n + 1] = mid, br[3 * n + 2] = on;
      n++;
      mids += mid != UINT32_MAX;
      flow = xprof_sat_add(flow, edge_count[e]);
    }
    if (!ok || n < 2 || !mids)
      continue;
    for (uint32_t i = 0; i < n; i++) {
      uint64_t c = flow / n + (i < flow % n);
      edge_count[br[3 * i]] = c;
      if (br[3 * i + 1] != UINT32_MAX) {
        node_count[br[3 * i + 1]] = c;
        edge_count[br[3 * i + 2]] = c;
      }
    }
  }
done:
  xprof_free(out);
  xprof_free(by);
  xprof_free(indeg);
  xprof_free(br);
}

const xprof_lp_target *xprof_line_targets(const xprof_lineprof *lp, const xprof_lp_func *f,
                                          uint32_t decl_line, const xprof_line_loc *l,
                                          uint32_t *n, double *scale) {
  uint32_t offset, base;
  const xprof_lp_func *in = place(lp, f, decl_line, l, &offset, &base, scale);
  *n = 0;
  if (!in)
    return NULL;
  uint32_t a = first_at(in->targets, in->n_targets, sizeof *in->targets, offset), b;
  for (b = a; b < in->n_targets && in->targets[b].offset == offset;)
    b++;
  *n = b - a;
  return *n ? &in->targets[a] : NULL;
}

uint64_t xprof_line_inlined(const xprof_lp_func *f, uint32_t decl_line, const xprof_line_loc *call,
                            const char *name) {
  uint32_t offset, base;
  double scale;
  const xprof_lp_func *in = place(NULL, f, decl_line, call, &offset, &base, &scale);
  const xprof_lp_func *c = in ? callee(in, offset, name) : NULL;
  return c ? c->total : 0;
}

/* One block's estimate from one place: the count of line `offset`,
 * column `column` of instance `in` (already scaled where it is a
 * callee's own). */
typedef struct estimate {
  const xprof_lp_func *in;
  uint32_t offset, column, node;
  uint64_t count;
  uint32_t blocks; /* the place's blocks in training (exact counts) */
  uint64_t least;  /* the least busy one's count */
  uint32_t block;  /* the busiest one (xprof_lp_line), 0: not known */
  int scaled;  /* a callee's own line, scaled to its call here */
  int dropped;
} estimate;

static int estimate_cmp(const void *pa, const void *pb) {
  const estimate *a = pa, *b = pb;
  uintptr_t x = (uintptr_t)a->in, y = (uintptr_t)b->in;
  if (x != y)
    return x < y ? -1 : 1;
  if (a->offset != b->offset)
    return a->offset < b->offset ? -1 : 1;
  if (a->column != b->column)
    return a->column < b->column ? -1 : 1;
  if (a->scaled != b->scaled)
    return a->scaled - b->scaled;
  if (a->node != b->node)
    return a->node < b->node ? -1 : 1;
  return a->count < b->count ? -1 : a->count > b->count;
}

/* Whether a path leads from s back to s without passing through d (s is
 * in a loop that d is not in).  seen[]: scratch stamped with `stamp`;
 * stack: room for every node. */
static int cycles_without(const xprof_edge *edges, const uint32_t *out, const uint32_t *by,
                          uint32_t s, uint32_t d, uint32_t *seen, uint32_t stamp,
                          uint32_t *stack) {
  uint32_t depth = 0;
  stack[depth++] = s;
  while (depth) {
    uint32_t v = stack[--depth];
    for (uint32_t k = out[v]; k < out[v + 1]; k++) {
      const xprof_edge *e = &edges[by[k]];
      if (e->flags & XPROF_EDGE_IGNORE)
        continue;
      if (e->dst == s)
        return 1;
      if (e->dst != d && seen[e->dst] != stamp) {
        seen[e->dst] = stamp;
        stack[depth++] = e->dst;
      }
    }
  }
  return 0;
}

/* A group of blocks sharing one place the most blocks that
 * drop_dominated examines: past it, the pairs cost more than they say. */
#define SHARED_PLACE_MAX 32

/* What the two passes below ask of the graph: which block runs within
 * which.  The edges walked (the graph's, or drop_ran_with_other's copy
 * without the ignored and fake ones), its dominator tree, its
 * post-dominator tree where built (empty: nothing post-dominates), and
 * cycles_without's scratch. */
typedef struct graph_scratch {
  const xprof_edge *edges;
  xprof_edge *own; /* the copy, when the edges are one */
  xprof_dom dom, pdom;
  uint32_t *out, *by, *seen, *stack;
  uint32_t stamp;
} graph_scratch;

/* Set up g over the n_edges edges (post-dominators too with `post`);
 * 0, or -1 when out of memory (g then freed by graph_free alone). */
static int graph_init(graph_scratch *g, uint32_t n_nodes, const xprof_edge *edges,
                      uint32_t n_edges, int post) {
  g->edges = edges;
  g->out = xprof_calloc((size_t)n_nodes + 2, sizeof *g->out);
  g->by = xprof_calloc((size_t)n_edges + 1, sizeof *g->by);
  g->seen = xprof_calloc((size_t)n_nodes + 1, sizeof *g->seen);
  g->stack = xprof_calloc((size_t)n_edges + 1, sizeof *g->stack);
  if (!g->out || !g->by || !g->seen || !g->stack ||
      xprof_dom_build(&g->dom, n_nodes, edges, n_edges) < 0 ||
      (post && xprof_postdom_build(&g->pdom, n_nodes, edges, n_edges) < 0))
    return -1;
  xprof_out_edges(n_nodes, edges, n_edges, g->out, g->by);
  return 0;
}

static void graph_free(graph_scratch *g) {
  xprof_dom_free(&g->dom);
  xprof_dom_free(&g->pdom);
  xprof_free(g->own);
  xprof_free(g->out);
  xprof_free(g->by);
  xprof_free(g->seen);
  xprof_free(g->stack);
}

/* Whether block u runs at most as often as block v: v dominates or
 * post-dominates it, and every cycle through u passes through v. */
static int runs_within(graph_scratch *g, uint32_t u, uint32_t v) {
  if (u == v ||
      (!xprof_dom_dominates(&g->dom, v, u) && !xprof_postdominates(&g->pdom, v, u)))
    return 0;
  g->stamp++;
  return !cycles_without(g->edges, g->out, g->by, u, v, g->seen, g->stamp, g->stack);
}

/* The scratch drop_dominated works with. */
typedef struct shared_scratch {
  graph_scratch g; /* over every edge, dominators only */
  uint32_t *places; /* per node, the places that estimate it */
} shared_scratch;

/* In the group g[0..n) of estimates from one place, each on its own block,
 * a place whose blocks here may not all run as often (in training, one
 * block, or blocks that ran unequally): drop the estimate of a
 * block that another block of the group dominates when every cycle
 * through it passes through that block too.  Such a block runs at most as
 * often as its dominator, while the place's count is its busiest block's:
 * the dominator's or another's.  That is what the tokens
 * of a macro expansion look like (`x = *p; if (x >= 0x80) x = slow(p);`
 * all at the expansion's line and column): without this, the call that
 * never ran takes the count of the test before it, and the flow sends
 * everything through it.  A block in a loop its dominator is not in (a
 * loop condition the compiler copied ahead of its loop) keeps the place's
 * count.  The group's topmost block in the dominator tree always keeps
 * it; a dropped block may still have estimates from other places.  Where
 * the place was several blocks in training and one dropped block has no
 * other estimate (the others are what a compiler split off: a join that
 * has the next line's code too), it is the likeliest to be the training's
 * least busy (the macro's call): it takes that count instead. */
static void drop_dominated(shared_scratch *sc, estimate *g, uint32_t n) {
  uint32_t alone = 0, lone = 0;
  for (uint32_t i = 0; i < n; i++) {
    for (uint32_t j = 0; j < n && !g[i].dropped; j++)
      g[i].dropped = runs_within(&sc->g, g[i].node, g[j].node);
    if (g[i].dropped && sc->places[g[i].node] == 1)
      alone++, lone = i;
  }
  if (alone == 1 && g[lone].blocks >= 2) {
    g[lone].count = g[lone].least;
    g[lone].block = 0; /* not the busiest block's count now */
    g[lone].dropped = 0;
  }
}

/* Apply drop_dominated to every place that estimates several blocks of
 * the graph (est sorted by estimate_cmp).  Out of memory: nothing dropped,
 * the estimates stand as they are. */
static void drop_shared(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                        estimate *est, uint32_t n_est) {
  shared_scratch sc;
  memset(&sc, 0, sizeof sc);
  for (uint32_t a = 0, b; a < n_est; a = b) {
    for (b = a + 1; b < n_est && est[b].in == est[a].in && est[b].offset == est[a].offset &&
                    est[b].column == est[a].column && est[b].scaled == est[a].scaled;)
      b++;
    /* A callee's own line stands for each call inlined here: the same
     * place in other contexts, not one place.  A place that was several
     * blocks in training, all as busy (`a && b` in a macro: both tests as
     * often), says as much of each block here. */
    if (b - a < 2 || b - a > SHARED_PLACE_MAX || est[a].scaled ||
        (est[a].blocks > 1 && est[a].least == est[a].count))
      continue;
    if (!sc.places) {
      sc.places = xprof_calloc((size_t)n_nodes + 1, sizeof *sc.places);
      if (!sc.places || graph_init(&sc.g, n_nodes, edges, n_edges, 0) < 0)
        break;
      for (uint32_t i = 0; i < n_est; i++)
        sc.places[est[i].node]++;
    }
    drop_dominated(&sc, &est[a], b - a);
  }
  graph_free(&sc.g);
  xprof_free(sc.places);
}

/* Where some blocks have measured counts (salvage matched them to the
 * training's blocks), a place that estimates one of them estimates none
 * of the others: its count is its busiest training block's, which the
 * measured block already has, and the other blocks of the place are
 * code the training had elsewhere or split otherwise (a macro's copies
 * in an interpreter's loop), of whose counts the place says nothing.
 * est sorted by estimate_cmp. */
static void drop_measured_places(const unsigned char *measured, estimate *est, uint32_t n_est) {
  for (uint32_t a = 0, b; a < n_est; a = b) {
    int any = 0;
    for (b = a; b < n_est && est[b].in == est[a].in && est[b].offset == est[a].offset &&
                est[b].column == est[a].column && est[b].scaled == est[a].scaled;
         b++)
      any |= measured[est[b].node];
    for (uint32_t i = a; any && i < b; i++)
      if (!measured[est[i].node])
        est[i].dropped = 1;
  }
}

/* The weights of a flow made with a prior (xprof_line_counts): a
 * measured block has its count, firmly; a block the lines do not
 * estimate has the prior's count, weakly (the prior is a flow: where the
 * lines say nothing it stands, and no branch is split anew; where they
 * do, it gives way). */
static void prior_counts(const xprof_line_prior *prior, uint32_t n_nodes, uint64_t *weight,
                         unsigned char *known) {
  for (uint32_t v = XPROF_EXIT + 1; prior && v < n_nodes; v++) {
    if (prior->measured[v]) {
      weight[v] = prior->count[v];
      known[v] = XPROF_INFER_MEASURED;
    } else if (!known[v]) {
      weight[v] = prior->count[v];
      known[v] = XPROF_INFER_WEAK;
    }
  }
}

/* An estimate's training block, as drop_ran_with_other groups them. */
typedef struct node_block {
  uint32_t block, node;
  estimate *of;
} node_block;

static int node_block_cmp(const void *pa, const void *pb) {
  const node_block *a = pa, *b = pb;
  if (a->block != b->block)
    return a->block < b->block ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

/* Are estimates a and b of one source place? */
static int same_place(const estimate *a, const estimate *b) {
  return a->in == b->in && a->offset == b->offset && a->column == b->column;
}

/* g over the graph's edges but the ignored and fake ones (a call that
 * may not return does not make the code after it conditional), with
 * post-dominators; as graph_init. */
static int real_graph(graph_scratch *g, uint32_t n_nodes, const xprof_edge *edges,
                      uint32_t n_edges) {
  uint32_t n = 0;
  g->own = xprof_calloc((size_t)n_edges + 1, sizeof *g->own);
  if (!g->own)
    return -1;
  for (uint32_t e = 0; e < n_edges; e++)
    if (!(edges[e].flags & (XPROF_EDGE_IGNORE | XPROF_EDGE_FAKE)))
      g->own[n++] = edges[e];
  return graph_init(g, n_nodes, g->own, n, 1);
}

/* In the group k[0..n) of estimates of one training block, drop those of
 * a block here that runs within another's of the group, of another
 * place, which does not run within it. */
static void drop_within(graph_scratch *g, const node_block *k, uint32_t n) {
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = 0; b < n && !k[a].of->dropped; b++)
      if (k[b].node != k[a].node && !same_place(k[a].of, k[b].of) &&
          runs_within(g, k[a].node, k[b].node) && !runs_within(g, k[b].node, k[a].node))
        k[a].of->dropped = 1;
}

/* Drop the estimate of a block whose place ran in training in one block
 * with another place, which here estimates a block that the first runs
 * within (a dominator or a post-dominator with no loop of its own
 * between) and not as often.  The training's compiler ran the place's
 * code unconditionally where this compiler has it behind a branch: it
 * made the arm a select or hoisted it above the test (`if (k < 0) k +=
 * n;`, clang's select of the sum), or merged a return's code into the
 * function's exit, which every return runs.  Its count then is the
 * test's or the exit's and says nothing of how often the branch went its
 * way: without this the flow sends everything through the arm, or every
 * call out through an early return.  The block keeps its other places'
 * estimates; with none it has no estimate, as an if and else made a
 * select have none (even_splits).  A place's several blocks here are
 * drop_shared's.  Out of memory: nothing dropped. */
static void drop_ran_with_other(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                                estimate *est, uint32_t n_est) {
  node_block *keys = xprof_calloc((size_t)n_est + 1, sizeof *keys);
  graph_scratch g;
  memset(&g, 0, sizeof g);
  uint32_t n_keys = 0;
  if (!keys)
    return;
  for (uint32_t i = 0; i < n_est; i++)
    if (est[i].block && !est[i].dropped && est[i].node < n_nodes)
      keys[n_keys++] = (node_block){est[i].block, est[i].node, &est[i]};
  qsort(keys, n_keys, sizeof *keys, node_block_cmp);
  for (uint32_t a = 0, b; a < n_keys; a = b) {
    int nodes = 1;
    for (b = a + 1; b < n_keys && keys[b].block == keys[a].block; b++)
      nodes += keys[b].node != keys[b - 1].node;
    if (nodes < 2 || b - a > SHARED_PLACE_MAX)
      continue;
    if (!g.out && real_graph(&g, n_nodes, edges, n_edges) < 0)
      break;
    drop_within(&g, &keys[a], b - a);
  }
  graph_free(&g);
  xprof_free(keys);
}

/* The estimate of place l (at line `offset` of instance `in`; scale as
 * place() sets it; exact: the profile is of exact counts) into *e; counts
 * what was matched in m.  Returns 0 when the profile does not have the
 * line, or (column_of) the column. */
static int estimate_of(const xprof_lp_func *in, uint32_t offset, double scale,
                       const xprof_line_loc *l, int exact, estimate *e, xprof_line_match *m) {
  const xprof_lp_line *line = in ? line_of(in, offset) : NULL;
  const xprof_lp_line *at = line ? column_of(in, offset, l->column, line, exact) : NULL;
  if (!at)
    return 0;
  uint64_t count = at->count;
  if (scale >= 0) { /* the callee's own: not f's counts placed */
    double c = (double)count * scale + 0.5;
    count = c < 18446744073709551615.0 ? (uint64_t)c : UINT64_MAX;
    m->scaled += count > 0;
  }
  m->matched += count > 0;
  e->in = in;
  e->offset = offset;
  e->column = l->column;
  e->node = l->node;
  e->count = count;
  e->blocks = at->blocks;
  e->least = at->least;
  e->block = scale >= 0 ? 0 : at->block;
  e->scaled = scale >= 0;
  e->dropped = 0;
  return 1;
}

/* Each located block's estimate from f's line profile into est[] (room
 * for n_locs; exact: lp is of exact counts, see column_of); the lines
 * placed into used[] and the instances reached into reached[] (f first),
 * for the share placed.  Returns the number of estimates. */
static uint32_t estimates(const xprof_lineprof *lp, int exact, const xprof_lp_func *f,
                          const xprof_places *p, uint32_t n_nodes, estimate *est,
                          const xprof_lp_line **used, uint32_t *n_used, reach *reached,
                          uint32_t *n_reached, xprof_line_match *m) {
  uint32_t n = 0;
  reached[(*n_reached)++] = (reach){f, p->decl_line};
  for (uint32_t i = 0; i < p->n_locs; i++) {
    const xprof_line_loc *l = &p->locs[i];
    if (l->node >= n_nodes || l->node == XPROF_ENTRY || l->node == XPROF_EXIT)
      continue;
    m->located++;
    uint32_t offset, base;
    double scale;
    const xprof_lp_func *in = place(lp, f, p->decl_line, l, &offset, &base, &scale);
    if (in && scale < 0 && in != f)
      reached[(*n_reached)++] = (reach){in, base};
    if (!estimate_of(in, offset, scale, l, exact, &est[n], m))
      continue;
    if (scale < 0)
      used[(*n_used)++] = line_of(in, offset);
    n++;
  }
  return n;
}

int xprof_line_counts(const xprof_lineprof *lp, const xprof_lp_func *f, const xprof_places *p,
                      uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                      const xprof_line_prior *prior, uint64_t *edge_count,
                      uint64_t *node_count, xprof_line_match *m) {
  memset(m, 0, sizeof *m);
  if (n_nodes <= XPROF_EXIT)
    return 0;
  uint64_t *weight = xprof_calloc(n_nodes, sizeof *weight);
  unsigned char *known = xprof_calloc(n_nodes, 1);
  estimate *est = xprof_calloc((size_t)p->n_locs + 1, sizeof *est);
  const xprof_lp_line **used = xprof_calloc((size_t)p->n_locs + 1, sizeof *used);
  reach *reached = xprof_calloc((size_t)p->n_locs + 1, sizeof *reached);
  uint32_t n_used = 0, n_reached = 0;
  int rc = -1;
  if (!weight || !known || !est || !used || !reached)
    goto done;
  /* Samples fall on places, not blocks: whether a place was one block or
   * several, how busy each, and which columns had code, they cannot say. */
  int exact = !lp || !lp->from_samples;
  uint32_t n_est =
      estimates(lp, exact, f, p, n_nodes, est, used, &n_used, reached, &n_reached, m);
  /* Blocks of one place once each: the places of a block's code repeat. */
  if (n_est > 1)
    qsort(est, n_est, sizeof *est, estimate_cmp);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n_est; i++)
    if (k == 0 || estimate_cmp(&est[i], &est[k - 1]) != 0)
      est[k++] = est[i];
  n_est = k;
  if (exact) {
    drop_shared(n_nodes, edges, n_edges, est, n_est);
    drop_ran_with_other(n_nodes, edges, n_edges, est, n_est);
  }
  if (prior)
    drop_measured_places(prior->measured, est, n_est);
  for (uint32_t i = 0; i < n_est; i++) {
    if (est[i].dropped)
      continue;
    known[est[i].node] = 1;
    if (est[i].count > weight[est[i].node])
      weight[est[i].node] = est[i].count;
  }
  if (f->head) {
    weight[XPROF_ENTRY] = f->head;
    known[XPROF_ENTRY] = 1;
  }
  for (uint32_t v = XPROF_EXIT + 1; v < n_nodes; v++)
    m->estimated += known[v] && (!prior || !prior->measured[v]);
  prior_counts(prior, n_nodes, weight, known);
  m->placed = placed_mass(used, &n_used);
  m->total = reachable_mass(reached, n_reached, used, n_used, p, &m->folded);
  rc = 0;
  if (m->matched)
    rc = xprof_infer_flow(n_nodes, edges, n_edges, weight, known, edge_count, node_count) < 0
             ? -1
             : 1;
  if (rc > 0) {
    xprof_flow_connect(n_nodes, edges, n_edges, edge_count, node_count);
    even_splits(n_nodes, edges, n_edges, known, edge_count, node_count);
  }
done:
  xprof_free(weight);
  xprof_free(known);
  xprof_free(est);
  xprof_free(used);
  xprof_free(reached);
  return rc;
}
