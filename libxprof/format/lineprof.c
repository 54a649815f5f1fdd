/*
 * lineprof.c - line-level profiles: a profile by source line, as the
 * compilers' sample-based PGO takes one, built up function by function
 * and put in order (views/ makes them from exact counts and from time
 * samples; sample_formats.c reads and writes the compilers' formats).
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof.h"

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

/* Add line l to f's lines (column: to its columns) as it is, its least
 * count with it; 0 or -1. */
static int add_line(xprof_lp_func *f, xprof_lp_line l, int column) {
  xprof_lp_line **v = column ? &f->columns : &f->lines;
  uint32_t *n = column ? &f->n_columns : &f->n_lines;
  if (xprof_grow((void **)v, column ? &f->cap_columns : &f->cap_lines, *n, sizeof **v) < 0)
    return -1;
  (*v)[(*n)++] = l;
  return 0;
}

int xprof_lineprof_add(xprof_lp_func *f, uint32_t offset, uint32_t discr, uint64_t count) {
  return add_line(f, (xprof_lp_line){offset, discr, count, 1, count, 0}, 0);
}

int xprof_lineprof_column(xprof_lp_func *f, uint32_t offset, uint32_t column, uint64_t count) {
  return add_line(f, (xprof_lp_line){offset, column, count, 1, count, 0}, 1);
}

int xprof_lineprof_block(xprof_lp_func *f, uint32_t offset, uint32_t column, uint64_t count,
                         uint32_t block) {
  return add_line(f, (xprof_lp_line){offset, column, count, 1, count, block}, column != 0);
}

/* Add target t (its name copied); 0 or -1. */
static int add_target(xprof_lp_func *f, xprof_lp_target t) {
  char *copy = t.name ? xprof_format("%s", t.name) : NULL;
  if ((t.name && !copy) ||
      xprof_grow((void **)&f->targets, &f->cap_targets, f->n_targets, sizeof *f->targets) < 0) {
    xprof_free(copy);
    return -1;
  }
  t.name = copy;
  f->targets[f->n_targets++] = t;
  return 0;
}

int xprof_lineprof_target(xprof_lp_func *f, uint32_t offset, uint32_t discr, const char *name,
                          uint64_t count) {
  return add_target(f, (xprof_lp_target){offset, discr, (char *)name, count, XPROF_SITE_CALL, 0});
}

int xprof_lineprof_value(xprof_lp_func *f, uint32_t offset, uint32_t discr, uint32_t kind,
                         uint64_t value, uint64_t count) {
  return add_target(f, (xprof_lp_target){offset, discr, NULL, count, kind, value});
}

/* ---- building one ------------------------------------------------------------ */

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

xprof_lp_func *xprof_lineprof_inlined(xprof_lp_func *f, uint32_t offset, uint32_t discr,
                                      const char *name, const char *file, uint32_t decl_line) {
  for (uint32_t i = 0; i < f->n_calls; i++)
    if (f->calls[i].offset == offset && f->calls[i].discr == discr &&
        strcmp(f->calls[i].callee->name, name) == 0)
      return f->calls[i].callee;
  xprof_lp_func *c = xprof_malloc(sizeof *c);
  if (!c || init_func(c, name, file, decl_line) < 0 ||
      xprof_grow((void **)&f->calls, &f->cap_calls, f->n_calls, sizeof *f->calls) < 0) {
    if (c)
      xprof_free(c->name), xprof_free(c->file);
    xprof_free(c);
    return NULL;
  }
  f->calls[f->n_calls++] = (xprof_lp_call){offset, discr, c};
  return c;
}

/* ---- putting it in order -------------------------------------------------- */

static int line_cmp(const void *a, const void *b) {
  const xprof_lp_line *x = a, *y = b;
  if (x->offset != y->offset)
    return x->offset < y->offset ? -1 : 1;
  return x->discr < y->discr ? -1 : x->discr > y->discr;
}

static int target_cmp(const void *a, const void *b) {
  const xprof_lp_target *x = a, *y = b;
  if (x->offset != y->offset)
    return x->offset < y->offset ? -1 : 1;
  if (x->discr != y->discr)
    return x->discr < y->discr ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  if (x->name && y->name)
    return strcmp(x->name, y->name);
  return x->value < y->value ? -1 : x->value > y->value;
}

static void func_free(xprof_lp_func *f) {
  xprof_free(f->name);
  xprof_free(f->file);
  xprof_free(f->lines);
  xprof_free(f->columns);
  for (uint32_t i = 0; i < f->n_targets; i++)
    xprof_free(f->targets[i].name);
  xprof_free(f->targets);
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

/* Is there a line of f at offset.discr?  (f's lines sorted.) */
static int has_line(const xprof_lp_func *f, uint32_t offset, uint32_t discr) {
  xprof_lp_line key = {offset, discr, 0, 0, 0, 0};
  return f->n_lines && bsearch(&key, f->lines, f->n_lines, sizeof *f->lines, line_cmp) != NULL;
}

/* Sort f's targets and add up repeats (each is a call site's, or a
 * copy's: they add up whether the lines do or not); those on no line of
 * f go (f's lines settled). */
static void settle_targets(xprof_lp_func *f) {
  if (f->n_targets > 1)
    xprof_sort(f->targets, f->n_targets, sizeof *f->targets, target_cmp);
  uint32_t k = 0;
  for (uint32_t i = 0; i < f->n_targets; i++) {
    xprof_lp_target *t = &f->targets[i], *prev = k ? &f->targets[k - 1] : NULL;
    if (prev && target_cmp(prev, t) == 0) {
      prev->count = xprof_sat_add(prev->count, t->count);
      xprof_free(t->name);
    } else if (!has_line(f, t->offset, t->discr)) {
      xprof_free(t->name);
    } else {
      f->targets[k++] = *t;
    }
  }
  f->n_targets = k;
}

/* Of two entries for one line (two blocks), the block of the busier;
 * of two as busy, the one numbered first, so that a line's block does not
 * depend on the order they came in. */
static uint32_t busier_block(const xprof_lp_line *a, const xprof_lp_line *b) {
  if (a->count != b->count)
    return a->count > b->count ? a->block : b->block;
  if (!a->block || !b->block)
    return a->block ? a->block : b->block;
  return a->block < b->block ? a->block : b->block;
}

/* Sort the n lines (or columns) of v and merge repeats: a line given
 * twice (two blocks) keeps its larger count, its block and the smaller
 * least, or with `add` (two copies) the sums and the copy's blocks (the
 * busiest block where both copies say the same one); a column goes
 * when `of` (its function, lines settled) has no line there.  Returns
 * how many are left. */
static uint32_t settle_lines(xprof_lp_line *v, uint32_t n, int add, const xprof_lp_func *of) {
  if (n > 1)
    xprof_sort(v, n, sizeof *v, line_cmp);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    xprof_lp_line *l = k ? &v[k - 1] : NULL;
    if (l && line_cmp(l, &v[i]) == 0 && add) {
      l->count = xprof_sat_add(l->count, v[i].count);
      l->least = xprof_sat_add(l->least, v[i].least);
      l->blocks = l->blocks > v[i].blocks ? l->blocks : v[i].blocks;
      l->block = l->block == v[i].block ? l->block : 0;
    } else if (l && line_cmp(l, &v[i]) == 0) {
      l->block = busier_block(l, &v[i]);
      l->count = l->count > v[i].count ? l->count : v[i].count;
      l->least = l->least < v[i].least ? l->least : v[i].least;
      l->blocks = l->blocks + v[i].blocks > l->blocks ? l->blocks + v[i].blocks : UINT32_MAX;
    } else if (!of || has_line(of, v[i].offset, 0))
      v[k++] = v[i];
  }
  return k;
}

/* A line without columns has every column at its count (none are
 * written then: xprof_lineprof_write_llvm).  Where `from` has a line by
 * column that `to` has without, give `to` the same columns at its line's
 * count (its entries' sum, as the fold adds them), so that two copies'
 * columns add up as their lines do.  0 or -1. */
static int match_columns(xprof_lp_func *to, const xprof_lp_func *from) {
  uint32_t had = to->n_columns;
  for (uint32_t i = 0; i < from->n_columns; i++) {
    const xprof_lp_line *c = &from->columns[i];
    uint64_t count = 0, least = 0;
    uint32_t blocks = 0, block = 0;
    int line = 0, skip = 0;
    for (uint32_t k = 0; k < had && !skip; k++) /* to has that line by column */
      skip = to->columns[k].offset == c->offset;
    for (uint32_t k = had; k < to->n_columns && !skip; k++) /* given already */
      skip = to->columns[k].offset == c->offset && to->columns[k].discr == c->discr;
    for (uint32_t k = 0; k < to->n_lines && !skip; k++)
      if (to->lines[k].offset == c->offset && !to->lines[k].discr) {
        count = xprof_sat_add(count, to->lines[k].count);
        least = xprof_sat_add(least, to->lines[k].least);
        blocks = blocks > to->lines[k].blocks ? blocks : to->lines[k].blocks;
        block = line ? 0 : to->lines[k].block;
        line = 1;
      }
    if (!skip && line &&
        add_line(to, (xprof_lp_line){c->offset, c->discr, count, blocks, least, block}, 1) < 0)
      return -1;
  }
  return 0;
}

/* Add f's lines and calls into `into`'s (f is left empty); 0 or -1. */
static int fold(xprof_lp_func *into, xprof_lp_func *f) {
  if (match_columns(into, f) < 0 || match_columns(f, into) < 0)
    return -1;
  for (uint32_t i = 0; i < f->n_lines; i++)
    if (add_line(into, f->lines[i], 0) < 0)
      return -1;
  for (uint32_t i = 0; i < f->n_columns; i++)
    if (add_line(into, f->columns[i], 1) < 0)
      return -1;
  for (uint32_t i = 0; i < f->n_calls; i++) {
    if (xprof_grow((void **)&into->calls, &into->cap_calls, into->n_calls, sizeof *into->calls) <
        0)
      return -1;
    into->calls[into->n_calls++] = f->calls[i];
  }
  f->n_calls = 0;
  for (; f->n_targets; f->n_targets--) {
    if (xprof_grow((void **)&into->targets, &into->cap_targets, into->n_targets,
                   sizeof *into->targets) < 0)
      return -1;
    into->targets[into->n_targets++] = f->targets[f->n_targets - 1];
  }
  into->head = xprof_sat_add(into->head, f->head);
  return settle(into, 1);
}

/* Sort f's lines and calls and merge repeats, within its calls too: a
 * line given twice keeps its larger count (two blocks of one line: the
 * line ran as often as the busier), or with `add`, the sum (one
 * function's lines from two copies); calls of one callee at one place
 * add up.  The totals follow.  0, or -1 when out of memory. */
static int settle(xprof_lp_func *f, int add) {
  f->n_lines = settle_lines(f->lines, f->n_lines, add, NULL);
  f->n_columns = settle_lines(f->columns, f->n_columns, add, f);
  settle_targets(f);
  if (f->n_calls > 1)
    xprof_sort(f->calls, f->n_calls, sizeof *f->calls, call_cmp);
  uint32_t k = 0;
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

/* Path components back from the end of p[0..*end), one at a time:
 * the component before *end into *at, its length returned (0: none left,
 * or a "." or ".." that says nothing of the file's place). */
static size_t prev_component(const char *p, size_t *end, const char **at) {
  size_t e = *end;
  while (e > 0 && p[e - 1] == '/')
    e--;
  size_t b = e;
  while (b > 0 && p[b - 1] != '/')
    b--;
  *end = b;
  *at = p + b;
  size_t n = e - b;
  return n == 0 || (n == 1 && p[b] == '.') || (n == 2 && p[b] == '.' && p[b + 1] == '.') ? 0 : n;
}

int xprof_same_source(const char *a, const char *b) {
  if (!a || !b)
    return 1;
  size_t ea = strlen(a), eb = strlen(b);
  int compared = 0;
  for (;;) {
    const char *ca, *cb;
    size_t na = prev_component(a, &ea, &ca), nb = prev_component(b, &eb, &cb);
    if (!na || !nb)
      return compared;
    if (na != nb || memcmp(ca, cb, na) != 0)
      return 0;
    compared = 1;
  }
}

/* The same function's copies: one name, one declaration. */
static int same_place(const xprof_lp_func *a, const xprof_lp_func *b) {
  return a->decl_line == b->decl_line && xprof_same_source(a->file, b->file);
}

/* Are a and b different functions of one name, each known by its file
 * (static functions of different sources)? */
static int apart(const xprof_lp_func *a, const xprof_lp_func *b) {
  return a->file && b->file && !xprof_same_source(a->file, b->file);
}

/* The note on n functions dropped for sharing a name (e.g. `name`) with
 * a busier one declared elsewhere, `why` they could not stay; 0 or -1. */
static int note_clashes(xprof_lineprof *lp, uint32_t n, const char *name, const char *why) {
  if (!n)
    return 0;
  return xprof_lineprof_note(
      lp, xprof_format("%u function%s a name with a busier one declared elsewhere (same-named "
                       "static functions; e.g. %s): %s, the busiest of each name is kept",
                       n, n == 1 ? " shares" : "s share", name, why));
}

/* Merge f into the functions of its name kept so far, funcs[from..*k):
 * a copy of one of them is folded in, a function of another source
 * stays apart, one that cannot be told from a busier one is dropped
 * (*clashes counts it).  0 or -1. */
static int keep_or_fold(xprof_lineprof *lp, uint32_t from, uint32_t *k, xprof_lp_func *f,
                        uint32_t *clashes) {
  for (uint32_t j = from; j < *k; j++) {
    xprof_lp_func *g = &lp->funcs[j];
    if (apart(g, f))
      continue;
    if (!same_place(g, f)) {
      (*clashes)++;
    } else {
      if (!(g->comdat && f->comdat) && fold(g, f) < 0)
        return -1;
      g->comdat |= f->comdat;
      if (g->source_hash != f->source_hash) /* compiled from two versions */
        g->source_hash = 0;
      /* A copy of unknown source takes on its source, once known, so
       * that a function of another source stays apart from both. */
      if (!g->file) {
        g->file = f->file;
        f->file = NULL;
      }
    }
    func_free(f);
    return 0;
  }
  lp->funcs[(*k)++] = *f;
  return 0;
}

int xprof_lineprof_finish(xprof_lineprof *lp) {
  for (uint32_t i = 0; i < lp->n_funcs; i++)
    if (settle(&lp->funcs[i], lp->from_samples) < 0)
      return -1;
  if (lp->n_funcs > 1)
    xprof_sort(lp->funcs, lp->n_funcs, sizeof *lp->funcs, func_cmp);
  uint32_t k = 0, from = 0, clashes = 0;
  const char *clash = NULL;
  for (uint32_t i = 0; i < lp->n_funcs; i++) {
    xprof_lp_func *f = &lp->funcs[i];
    if (!k || strcmp(lp->funcs[from].name, f->name) != 0)
      from = k;
    uint32_t before = clashes;
    if (keep_or_fold(lp, from, &k, f, &clashes) < 0)
      return -1;
    if (clashes > before)
      clash = lp->funcs[from].name;
  }
  lp->n_funcs = k;
  /* Folding kept the order by name, but a fold can make a function
   * busier than one of its name before it. */
  if (lp->n_funcs > 1)
    xprof_sort(lp->funcs, lp->n_funcs, sizeof *lp->funcs, func_cmp);
  return note_clashes(lp, clashes, clash, "where their sources are unknown");
}

int xprof_lineprof_unique(xprof_lineprof *lp) {
  uint32_t k = 0, dropped = 0;
  const char *clash = NULL;
  for (uint32_t i = 0; i < lp->n_funcs; i++) {
    if (k && strcmp(lp->funcs[k - 1].name, lp->funcs[i].name) == 0) {
      dropped++;
      clash = lp->funcs[k - 1].name;
      func_free(&lp->funcs[i]);
    } else {
      lp->funcs[k++] = lp->funcs[i];
    }
  }
  lp->n_funcs = k;
  return note_clashes(lp, dropped, clash, "the compilers' sample profiles name functions only");
}

void xprof_lineprof_keep(xprof_lineprof *lp, const unsigned char *keep) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < lp->n_funcs; i++) {
    if (keep[i])
      lp->funcs[k++] = lp->funcs[i];
    else
      func_free(&lp->funcs[i]);
  }
  lp->n_funcs = k;
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

/* Give f's counts, and those of the instances inlined into it, to take. */
static void func_counts(const xprof_lp_func *f, xprof_summary_acc *a,
                        void (*take)(xprof_summary_acc *, uint64_t)) {
  take(a, f->head);
  for (uint32_t i = 0; i < f->n_lines; i++)
    take(a, f->lines[i].count);
  for (uint32_t i = 0; i < f->n_calls; i++)
    func_counts(f->calls[i].callee, a, take);
}

/* Every count of the line profile `src` (xprof_count_walk). */
static void lineprof_counts(const void *src, xprof_summary_acc *a,
                            void (*take)(xprof_summary_acc *, uint64_t)) {
  const xprof_lineprof *lp = src;
  for (uint32_t i = 0; i < lp->n_funcs; i++)
    func_counts(&lp->funcs[i], a, take);
}

void xprof_lineprof_summary(const xprof_lineprof *lp, xprof_summary *s) {
  xprof_summary_of(lineprof_counts, lp, s);
  s->n_procs = lp->n_funcs;
}

const xprof_lp_func *xprof_lineprof_find(const xprof_lineprof *lp, const char *name,
                                         const char *file) {
  uint32_t a = 0, b = lp->n_funcs;
  while (a < b) { /* the first of that name */
    uint32_t mid = a + (b - a) / 2;
    if (strcmp(lp->funcs[mid].name, name) < 0)
      a = mid + 1;
    else
      b = mid;
  }
  for (; a < lp->n_funcs && strcmp(lp->funcs[a].name, name) == 0; a++)
    if (xprof_same_source(lp->funcs[a].file, file))
      return &lp->funcs[a];
  return NULL;
}

/* xprof_lineprof_map_files for f and what is inlined into it. */
static void map_func_files(xprof_lp_func *f, char *(*map)(void *, const char *), void *ctx) {
  char *to = f->file ? map(ctx, f->file) : NULL;
  if (to) {
    xprof_free(f->file);
    f->file = to;
  }
  for (uint32_t i = 0; i < f->n_calls; i++)
    map_func_files(f->calls[i].callee, map, ctx);
}

void xprof_lineprof_map_files(xprof_lineprof *lp, char *(*map)(void *ctx, const char *file),
                              void *ctx) {
  for (uint32_t i = 0; i < lp->n_funcs; i++)
    map_func_files(&lp->funcs[i], map, ctx);
}

/* A copy of f and everything inlined into it; NULL when out of memory. */
static xprof_lp_func *copy_func(const xprof_lp_func *f) {
  xprof_lp_func *c = xprof_malloc(sizeof *c);
  if (!c || init_func(c, f->name, f->file, f->decl_line) < 0) {
    xprof_free(c);
    return NULL;
  }
  c->head = f->head;
  c->total = f->total;
  c->source_hash = f->source_hash;
  int ok = 1;
  for (uint32_t i = 0; ok && i < f->n_lines; i++)
    ok = add_line(c, f->lines[i], 0) == 0;
  for (uint32_t i = 0; ok && i < f->n_columns; i++)
    ok = add_line(c, f->columns[i], 1) == 0;
  for (uint32_t i = 0; ok && i < f->n_targets; i++)
    ok = add_target(c, f->targets[i]) == 0;
  for (uint32_t i = 0; ok && i < f->n_calls; i++) {
    xprof_lp_func *callee = copy_func(f->calls[i].callee);
    ok = callee && xprof_grow((void **)&c->calls, &c->cap_calls, c->n_calls,
                              sizeof *c->calls) == 0;
    if (ok)
      c->calls[c->n_calls++] = (xprof_lp_call){f->calls[i].offset, f->calls[i].discr, callee};
    else if (callee)
      func_free(callee), xprof_free(callee);
  }
  if (!ok) {
    func_free(c);
    xprof_free(c);
    return NULL;
  }
  return c;
}

/* Into `extra`, a copy of each instance inlined anywhere in f (with
 * `all` unset: of a function that has no entry of its own in lp); 0 or
 * -1. */
static int collect_inlined(const xprof_lineprof *lp, const xprof_lp_func *f, int all,
                           xprof_lineprof *extra) {
  for (uint32_t i = 0; i < f->n_calls; i++) {
    const xprof_lp_func *in = f->calls[i].callee;
    if (all || !xprof_lineprof_find(lp, in->name, in->file)) {
      xprof_lp_func *copy = copy_func(in);
      xprof_lp_func *top =
          copy ? xprof_lineprof_func(extra, in->name, in->file, in->decl_line) : NULL;
      int rc = top ? fold(top, copy) : -1;
      if (copy)
        func_free(copy), xprof_free(copy);
      if (rc < 0)
        return -1;
    }
    if (collect_inlined(lp, in, all, extra) < 0)
      return -1;
  }
  return 0;
}

int xprof_lineprof_fold_inlined(xprof_lineprof *lp, int all) {
  xprof_lineprof extra;
  memset(&extra, 0, sizeof extra);
  int rc = 0;
  for (uint32_t i = 0; rc == 0 && i < lp->n_funcs; i++)
    rc = collect_inlined(lp, &lp->funcs[i], all, &extra);
  for (uint32_t i = 0; i < extra.n_funcs; i++) {
    if (rc == 0 &&
        xprof_grow((void **)&lp->funcs, &lp->cap_funcs, lp->n_funcs, sizeof *lp->funcs) == 0)
      lp->funcs[lp->n_funcs++] = extra.funcs[i];
    else {
      func_free(&extra.funcs[i]);
      rc = -1;
    }
  }
  xprof_free(extra.funcs);
  return rc < 0 ? -1 : xprof_lineprof_finish(lp);
}
