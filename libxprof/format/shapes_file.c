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

xprof_profile *xprof_shapes_of(const xprof_profile *p, const xprof_profile *known) {
  const xprof_objfile **objs = xprof_malloc(((size_t)p->n_objfiles + 1) * sizeof *objs);
  if (!objs)
    return NULL;
  uint32_t n = 0;
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    const xprof_objfile *o = &p->objfiles[i];
    const xprof_objfile *k = known ? xprof_find_objfile(known, o->path) : NULL;
    if (has_shapes(o) && !(k && k->signature == o->signature))
      objs[n++] = o;
  }
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
  uint32_t n = 0;
  for (uint32_t i = 0; old && i < old->n_objfiles; i++)
    if (!xprof_find_objfile(update, old->objfiles[i].path))
      objs[n++] = &old->objfiles[i];
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

int xprof_attach_shapes(xprof_profile *p, const xprof_profile *shapes) {
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    xprof_objfile *o = &p->objfiles[i];
    const xprof_objfile *s = xprof_find_objfile(shapes, o->path);
    if (!s || s->signature != o->signature)
      continue;
    for (uint32_t j = 0; j < o->n_procs; j++) {
      xprof_proc *f = &o->procs[j];
      const xprof_proc *g = f->shape ? NULL : xprof_find_proc(s, f->name);
      if (g && g->signature == f->signature &&
          xprof_proc_set_shape(p, f, g->shape, g->shape_size) < 0)
        return -1;
    }
  }
  return 0;
}
