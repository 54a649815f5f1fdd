/*
 * shapes_file.c - a profile directory's shapes, kept once per build in
 * DIR/shapes beside the counts of DIR/feedback (xprof.h says why).
 *
 * The shapes file is binary data like the feedback file, so its reader
 * and writer are binary_read.c's and binary_write.c's: what is here makes
 * the profile it holds out of another, and joins the two again.
 */
#include <stdlib.h>

#include "internal.h"

int xprof_has_shapes(const xprof_profile *p) {
  for (uint32_t i = 0; i < p->n_objfiles; i++)
    for (uint32_t j = 0; j < p->objfiles[i].n_procs; j++)
      if (p->objfiles[i].procs[j].shape)
        return 1;
  return 0;
}

static int has_shapes(const xprof_objfile *o) {
  for (uint32_t j = 0; j < o->n_procs; j++)
    if (o->procs[j].shape)
      return 1;
  return 0;
}

static int by_path(const void *a, const void *b) {
  return strcmp((*(const xprof_objfile *const *)a)->path, (*(const xprof_objfile *const *)b)->path);
}

/* Add o's shapes to q as the shapes file holds them: its procedures'
 * names, signatures and ids, and their shapes; no counts. */
static int add_stub(xprof_profile *q, const xprof_objfile *o) {
  xprof_objfile *d = xprof_add_objfile(q, o->path);
  if (!d)
    return -1;
  d->signature = o->signature;
  d->tv_sec = o->tv_sec;
  d->tv_usec = o->tv_usec;
  d->n_values_per_vp = o->n_values_per_vp;
  for (uint32_t j = 0; j < o->n_procs; j++) {
    const xprof_proc *f = &o->procs[j];
    xprof_proc *g = xprof_add_proc(q, d, f->name);
    if (!g)
      return -1;
    g->signature = f->signature;
    g->id = f->id;
    g->n_vp_sites = f->n_vp_sites;
    if (xprof_proc_set_shape(q, g, f->shape, f->shape_size) < 0)
      return -1;
  }
  return 0;
}

/* A profile of the stubs of `n` object files, in path order. */
static xprof_profile *stubs(const xprof_objfile **objs, uint32_t n) {
  xprof_profile *q = xprof_profile_new();
  if (!q)
    return NULL;
  if (n > 1)
    xprof_sort(objs, n, sizeof *objs, by_path);
  for (uint32_t i = 0; i < n; i++)
    if (add_stub(q, objs[i]) < 0) {
      xprof_profile_free(q);
      return NULL;
    }
  return q;
}

/* Object files of p by path, for lookups of each object file of another
 * profile (every training run's exit write makes them: a search per
 * object file was quadratic in a program's object files).  Returns 0, or
 * -1 when out of memory (then find_in searches). */
static int objfile_map(xprof_strmap *m, const xprof_profile *p) {
  return xprof_strmap_init(m, p->objfiles, sizeof *p->objfiles, p->n_objfiles);
}

static const xprof_objfile *find_in(const xprof_profile *p, const xprof_strmap *m, int mapped,
                                    const char *path) {
  if (!mapped)
    return xprof_find_objfile(p, path);
  uint32_t i = xprof_strmap_get(m, path);
  return i == UINT32_MAX ? NULL : &p->objfiles[i];
}

xprof_profile *xprof_shapes_of(const xprof_profile *p, const xprof_profile *known) {
  const xprof_objfile **objs = xprof_malloc(((size_t)p->n_objfiles + 1) * sizeof *objs);
  if (!objs)
    return NULL;
  xprof_strmap m;
  int mapped = known && objfile_map(&m, known) == 0;
  uint32_t n = 0;
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    const xprof_objfile *o = &p->objfiles[i];
    const xprof_objfile *k = known ? find_in(known, &m, mapped, o->path) : NULL;
    if (has_shapes(o) && !(k && k->signature == o->signature))
      objs[n++] = o;
  }
  if (mapped)
    xprof_strmap_free(&m);
  xprof_profile *q = stubs(objs, n);
  xprof_free(objs);
  return q;
}

int xprof_shapes_update(xprof_profile **shapes, const xprof_profile *update) {
  const xprof_profile *old = *shapes;
  uint32_t cap = (old ? old->n_objfiles : 0) + update->n_objfiles;
  const xprof_objfile **objs = xprof_malloc(((size_t)cap + 1) * sizeof *objs);
  if (!objs)
    return -1;
  xprof_strmap m;
  int mapped = objfile_map(&m, update) == 0;
  uint32_t n = 0;
  for (uint32_t i = 0; old && i < old->n_objfiles; i++)
    if (!find_in(update, &m, mapped, old->objfiles[i].path))
      objs[n++] = &old->objfiles[i];
  if (mapped)
    xprof_strmap_free(&m);
  for (uint32_t i = 0; i < update->n_objfiles; i++)
    objs[n++] = &update->objfiles[i];
  xprof_profile *q = stubs(objs, n);
  xprof_free(objs);
  if (!q)
    return -1;
  xprof_profile_free(*shapes);
  *shapes = q;
  return 0;
}

/* The shapes of s's procedures to o's of the same name and signature;
 * returns -1 when out of memory. */
static int attach_objfile(xprof_profile *p, xprof_objfile *o, const xprof_objfile *s) {
  xprof_strmap procs;
  int mapped = xprof_strmap_init(&procs, s->procs, sizeof *s->procs, s->n_procs) == 0;
  int rc = 0;
  for (uint32_t j = 0; j < o->n_procs && rc == 0; j++) {
    xprof_proc *f = &o->procs[j];
    if (f->shape)
      continue;
    uint32_t k = mapped ? xprof_strmap_get(&procs, f->name) : UINT32_MAX;
    const xprof_proc *g = mapped ? (k == UINT32_MAX ? NULL : &s->procs[k])
                                 : xprof_find_proc(s, f->name);
    if (g && g->signature == f->signature)
      rc = xprof_proc_set_shape(p, f, g->shape, g->shape_size);
  }
  if (mapped)
    xprof_strmap_free(&procs);
  return rc;
}

int xprof_attach_shapes(xprof_profile *p, const xprof_profile *shapes) {
  xprof_strmap m;
  int mapped = objfile_map(&m, shapes) == 0, rc = 0;
  for (uint32_t i = 0; i < p->n_objfiles && rc == 0; i++) {
    xprof_objfile *o = &p->objfiles[i];
    const xprof_objfile *s = find_in(shapes, &m, mapped, o->path);
    if (s && s->signature == o->signature)
      rc = attach_objfile(p, o, s);
  }
  if (mapped)
    xprof_strmap_free(&m);
  return rc;
}
