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

/* Whether two of the n names at base (stride bytes apart, each a const
 * char *) are equal: 1 with *dup the later one, 0 if all differ, -1 out
 * of memory. */
static int twice(const void *base, size_t stride, uint32_t n, const char **dup) {
  uint32_t i;
  int found = n > 1 ? xprof_find_duplicate(base, stride, n, &i) : 0;
  if (found > 0)
    *dup = *(const char *const *)((const char *)base + i * stride);
  return found;
}

static int check_name(const char *s, const char *what, const char *ctx,
                      const char *file, xprof_error *err) {
  if (!s || !*s)
    return xprof_fail(err, XPROF_ERR_INVALID, "%s: empty %s in %s", file,
                      what, ctx);
  return 0;
}

static int validate_proc(const xprof_objfile *o, const xprof_proc *f,
                         const char *file, xprof_error *err) {
  if (check_name(f->name, "procedure name", o->path, file, err))
    return -1;
  for (uint32_t k = 1; f->counter_ids && k < f->n_counters; k++)
    if (f->counter_ids[k] <= f->counter_ids[k - 1])
      return xprof_fail(err, XPROF_ERR_INVALID,
                        "%s: procedure %s in %s: counter ids not strictly "
                        "increasing (%u after %u)",
                        file, f->name, o->path, f->counter_ids[k],
                        f->counter_ids[k - 1]);
  if (f->n_vp_records && o->n_values_per_vp == 0)
    return xprof_fail(err, XPROF_ERR_INVALID,
                      "%s: procedure %s in %s has value-profile records but "
                      "the object file keeps 0 values per record",
                      file, f->name, o->path);
  for (uint32_t r = 0; r < f->n_vp_records; r++) {
    const xprof_vp_record *v = &f->vp[r];
    if ((unsigned)v->type >= XPROF_VP_NTYPES)
      return xprof_fail(err, XPROF_ERR_INVALID,
                        "%s: procedure %s: unknown value-profile type %u",
                        file, f->name, (unsigned)v->type);
    if (r && v->expr_id <= f->vp[r - 1].expr_id)
      return xprof_fail(err, XPROF_ERR_INVALID,
                        "%s: procedure %s: value-profile expression ids not "
                        "strictly increasing (%u after %u)",
                        file, f->name, v->expr_id, f->vp[r - 1].expr_id);
    for (uint32_t k = 0; k < o->n_values_per_vp; k++) {
      const xprof_vp_value *x = &v->values[k];
      if (x->count == 0 && (x->bits || x->proc))
        return xprof_fail(err, XPROF_ERR_INVALID,
                          "%s: procedure %s, expression %u: a zero count "
                          "with a value",
                          file, f->name, v->expr_id);
      if (v->type != XPROF_VP_PROC && x->proc)
        return xprof_fail(err, XPROF_ERR_INVALID,
                          "%s: procedure %s, expression %u: procedure name "
                          "in a %s record",
                          file, f->name, v->expr_id, vp_type_names[v->type]);
      if (x->proc && !*x->proc)
        return xprof_fail(err, XPROF_ERR_INVALID,
                          "%s: procedure %s, expression %u: empty callee "
                          "name (use no value for an unprofiled callee)",
                          file, f->name, v->expr_id);
    }
  }
  return 0;
}

/* Every program's pathname and list of object files: each listed once,
 * each one the profile defines; no program twice. */
static int validate_programs(const xprof_profile *p, const char *file,
                             xprof_error *err) {
  xprof_strmap objs;
  const char *dup;
  int rc = -1, t;
  if (xprof_strmap_init(&objs, p->n_objfiles ? &p->objfiles[0].path : NULL,
                        sizeof *p->objfiles, p->n_objfiles) < 0)
    return xprof_fail_nomem(err, file);
  for (uint32_t i = 0; i < p->n_programs; i++) {
    const xprof_program *g = &p->programs[i];
    if (check_name(g->path, "program pathname", "profile", file, err))
      goto out;
    if ((t = twice(g->objrefs, sizeof *g->objrefs, g->n_objrefs, &dup)) != 0) {
      if (t < 0)
        xprof_fail_nomem(err, file);
      else
        xprof_fail(err, XPROF_ERR_INVALID,
                   "%s: program %s lists object file %s twice", file, g->path, dup);
      goto out;
    }
    for (uint32_t j = 0; j < g->n_objrefs; j++)
      if (xprof_strmap_get(&objs, g->objrefs[j]) == UINT32_MAX) {
        xprof_fail(err, XPROF_ERR_INVALID,
                   "%s: program %s refers to object file %s, which the "
                   "profile does not define",
                   file, g->path, g->objrefs[j]);
        goto out;
      }
  }
  t = p->n_programs ? twice(&p->programs[0].path, sizeof *p->programs, p->n_programs, &dup) : 0;
  if (t < 0)
    xprof_fail_nomem(err, file);
  else if (t > 0)
    xprof_fail(err, XPROF_ERR_INVALID, "%s: program %s appears twice", file, dup);
  else
    rc = 0;
out:
  xprof_strmap_free(&objs);
  return rc;
}

/* Names are checked for doubles by hashing, not sorting: a profile's
 * names share long prefixes, and validation runs on every read of a
 * profile, in every training run's write. */
int xprof_validate(const xprof_profile *p, const char *file,
                   xprof_error *err) {
  const char *dup;
  int t;
  for (uint32_t i = 0; i < p->n_objfiles; i++)
    if (check_name(p->objfiles[i].path, "object file pathname", "profile",
                   file, err))
      return -1;
  t = p->n_objfiles ? twice(&p->objfiles[0].path, sizeof *p->objfiles, p->n_objfiles, &dup) : 0;
  if (t > 0)
    return xprof_fail(err, XPROF_ERR_INVALID, "%s: object file %s appears twice",
                      file, dup);
  for (uint32_t i = 0; i < p->n_objfiles && t == 0; i++) {
    const xprof_objfile *o = &p->objfiles[i];
    for (uint32_t j = 0; j < o->n_procs; j++)
      if (validate_proc(o, &o->procs[j], file, err))
        return -1;
    t = o->n_procs ? twice(&o->procs[0].name, sizeof *o->procs, o->n_procs, &dup) : 0;
    if (t > 0)
      return xprof_fail(err, XPROF_ERR_INVALID,
                        "%s: procedure %s appears twice in object file %s", file,
                        dup, o->path);
  }
  if (t < 0)
    return xprof_fail_nomem(err, file);
  if (validate_programs(p, file, err))
    return -1;
  for (uint32_t i = 0; i < p->n_images; i++) {
    const xprof_image *img = &p->images[i];
    if (xprof_validate_image(img, file, err) < 0)
      return -1;
    if (xprof_find_image(p, img->path, img->text_off) != img)
      return xprof_fail(err, XPROF_ERR_INVALID,
                        "%s: samples of %s at offset 0x%" PRIx64 " appear twice",
                        file, img->path[0] ? img->path : "the overflow bin", img->text_off);
  }
  return 0;
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
