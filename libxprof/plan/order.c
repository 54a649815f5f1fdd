/*
 * order.c - the order of a use build's functions in the program, from the
 * profile's call graph.  Each use compilation records, per function that
 * ran, its entry count, the blocks it ran and the counts of its calls
 * (direct ones from the counts the profile gives their blocks, before
 * inlining; indirect ones from its value profiles) in a
 * section of its object (XPROF_CALLS_SECTION, excluded from the link's
 * output); at the link the driver reads them from every object and
 * computes the order with Call-Chain Clustering (C3: Ottoni and Maher,
 * CGO 2017, as lld's call-graph sort does it): functions hottest first
 * join the cluster of their most frequent caller while the cluster stays
 * small and dense, then the clusters go densest first.  Only functions in
 * a section of their own are ordered: the plugins give one to each
 * function with hot code; those that ran a little stay in .text, those
 * that never ran where the compiler and linker put them (GCC's
 * .text.unlikely), away from the ordered ones.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "xprof_plan.h"

/* ---- recording, in the plugins -------------------------------------------- */

struct xprof_calls {
  FILE *f; /* a memory stream */
  char *buf;
  size_t len;
};

xprof_calls *xprof_calls_begin(void) {
  xprof_calls *r = xprof_calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->f = open_memstream(&r->buf, &r->len);
  if (!r->f) {
    xprof_free(r);
    return NULL;
  }
  fputs(XPROF_CALLS_MAGIC "\n", r->f);
  return r;
}

/* "C COUNT NAME" for a callee named by a value profile's "NAME:OBJECT". */
static void indirect_call(xprof_calls *r, const char *value, uint64_t count) {
  const char *colon = value ? strchr(value, ':') : NULL;
  if (colon && colon > value && count && !memchr(value, '\n', (size_t)(colon - value)))
    fprintf(r->f, "C %" PRIu64 " %.*s\n", count, (int)(colon - value), value);
}

void xprof_calls_function(xprof_calls *r, const char *name, const uint64_t *node_count,
                          uint32_t n_nodes, const xprof_proc *records, uint32_t n_values) {
  if (!r || !name || !*name || strchr(name, '\n') || n_nodes <= XPROF_ENTRY)
    return;
  uint64_t blocks = 0;
  for (uint32_t k = 2; k < n_nodes; k++)
    blocks = xprof_sat_add(blocks, node_count[k]);
  fprintf(r->f, "F %" PRIu64 " %" PRIu64 " %s\n", node_count[XPROF_ENTRY], blocks, name);
  for (uint32_t i = 0; records && i < records->n_vp_records; i++)
    if (records->vp[i].type == XPROF_VP_PROC)
      for (uint32_t k = 0; k < n_values; k++)
        indirect_call(r, records->vp[i].values[k].proc, records->vp[i].values[k].count);
}

void xprof_calls_call(xprof_calls *r, const char *callee, uint64_t count) {
  if (r && count && callee && *callee && !strchr(callee, '\n'))
    fprintf(r->f, "C %" PRIu64 " %s\n", count, callee);
}

char *xprof_calls_end(xprof_calls *r) {
  if (!r)
    return NULL;
  char *a = NULL;
  if (fclose(r->f) == 0)
    a = xprof_plan_section_asm(XPROF_CALLS_SECTION, "e", r->buf, r->len);
  free(r->buf); /* open_memstream's */
  xprof_free(r);
  return a;
}

/* ---- the functions of a link ----------------------------------------------- */

typedef struct order_fn {
  char *name;
  uint64_t entry, weight, size;
  uint32_t leader;        /* the cluster's first function (union-find) */
  uint32_t next;          /* the next function of the cluster, UINT32_MAX: last */
  uint32_t last;          /* a leader's: its cluster's last function */
  uint64_t c_size, c_weight; /* a leader's: its cluster's size and weight */
  uint32_t best_caller;   /* UINT32_MAX: none */
  uint64_t best_count;
  int placeable;          /* in a section of its own in some object */
} order_fn;

typedef struct order_call {
  char *caller, *callee;
  uint64_t count;
} order_call;

typedef struct order_size {
  char *name;
  uint64_t size;
} order_size;

struct xprof_order {
  order_fn *fns;
  uint32_t n_fns, cap_fns;
  order_call *calls;
  uint32_t n_calls, cap_calls;
  order_size *sizes;
  uint32_t n_sizes, cap_sizes;
  char **own;             /* the functions with a section of their own */
  uint32_t n_own, cap_own;
  /* Every name above: a link of hundreds of objects records tens of
   * thousands of them, and a malloc and free each is most of the time
   * the order takes. */
  struct xprof_arena *names;
};

xprof_order *xprof_order_new(void) {
  xprof_order *o = xprof_calloc(1, sizeof *o);
  if (o && !(o->names = xprof_arena_new())) {
    xprof_free(o);
    o = NULL;
  }
  return o;
}

void xprof_order_free(xprof_order *o) {
  if (!o)
    return;
  xprof_arena_free(o->names);
  xprof_free(o->own);
  xprof_free(o->fns);
  xprof_free(o->calls);
  xprof_free(o->sizes);
  xprof_free(o);
}

static int by_fn_name(const void *a, const void *b) {
  return strcmp(((const order_fn *)a)->name, ((const order_fn *)b)->name);
}

/* The index of the function of that name in the sorted table, or
 * UINT32_MAX. */
static uint32_t fn_index(const xprof_order *o, const char *name) {
  order_fn key = {.name = (char *)name};
  const order_fn *f = bsearch(&key, o->fns, o->n_fns, sizeof *o->fns, by_fn_name);
  return f ? (uint32_t)(f - o->fns) : UINT32_MAX;
}

/* A copy of the n bytes at s in o's names, NUL-terminated (NULL when out
 * of memory). */
static char *copy_n(xprof_order *o, const char *s, size_t n) {
  char *c = xprof_arena_alloc(o->names, n + 1);
  if (c)
    memcpy(c, s, n); /* the arena's memory is zeroed: the NUL is there */
  return c;
}

/* The function of that name (n bytes), added: its name in o, NULL when
 * out of memory. */
static char *add_fn(xprof_order *o, const char *name, size_t n, uint64_t entry, uint64_t weight) {
  if (xprof_grow((void **)&o->fns, &o->cap_fns, o->n_fns, sizeof *o->fns) < 0)
    return NULL;
  order_fn *f = &o->fns[o->n_fns];
  memset(f, 0, sizeof *f);
  f->name = copy_n(o, name, n);
  f->entry = entry;
  f->weight = weight;
  o->n_fns += f->name != NULL;
  return f->name;
}

/* A call from caller (a name in o) to callee (n bytes). */
static int add_call(xprof_order *o, char *caller, const char *callee, size_t n, uint64_t count) {
  if (xprof_grow((void **)&o->calls, &o->cap_calls, o->n_calls, sizeof *o->calls) < 0)
    return -1;
  order_call *c = &o->calls[o->n_calls];
  c->caller = caller;
  c->callee = copy_n(o, callee, n);
  c->count = count;
  o->n_calls += c->callee != NULL;
  return c->callee ? 0 : -1;
}

/* One line of a calls section: "F ENTRY BLOCKS NAME" or "C COUNT NAME";
 * *caller is the function of the F line before (NULL: none yet).
 * Returns 0, or -1 when the line is not one of them (or memory ran out). */
static int add_line(xprof_order *o, const char *line, size_t n, char **caller) {
  char *end;
  if (n > 2 && line[0] == 'F' && line[1] == ' ') {
    uint64_t entry = strtoull(line + 2, &end, 10);
    if (*end != ' ')
      return -1;
    uint64_t weight = strtoull(end + 1, &end, 10);
    if (*end != ' ' || end + 1 >= line + n)
      return -1;
    *caller = add_fn(o, end + 1, (size_t)(line + n - end - 1), entry, weight);
    return *caller ? 0 : -1;
  }
  if (n > 2 && line[0] == 'C' && line[1] == ' ' && *caller) {
    uint64_t count = strtoull(line + 2, &end, 10);
    if (*end != ' ' || end + 1 >= line + n)
      return -1;
    return add_call(o, *caller, end + 1, (size_t)(line + n - end - 1), count);
  }
  return -1;
}

int xprof_order_add(xprof_order *o, const char *text, size_t len, const char *name,
                    xprof_error *err) {
  const char *p = text, *end = text + len;
  size_t magic = strlen(XPROF_CALLS_MAGIC);
  char *caller = NULL;
  int rc = 0;
  /* A link puts the sections of several objects end to end (ld -r). */
  while (p < end && rc == 0) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (n == 0 || (n == magic && memcmp(p, XPROF_CALLS_MAGIC, magic) == 0)) {
      caller = NULL;
    } else if (add_line(o, p, n, &caller) < 0) {
      rc = xprof_fail(err, XPROF_ERR_FORMAT, "%s: section %s: not a calls record: %.*s", name,
                      XPROF_CALLS_SECTION, (int)(n > 60 ? 60 : n), p);
    }
    p += n + 1;
  }
  return rc;
}

int xprof_order_size(xprof_order *o, const char *name, uint64_t size) {
  if (xprof_grow((void **)&o->sizes, &o->cap_sizes, o->n_sizes, sizeof *o->sizes) < 0)
    return -1;
  o->sizes[o->n_sizes].name = copy_n(o, name, strlen(name));
  o->sizes[o->n_sizes].size = size;
  return o->sizes[o->n_sizes].name ? (int)(o->n_sizes++, 0) : -1;
}

/* The sections a function's code is in, as GCC and clang name them with
 * -ffunction-sections (those of code that never ran, .text.unlikely.*,
 * are left out: they stay away from the ordered code).  ".text." last:
 * the others begin with it. */
static const char *const function_sections[] = {".text.hot.", ".text.startup.", ".text."};

int xprof_order_section(xprof_order *o, const char *section) {
  if (strncmp(section, ".text.unlikely.", 15) == 0 || strncmp(section, ".text.exit.", 11) == 0)
    return 0;
  for (size_t k = 0; k < sizeof function_sections / sizeof *function_sections; k++) {
    size_t n = strlen(function_sections[k]);
    if (strncmp(section, function_sections[k], n) != 0 || !section[n])
      continue;
    if (xprof_grow((void **)&o->own, &o->cap_own, o->n_own, sizeof *o->own) < 0)
      return -1;
    o->own[o->n_own] = copy_n(o, section + n, strlen(section + n));
    return o->own[o->n_own] ? (int)(o->n_own++, 0) : -1;
  }
  return 0;
}

/* ---- the order (C3) --------------------------------------------------------- */

/* lld's limits: a cluster grows to a megabyte at most, and a merge must
 * not make it less than an eighth as dense as the caller's cluster was. */
enum { MAX_CLUSTER = 1 << 20, MAX_DENSITY_DROP = 8 };

/* One function per name (a comdat function is recorded by each object
 * that has a copy, the same each time: the first stands), with the size
 * the objects' symbols give it (the largest, 0 when none) and whether
 * some object has it in a section of its own. */
static void unique_functions(xprof_order *o) {
  qsort(o->fns, o->n_fns, sizeof *o->fns, by_fn_name);
  uint32_t n = 0;
  for (uint32_t i = 0; i < o->n_fns; i++) {
    if (n && strcmp(o->fns[n - 1].name, o->fns[i].name) == 0)
      continue;
    o->fns[n++] = o->fns[i];
  }
  o->n_fns = n;
  for (uint32_t i = 0; i < o->n_sizes; i++) {
    uint32_t k = fn_index(o, o->sizes[i].name);
    if (k != UINT32_MAX && o->sizes[i].size > o->fns[k].size)
      o->fns[k].size = o->sizes[i].size;
  }
  for (uint32_t i = 0; i < o->n_own; i++) {
    uint32_t k = fn_index(o, o->own[i]);
    if (k != UINT32_MAX)
      o->fns[k].placeable = 1;
  }
}

typedef struct arc {
  uint32_t to, from;
  uint64_t count;
} arc;

static int by_callee_caller(const void *a, const void *b) {
  const arc *x = a, *y = b;
  if (x->to != y->to)
    return x->to < y->to ? -1 : 1;
  return x->from < y->from ? -1 : x->from > y->from;
}

/* Each function's most frequent caller other than itself (the calls
 * summed by caller and callee; the first caller by name of equal ones).
 * 0, or -1 when out of memory. */
static int best_callers(xprof_order *o) {
  for (uint32_t i = 0; i < o->n_fns; i++)
    o->fns[i].best_caller = UINT32_MAX;
  arc *arcs = xprof_calloc((size_t)o->n_calls + 1, sizeof *arcs);
  if (!arcs)
    return -1;
  uint32_t n = 0;
  for (uint32_t c = 0; c < o->n_calls; c++) {
    arc a = {fn_index(o, o->calls[c].callee), fn_index(o, o->calls[c].caller), o->calls[c].count};
    if (a.to != UINT32_MAX && a.from != UINT32_MAX && a.to != a.from)
      arcs[n++] = a;
  }
  qsort(arcs, n, sizeof *arcs, by_callee_caller);
  for (uint32_t i = 0; i < n;) {
    uint32_t j = i;
    uint64_t sum = 0;
    for (; j < n && arcs[j].to == arcs[i].to && arcs[j].from == arcs[i].from; j++)
      sum = xprof_sat_add(sum, arcs[j].count);
    order_fn *f = &o->fns[arcs[i].to];
    if (sum > f->best_count) {
      f->best_count = sum;
      f->best_caller = arcs[i].from;
    }
    i = j;
  }
  xprof_free(arcs);
  return 0;
}

static uint32_t leader_of(order_fn *fns, uint32_t i) {
  while (fns[i].leader != i) {
    fns[i].leader = fns[fns[i].leader].leader;
    i = fns[i].leader;
  }
  return i;
}

static double density(const order_fn *l) {
  return l->c_size ? (double)l->c_weight / (double)l->c_size : 0;
}

/* Densest first; equal ones by name, so that the order is the same from
 * run to run (qsort_r's context: the functions). */
static int by_density(const void *a, const void *b, void *fns) {
  const order_fn *all = fns;
  const order_fn *x = &all[*(const uint32_t *)a], *y = &all[*(const uint32_t *)b];
  double dx = density(x), dy = density(y);
  if (dx != dy)
    return dx > dy ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* Append cluster c to cluster p when the call between them is a large
 * part of c's entries and the merged cluster stays small and dense. */
static void maybe_merge(order_fn *fns, uint32_t i) {
  order_fn *f = &fns[i];
  if (f->best_caller == UINT32_MAX || f->best_count * 10 <= f->entry)
    return;
  uint32_t p = leader_of(fns, f->best_caller), c = leader_of(fns, i);
  if (p == c || fns[p].c_size == 0 || fns[p].c_size + fns[c].c_size > MAX_CLUSTER)
    return;
  double merged = (double)(fns[p].c_weight + fns[c].c_weight) /
                  (double)(fns[p].c_size + fns[c].c_size);
  if (merged * MAX_DENSITY_DROP < density(&fns[p]))
    return;
  fns[fns[p].last].next = c;
  fns[p].last = fns[c].last;
  fns[p].c_size += fns[c].c_size;
  fns[p].c_weight = xprof_sat_add(fns[p].c_weight, fns[c].c_weight);
  fns[c].leader = p;
}

int xprof_order_compute(xprof_order *o, const char ***names, uint32_t *n_names) {
  *names = NULL;
  *n_names = 0;
  unique_functions(o);
  if (best_callers(o) < 0)
    return -1;
  uint32_t *idx = xprof_calloc((size_t)o->n_fns + 1, sizeof *idx), n = 0;
  const char **out = xprof_calloc((size_t)o->n_fns + 1, sizeof *out);
  if (!idx || !out) {
    xprof_free(idx);
    xprof_free(out);
    return -1;
  }
  /* Only functions that ran and are in the program (a symbol of their
   * own: not inlined everywhere) in a section of their own (the plugins
   * give one to each function with hot code) are ordered: a linker moves
   * whole sections, and lld would move all of a shared .text for one of
   * its functions. */
  for (uint32_t i = 0; i < o->n_fns; i++) {
    order_fn *f = &o->fns[i];
    f->leader = f->last = i;
    f->next = UINT32_MAX;
    f->c_size = f->weight && f->size && f->placeable ? f->size : 0;
    f->c_weight = f->weight;
    if (f->c_size)
      idx[n++] = i;
  }
  qsort_r(idx, n, sizeof *idx, by_density, o->fns);
  for (uint32_t k = 0; k < n; k++)
    maybe_merge(o->fns, idx[k]);
  /* The clusters that remain, densest first, each in its own order. */
  uint32_t n_leaders = 0;
  for (uint32_t k = 0; k < n; k++)
    if (o->fns[idx[k]].leader == idx[k])
      idx[n_leaders++] = idx[k];
  qsort_r(idx, n_leaders, sizeof *idx, by_density, o->fns);
  uint32_t m = 0;
  for (uint32_t k = 0; k < n_leaders; k++)
    for (uint32_t i = idx[k]; i != UINT32_MAX; i = o->fns[i].next)
      out[m++] = o->fns[i].name;
  xprof_free(idx);
  *names = out;
  *n_names = m;
  return 0;
}

int xprof_order_write(const char *const *names, uint32_t n, xprof_linker linker, FILE *f) {
  if (linker == XPROF_LINKER_BFD)
    fputs("/* The functions that ran in training, in the order of their calls\n"
          "   (xprof's -xprofile_order): a section before .text. */\n"
          "SECTIONS\n{\n  .text.xprof :\n  {\n",
          f);
  for (uint32_t i = 0; i < n; i++) {
    switch (linker) {
    case XPROF_LINKER_LLD:
      fprintf(f, "%s\n", names[i]);
      break;
    case XPROF_LINKER_GOLD:
      for (size_t k = 0; k < sizeof function_sections / sizeof *function_sections; k++)
        fprintf(f, "%s%s\n", function_sections[k], names[i]);
      break;
    case XPROF_LINKER_BFD:
      fprintf(f, "    *(%s%s %s%s %s%s)\n", function_sections[0], names[i],
              function_sections[1], names[i], function_sections[2], names[i]);
      break;
    }
  }
  if (linker == XPROF_LINKER_BFD)
    fputs("  }\n}\nINSERT BEFORE .text;\n", f);
  return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
