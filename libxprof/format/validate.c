/*
 * validate.c - the model's rules checked on a whole profile before it is
 * written or after it is read: unique names, counter ids in order,
 * value-profile records in order and with empty values where they count
 * nothing, programs that name existing object files, consistent samples.
 */
#include <inttypes.h>

#include "internal.h"

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
                          file, f->name, v->expr_id, xprof_vp_type_name(v->type));
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
