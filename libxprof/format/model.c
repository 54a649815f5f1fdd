/*
 * model.c - building, finding, validating and summarizing profiles.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "internal.h"

static const char *const vp_type_names[XPROF_VP_NTYPES] = {
    "VP_INT", "VP_LLONG", "VP_FLOAT", "VP_DOUBLE", "VP_PROC"};

const char *xprof_vp_type_name(xprof_vp_type t) {
  return (unsigned)t < XPROF_VP_NTYPES ? vp_type_names[t] : NULL;
}

xprof_profile *xprof_profile_new(void) {
  xprof_profile *p = xprof_calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->arena = xprof_arena_new();
  if (!p->arena) {
    xprof_free(p);
    return NULL;
  }
  return p;
}

void xprof_profile_free(xprof_profile *p) {
  if (!p)
    return;
  for (uint32_t i = 0; i < p->n_objfiles; i++)
    xprof_free(p->objfiles[i].procs);
  for (uint32_t i = 0; i < p->n_programs; i++)
    xprof_free(p->programs[i].objrefs);
  xprof_free(p->objfiles);
  xprof_free(p->programs);
  xprof_free(p->foreign);
  xprof_free(p->images);
  xprof_arena_free(p->arena);
  xprof_free(p);
}

void *xprof_alloc(xprof_profile *p, size_t size) {
  return xprof_arena_alloc(p->arena, size);
}

const char *xprof_strndup(xprof_profile *p, const char *s, size_t n) {
  char *d = xprof_arena_alloc(p->arena, n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = 0;
  }
  return d;
}

const char *xprof_strdup(xprof_profile *p, const char *s) {
  return xprof_strndup(p, s, strlen(s));
}

xprof_objfile *xprof_add_objfile(xprof_profile *p, const char *path) {
  const char *s = xprof_strdup(p, path);
  if (!s || xprof_grow((void **)&p->objfiles, &p->cap_objfiles,
                       p->n_objfiles, sizeof *p->objfiles) < 0)
    return NULL;
  xprof_objfile *o = &p->objfiles[p->n_objfiles++];
  memset(o, 0, sizeof *o);
  o->path = s;
  return o;
}

xprof_proc *xprof_add_proc(xprof_profile *p, xprof_objfile *o,
                           const char *name) {
  const char *s = xprof_strdup(p, name);
  if (!s || xprof_grow((void **)&o->procs, &o->cap_procs, o->n_procs,
                       sizeof *o->procs) < 0)
    return NULL;
  xprof_proc *f = &o->procs[o->n_procs++];
  memset(f, 0, sizeof *f);
  f->name = s;
  return f;
}

xprof_program *xprof_add_program(xprof_profile *p, const char *path) {
  const char *s = xprof_strdup(p, path);
  if (!s || xprof_grow((void **)&p->programs, &p->cap_programs,
                       p->n_programs, sizeof *p->programs) < 0)
    return NULL;
  xprof_program *g = &p->programs[p->n_programs++];
  memset(g, 0, sizeof *g);
  g->path = s;
  return g;
}

int xprof_program_add_objref(xprof_profile *p, xprof_program *g,
                             const char *objpath) {
  const char *s = xprof_strdup(p, objpath);
  if (!s || xprof_grow((void **)&g->objrefs, &g->cap_objrefs, g->n_objrefs,
                       sizeof *g->objrefs) < 0)
    return -1;
  g->objrefs[g->n_objrefs++] = s;
  return 0;
}

int xprof_proc_alloc_counters(xprof_profile *p, xprof_proc *f, uint32_t n) {
  f->counter_ids = NULL;
  f->n_counters = n;
  f->counters = NULL;
  if (n == 0)
    return 0;
  f->counters = xprof_alloc(p, (size_t)n * sizeof *f->counters);
  return f->counters ? 0 : -1;
}

int xprof_proc_set_shape(xprof_profile *p, xprof_proc *f, const unsigned char *shape,
                         uint32_t size) {
  f->shape = NULL;
  f->shape_size = 0;
  if (!shape || !size)
    return 0;
  unsigned char *b = xprof_alloc(p, size);
  if (!b)
    return -1;
  memcpy(b, shape, size);
  f->shape = b;
  f->shape_size = size;
  return 0;
}

int xprof_proc_alloc_vp(xprof_profile *p, const xprof_objfile *o,
                        xprof_proc *f, uint32_t n) {
  f->n_vp_records = n;
  f->vp = NULL;
  if (n == 0)
    return 0;
  f->vp = xprof_alloc(p, (size_t)n * sizeof *f->vp);
  if (!f->vp)
    return -1;
  for (uint32_t i = 0; i < n; i++) {
    if (o->n_values_per_vp) {
      f->vp[i].values =
          xprof_alloc(p, (size_t)o->n_values_per_vp * sizeof(xprof_vp_value));
      if (!f->vp[i].values)
        return -1;
    }
  }
  return 0;
}

/* Linear scans: lookups on hot paths (merge, index) build their own maps. */
xprof_objfile *xprof_find_objfile(const xprof_profile *p, const char *path) {
  for (uint32_t i = 0; i < p->n_objfiles; i++)
    if (strcmp(p->objfiles[i].path, path) == 0)
      return &p->objfiles[i];
  return NULL;
}

xprof_proc *xprof_find_proc(const xprof_objfile *o, const char *name) {
  for (uint32_t i = 0; i < o->n_procs; i++)
    if (strcmp(o->procs[i].name, name) == 0)
      return &o->procs[i];
  return NULL;
}

xprof_program *xprof_find_program(const xprof_profile *p, const char *path) {
  for (uint32_t i = 0; i < p->n_programs; i++)
    if (strcmp(p->programs[i].path, path) == 0)
      return &p->programs[i];
  return NULL;
}

uint64_t xprof_proc_sum(const xprof_proc *f) {
  uint64_t s = 0;
  for (uint32_t k = 0; k < f->n_counters; k++)
    s = xprof_sat_add(s, f->counters[k]);
  return s;
}

int xprof_proc_ran(const xprof_proc *f, uint32_t n_values_per_vp) {
  for (uint32_t k = 0; k < f->n_counters; k++)
    if (f->counters[k])
      return 1;
  for (uint32_t r = 0; r < f->n_vp_records; r++)
    for (uint32_t k = 0; k < n_values_per_vp; k++)
      if (f->vp[r].values[k].count)
        return 1;
  return 0;
}

uint64_t xprof_proc_counter(const xprof_proc *f, uint32_t id) {
  if (!f->counter_ids)
    return id < f->n_counters ? f->counters[id] : 0;
  uint32_t lo = 0, hi = f->n_counters;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (f->counter_ids[mid] < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < f->n_counters && f->counter_ids[lo] == id ? f->counters[lo] : 0;
}

static void stats_add(xprof_stats *s, uint64_t v) {
  if (v > s->max)
    s->max = v;
  s->sum = xprof_sat_add(s->sum, v);
}

static void stats_set(xprof_stats *dst, const xprof_stats *src, int all) {
  if (all || dst->has_max)
    dst->max = src->max, dst->has_max = 1;
  if (all || dst->has_sum)
    dst->sum = src->sum, dst->has_sum = 1;
}

/* Statistics cost a pass over the counters: only for the scopes that
 * carry them (or all, when asked), since merges call this every time. */
void xprof_update_stats(xprof_profile *p, int all) {
  int need_prog = all;
  for (uint32_t i = 0; i < p->n_programs && !need_prog; i++)
    need_prog = p->programs[i].stats.has_max || p->programs[i].stats.has_sum;
  xprof_stats *per_obj = need_prog ? xprof_calloc((size_t)p->n_objfiles + 1, sizeof *per_obj) : NULL;
  if (need_prog && !per_obj)
    return;
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    xprof_objfile *o = &p->objfiles[i];
    int need_obj = all || need_prog || o->stats.has_max || o->stats.has_sum;
    xprof_stats os = {0};
    for (uint32_t j = 0; j < o->n_procs; j++) {
      xprof_proc *f = &o->procs[j];
      if (!need_obj && !f->stats.has_max && !f->stats.has_sum)
        continue;
      xprof_stats fs = {0};
      for (uint32_t k = 0; k < f->n_counters; k++)
        stats_add(&fs, f->counters[k]);
      stats_set(&f->stats, &fs, all);
      if (fs.max > os.max)
        os.max = fs.max;
      os.sum = xprof_sat_add(os.sum, fs.sum);
    }
    if (need_obj && (all || o->stats.has_max || o->stats.has_sum))
      stats_set(&o->stats, &os, all);
    if (per_obj)
      per_obj[i] = os;
  }
  if (!need_prog)
    return;
  xprof_strmap map;
  if (xprof_strmap_init(&map, p->objfiles, sizeof *p->objfiles, p->n_objfiles) < 0) {
    xprof_free(per_obj);
    return;
  }
  for (uint32_t i = 0; i < p->n_programs; i++) {
    xprof_program *g = &p->programs[i];
    if (!all && !g->stats.has_max && !g->stats.has_sum)
      continue;
    xprof_stats gs = {0};
    for (uint32_t j = 0; j < g->n_objrefs; j++) {
      uint32_t k = xprof_strmap_get(&map, g->objrefs[j]);
      if (k == UINT32_MAX)
        continue;
      if (per_obj[k].max > gs.max)
        gs.max = per_obj[k].max;
      gs.sum = xprof_sat_add(gs.sum, per_obj[k].sum);
    }
    stats_set(&g->stats, &gs, all);
  }
  xprof_strmap_free(&map);
  xprof_free(per_obj);
}

int xprof_name_cmp(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

uint64_t xprof_max_counter(const xprof_profile *p) {
  uint64_t max = 0;
  for (uint32_t i = 0; i < p->n_objfiles; i++)
    for (uint32_t j = 0; j < p->objfiles[i].n_procs; j++) {
      const xprof_proc *f = &p->objfiles[i].procs[j];
      for (uint32_t k = 0; k < f->n_counters; k++)
        if (f->counters[k] > max)
          max = f->counters[k];
    }
  return max;
}

void xprof_known_runs(uint64_t runs, uint64_t run_max_sum, uint64_t max, uint64_t *out_runs,
                      uint64_t *out_max_sum) {
  int known = runs || run_max_sum;
  *out_runs = known ? runs : max ? 1 : 0;
  *out_max_sum = known ? run_max_sum : max;
}

/* Collect the VP_PROC values and count the distinct ones. */
uint32_t xprof_count_proc_names(const xprof_profile *p) {
  size_t n = 0, cap = 0;
  const char **names = NULL;
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    const xprof_objfile *o = &p->objfiles[i];
    for (uint32_t j = 0; j < o->n_procs; j++)
      for (uint32_t r = 0; r < o->procs[j].n_vp_records; r++) {
        const xprof_vp_record *v = &o->procs[j].vp[r];
        if (v->type != XPROF_VP_PROC)
          continue;
        for (uint32_t k = 0; k < o->n_values_per_vp; k++) {
          if (!v->values[k].proc)
            continue;
          if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            const char **nn = xprof_realloc(names, nc * sizeof *names);
            if (!nn) {
              xprof_free(names);
              return 0;
            }
            names = nn;
            cap = nc;
          }
          names[n++] = v->values[k].proc;
        }
      }
  }
  uint32_t distinct = 0;
  if (n) {
    xprof_sort(names, n, sizeof *names, xprof_name_cmp);
    distinct = 1;
    for (size_t i = 1; i < n; i++)
      if (strcmp(names[i], names[i - 1]) != 0)
        distinct++;
  }
  xprof_free(names);
  return distinct;
}

static int objfile_cmp(const void *a, const void *b) {
  return strcmp(((const xprof_objfile *)a)->path, ((const xprof_objfile *)b)->path);
}

static int program_cmp(const void *a, const void *b) {
  return strcmp(((const xprof_program *)a)->path, ((const xprof_program *)b)->path);
}

static int image_key_cmp(const void *a, const void *b) {
  const xprof_image *x = a, *y = b;
  int c = strcmp(x->path, y->path);
  return c ? c : (x->text_off > y->text_off) - (x->text_off < y->text_off);
}

void xprof_profile_sort(xprof_profile *p) {
  xprof_sort(p->images, p->n_images, sizeof *p->images, image_key_cmp);
  xprof_sort(p->objfiles, p->n_objfiles, sizeof *p->objfiles, objfile_cmp);
  xprof_sort(p->programs, p->n_programs, sizeof *p->programs, program_cmp);
  for (uint32_t i = 0; i < p->n_programs; i++)
    xprof_sort(p->programs[i].objrefs, p->programs[i].n_objrefs,
               sizeof *p->programs[i].objrefs, xprof_name_cmp);
}
