/*
 * merge.c - combine two profiles.
 *
 * Rules (docs/xprof_merge.1 explains them for users):
 *  - An object file is identified by its pathname.  Two records of it are
 *    the same build when signature and n_values_per_vp agree; their
 *    procedures merge by name.  Otherwise it was rebuilt, and the older
 *    data (by tv_sec, tv_usec; on a tie the incoming data counts as newer)
 *    is dropped at the scope SUN_PROFDATA_REPLACE names: the object file
 *    alone (objfile), every object file of the programs that contain it
 *    (program), or the whole older side (all).
 *  - Procedures of one build with the same name add their counters by
 *    counter id, saturating at UINT64_MAX; a signature clash inside one
 *    build keeps the existing procedure.
 *  - Value-profile records merge by expression id: equal values add their
 *    counts, then the n_values_per_vp largest counts are kept (ties in
 *    order of first appearance, existing data first).  When the union
 *    holds no more than n_values_per_vp distinct values the result is
 *    exact.  Otherwise an indirect call's record adds the dropped counts
 *    to its empty value (callees not named), so that its counts still sum
 *    to the calls made (xprof_vp_keep_largest); other records lose them.
 *    Either way a kept value may miss counts that the other side had
 *    dropped earlier.
 *  - Programs are united by pathname, their object file lists too.
 */
#include <stdlib.h>

#include "internal.h"

static int newer(const xprof_objfile *a, const xprof_objfile *b) {
  /* Is a newer than b?  Ties go to a (the incoming side). */
  return a->tv_sec != b->tv_sec ? a->tv_sec > b->tv_sec
                                : a->tv_usec >= b->tv_usec;
}

static int same_build(const xprof_objfile *a, const xprof_objfile *b) {
  return a->signature == b->signature &&
         a->n_values_per_vp == b->n_values_per_vp;
}

/* ---- copying (with weight) ------------------------------------------------ */

static int copy_vp(xprof_profile *p, const xprof_objfile *o,
                   const xprof_proc *from, xprof_proc *to, uint64_t weight) {
  if (xprof_proc_alloc_vp(p, o, to, from->n_vp_records) < 0)
    return -1;
  for (uint32_t r = 0; r < from->n_vp_records; r++) {
    to->vp[r].type = from->vp[r].type;
    to->vp[r].expr_id = from->vp[r].expr_id;
    for (uint32_t k = 0; k < o->n_values_per_vp; k++) {
      const xprof_vp_value *x = &from->vp[r].values[k];
      xprof_vp_value *y = &to->vp[r].values[k];
      y->count = xprof_sat_mul(x->count, weight);
      y->bits = x->bits;
      if (x->proc && !(y->proc = xprof_strdup(p, x->proc)))
        return -1;
    }
  }
  return 0;
}

static int copy_proc(xprof_profile *p, const xprof_objfile *o,
                     const xprof_proc *from, xprof_proc *to, uint64_t weight) {
  const char *name = to->name;
  *to = *from;
  to->name = name;
  if (xprof_proc_set_shape(p, to, p->no_shapes ? NULL : from->shape, from->shape_size) < 0 ||
      xprof_proc_alloc_counters(p, to, from->n_counters) < 0)
    return -1;
  if (from->counter_ids) {
    to->counter_ids = xprof_alloc(p, (size_t)from->n_counters * 4);
    if (!to->counter_ids)
      return -1;
    memcpy(to->counter_ids, from->counter_ids, (size_t)from->n_counters * 4);
  }
  if (weight == 1) {
    if (from->n_counters)
      memcpy(to->counters, from->counters, (size_t)from->n_counters * 8);
  } else {
    for (uint32_t k = 0; k < from->n_counters; k++)
      to->counters[k] = xprof_sat_mul(from->counters[k], weight);
  }
  return copy_vp(p, o, from, to, weight);
}

/* Fill `to` (already named `from->path` in p) from `from`. */
static int copy_objfile_body(xprof_profile *p, const xprof_objfile *from,
                             xprof_objfile *to, uint64_t weight) {
  to->tv_sec = from->tv_sec;
  to->tv_usec = from->tv_usec;
  to->n_values_per_vp = from->n_values_per_vp;
  to->signature = from->signature;
  to->stats = from->stats;
  xprof_free(to->procs);
  to->procs = NULL;
  to->n_procs = to->cap_procs = 0;
  if (from->n_procs) {
    to->procs = xprof_calloc(from->n_procs, sizeof *to->procs);
    if (!to->procs)
      return -1;
    to->cap_procs = from->n_procs;
  }
  for (uint32_t j = 0; j < from->n_procs; j++) {
    xprof_proc *f = &to->procs[j];
    to->n_procs = j + 1;
    if (!(f->name = xprof_strdup(p, from->procs[j].name)) ||
        copy_proc(p, to, &from->procs[j], f, weight) < 0)
      return -1;
  }
  return 0;
}

/* ---- merging procedures --------------------------------------------------- */

static int merge_counters(xprof_profile *p, xprof_proc *d, const xprof_proc *s,
                          uint64_t weight) {
  int same_ids = d->n_counters == s->n_counters &&
                 (d->counter_ids == NULL) == (s->counter_ids == NULL) &&
                 (!d->counter_ids ||
                  memcmp(d->counter_ids, s->counter_ids,
                         (size_t)d->n_counters * 4) == 0);
  if (same_ids) { /* the common case: one pass, in place */
    uint64_t *dc = d->counters;
    const uint64_t *sc = s->counters;
    if (weight == 1) {
      for (uint32_t k = 0; k < d->n_counters; k++)
        dc[k] = xprof_sat_add(dc[k], sc[k]);
    } else {
      for (uint32_t k = 0; k < d->n_counters; k++)
        dc[k] = xprof_sat_add(dc[k], xprof_sat_mul(sc[k], weight));
    }
    return 0;
  }
  /* Union of two sorted id lists. */
  uint64_t cap = (uint64_t)d->n_counters + s->n_counters;
  if (cap > UINT32_MAX)
    return -1;
  uint32_t *ids = xprof_alloc(p, cap * 4 + 4);
  uint64_t *vals = xprof_alloc(p, cap * 8 + 8);
  if (!ids || !vals)
    return -1;
  uint32_t i = 0, j = 0, n = 0;
  while (i < d->n_counters || j < s->n_counters) {
    uint32_t di = i < d->n_counters ? (d->counter_ids ? d->counter_ids[i] : i)
                                    : UINT32_MAX;
    uint32_t sj = j < s->n_counters ? (s->counter_ids ? s->counter_ids[j] : j)
                                    : UINT32_MAX;
    int take_d = i < d->n_counters && (j >= s->n_counters || di <= sj);
    int take_s = j < s->n_counters && (i >= d->n_counters || sj <= di);
    uint64_t v = 0;
    if (take_d)
      v = d->counters[i++];
    if (take_s)
      v = xprof_sat_add(v, xprof_sat_mul(s->counters[j++], weight));
    ids[n] = take_d ? di : sj;
    vals[n++] = v;
  }
  int dense = 1;
  for (uint32_t k = 0; k < n && dense; k++)
    dense = ids[k] == k;
  d->n_counters = n;
  d->counter_ids = dense ? NULL : ids;
  d->counters = vals;
  return 0;
}

static int same_value(xprof_vp_type t, const xprof_vp_value *a,
                      const xprof_vp_value *b) {
  if (t != XPROF_VP_PROC)
    return a->bits == b->bits;
  if (!a->proc || !b->proc)
    return a->proc == b->proc; /* unprofiled callees pool together */
  return strcmp(a->proc, b->proc) == 0;
}

static int merge_vp_record(xprof_profile *p, uint32_t nv, xprof_vp_record *d,
                           const xprof_vp_record *s, uint64_t weight,
                           xprof_vp_value *tmp) {
  uint32_t n = 0;
  for (uint32_t k = 0; k < nv; k++)
    if (d->values[k].count)
      tmp[n++] = d->values[k];
  for (uint32_t k = 0; k < nv; k++) {
    const xprof_vp_value *x = &s->values[k];
    if (!x->count)
      continue;
    uint64_t c = xprof_sat_mul(x->count, weight);
    uint32_t m;
    for (m = 0; m < n; m++)
      if (same_value(d->type, &tmp[m], x))
        break;
    if (m < n) {
      tmp[m].count = xprof_sat_add(tmp[m].count, c);
    } else {
      tmp[n] = *x;
      tmp[n].count = c;
      if (x->proc && !(tmp[n].proc = xprof_strdup(p, x->proc)))
        return -1;
      n++;
    }
  }
  xprof_vp_keep_largest(d->type, tmp, n, d->values, nv);
  return 0;
}

static int merge_vp(xprof_profile *p, const xprof_objfile *o, xprof_proc *d,
                    const xprof_proc *s, uint64_t weight) {
  if (d->n_vp_sites < s->n_vp_sites)
    d->n_vp_sites = s->n_vp_sites;
  if (!s->n_vp_records)
    return 0;
  uint32_t nv = o->n_values_per_vp;
  xprof_vp_value *tmp = xprof_malloc(((size_t)nv * 2 + 1) * sizeof *tmp);
  if (!tmp)
    return -1;
  /* Records missing from d are added; the result stays sorted by id. */
  uint32_t extra = 0;
  for (uint32_t i = 0, j = 0; j < s->n_vp_records; j++) {
    while (i < d->n_vp_records && d->vp[i].expr_id < s->vp[j].expr_id)
      i++;
    if (i == d->n_vp_records || d->vp[i].expr_id != s->vp[j].expr_id)
      extra++;
  }
  if (extra) {
    uint32_t total = d->n_vp_records + extra;
    xprof_vp_record *nr = xprof_alloc(p, (size_t)total * sizeof *nr);
    if (!nr) {
      xprof_free(tmp);
      return -1;
    }
    uint32_t i = 0, j = 0, n = 0;
    while (i < d->n_vp_records || j < s->n_vp_records) {
      if (j == s->n_vp_records ||
          (i < d->n_vp_records && d->vp[i].expr_id <= s->vp[j].expr_id)) {
        if (j < s->n_vp_records && d->vp[i].expr_id == s->vp[j].expr_id)
          j++; /* merged below */
        nr[n++] = d->vp[i++];
      } else {
        nr[n].type = s->vp[j].type;
        nr[n].expr_id = s->vp[j].expr_id;
        nr[n].values = xprof_alloc(p, (size_t)nv * sizeof(xprof_vp_value) + 1);
        if (!nr[n].values) {
          xprof_free(tmp);
          return -1;
        }
        n++;
        j++;
      }
    }
    d->vp = nr;
    d->n_vp_records = total;
  }
  for (uint32_t i = 0, j = 0; j < s->n_vp_records; j++) {
    while (d->vp[i].expr_id < s->vp[j].expr_id)
      i++;
    if (d->vp[i].type != s->vp[j].type)
      continue; /* one build cannot disagree; keep what is there */
    if (merge_vp_record(p, nv, &d->vp[i], &s->vp[j], weight, tmp) < 0) {
      xprof_free(tmp);
      return -1;
    }
  }
  xprof_free(tmp);
  return 0;
}

static int merge_objfile(xprof_profile *p, xprof_objfile *d,
                         const xprof_objfile *s, uint64_t weight) {
  xprof_strmap map;
  uint32_t n_new = 0;
  uint32_t *where = xprof_malloc(((size_t)s->n_procs + 1) * sizeof *where);
  if (!where || xprof_strmap_init(&map, d->procs, sizeof *d->procs,
                                  d->n_procs) < 0) {
    xprof_free(where);
    return -1;
  }
  int rc = 0;
  for (uint32_t j = 0; j < s->n_procs && rc == 0; j++) {
    const xprof_proc *sf = &s->procs[j];
    where[j] = xprof_strmap_get(&map, sf->name);
    if (where[j] == UINT32_MAX) {
      n_new++;
      continue;
    }
    xprof_proc *df = &d->procs[where[j]];
    if (df->signature != sf->signature)
      continue;
    if (merge_counters(p, df, sf, weight) < 0 || merge_vp(p, d, df, sf, weight) < 0 ||
        (!df->shape && !p->no_shapes && xprof_proc_set_shape(p, df, sf->shape, sf->shape_size) < 0))
      rc = -1;
    /* The earliest first run of the runs merged, as GCC merges its time
     * profiles. */
    if (sf->first_run && (!df->first_run || sf->first_run < df->first_run))
      df->first_run = sf->first_run;
    if (sf->stats.has_max)
      df->stats.has_max = 1;
    if (sf->stats.has_sum)
      df->stats.has_sum = 1;
  }
  xprof_strmap_free(&map);
  /* New procedures go last, after every lookup (appending moves the array). */
  for (uint32_t j = 0; j < s->n_procs && rc == 0 && n_new; j++) {
    if (where[j] != UINT32_MAX)
      continue;
    xprof_proc *f = xprof_add_proc(p, d, s->procs[j].name);
    if (!f || copy_proc(p, d, &s->procs[j], f, weight) < 0)
      rc = -1;
  }
  xprof_free(where);
  if (s->stats.has_max)
    d->stats.has_max = 1;
  if (s->stats.has_sum)
    d->stats.has_sum = 1;
  return rc;
}

/* ---- replacement scopes --------------------------------------------------- */

/* Mark in `mark` (indexed like p->objfiles) every object file of every
 * program of p that lists `path`, and `path` itself. */
static void mark_programs_of(const xprof_profile *p, const xprof_strmap *map,
                             const char *path, unsigned char *mark) {
  uint32_t self = xprof_strmap_get(map, path);
  if (self != UINT32_MAX)
    mark[self] = 1;
  for (uint32_t i = 0; i < p->n_programs; i++) {
    const xprof_program *g = &p->programs[i];
    int member = 0;
    for (uint32_t j = 0; j < g->n_objrefs && !member; j++)
      member = strcmp(g->objrefs[j], path) == 0;
    for (uint32_t j = 0; member && j < g->n_objrefs; j++) {
      uint32_t k = xprof_strmap_get(map, g->objrefs[j]);
      if (k != UINT32_MAX)
        mark[k] = 1;
    }
  }
}

/* Remove the marked object files from p, and every reference to them. */
static void drop_objfiles(xprof_profile *p, const unsigned char *mark) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    if (mark[i]) {
      xprof_free(p->objfiles[i].procs);
      continue;
    }
    p->objfiles[n++] = p->objfiles[i];
  }
  uint32_t dropped = p->n_objfiles - n;
  p->n_objfiles = n;
  if (!dropped)
    return;
  xprof_strmap keep;
  int have_map = xprof_strmap_init(&keep, p->objfiles, sizeof *p->objfiles,
                                   p->n_objfiles) == 0;
  for (uint32_t i = 0; i < p->n_programs; i++) {
    xprof_program *g = &p->programs[i];
    uint32_t m = 0;
    for (uint32_t j = 0; j < g->n_objrefs; j++) {
      int kept = have_map ? xprof_strmap_get(&keep, g->objrefs[j]) != UINT32_MAX
                          : xprof_find_objfile(p, g->objrefs[j]) != NULL;
      if (kept)
        g->objrefs[m++] = g->objrefs[j];
    }
    g->n_objrefs = m;
  }
  if (have_map)
    xprof_strmap_free(&keep);
}

/* ---- programs ------------------------------------------------------------- */

static int merge_programs(xprof_profile *d, const xprof_profile *s) {
  xprof_strmap objs;
  if (xprof_strmap_init(&objs, d->objfiles, sizeof *d->objfiles,
                        d->n_objfiles) < 0)
    return -1;
  int rc = 0;
  for (uint32_t i = 0; i < s->n_programs && rc == 0; i++) {
    const xprof_program *sg = &s->programs[i];
    xprof_program *g = xprof_find_program(d, sg->path);
    if (!g && !(g = xprof_add_program(d, sg->path))) {
      rc = -1;
      break;
    }
    if (sg->stats.has_max)
      g->stats.has_max = 1;
    if (sg->stats.has_sum)
      g->stats.has_sum = 1;
    xprof_strmap have;
    if (xprof_strmap_init(&have, g->objrefs, sizeof *g->objrefs,
                          g->n_objrefs) < 0) {
      rc = -1;
      break;
    }
    uint32_t n_before = g->n_objrefs;
    for (uint32_t j = 0; j < sg->n_objrefs && rc == 0; j++) {
      uint32_t k = xprof_strmap_get(&objs, sg->objrefs[j]);
      if (k == UINT32_MAX)
        continue; /* its data was dropped as older */
      int dup = xprof_strmap_get(&have, sg->objrefs[j]) != UINT32_MAX;
      for (uint32_t m = n_before; !dup && m < g->n_objrefs; m++)
        dup = strcmp(g->objrefs[m], sg->objrefs[j]) == 0;
      if (dup)
        continue;
      /* Share the object file's own string. */
      if (xprof_grow((void **)&g->objrefs, &g->cap_objrefs, g->n_objrefs,
                     sizeof *g->objrefs) < 0)
        rc = -1;
      else
        g->objrefs[g->n_objrefs++] = d->objfiles[k].path;
    }
    xprof_strmap_free(&have);
  }
  xprof_strmap_free(&objs);
  return rc;
}

/* ---- the merge ------------------------------------------------------------ */

/* p's training runs (xprof_known_runs): merged with data that knows its
 * runs, data that does not still weighs in the sum.  Its largest counter
 * is looked for only when it is needed. */
static void known_runs(const xprof_profile *p, uint64_t *runs, uint64_t *max_sum) {
  uint64_t max = p->runs || p->run_max_sum ? 0 : xprof_max_counter(p);
  xprof_known_runs(p->runs, p->run_max_sum, max, runs, max_sum);
}

/* Step 1 of xprof_merge: the object files rebuilt since the other side's
 * data (same path, another build), and what older data goes under mode:
 * drop[k] marks d's object files to drop, ignore[i] s's to leave out.
 * With XPROF_REPLACE_ALL the side holding the newest rebuilt object file
 * wins outright: the other side's runs are zeroed (*d_runs.., *s_runs..)
 * and, if it is d, its programs are emptied. */
static void decide_rebuilt(xprof_profile *d, const xprof_profile *s, xprof_replace mode,
                           const xprof_strmap *dmap, const xprof_strmap *smap,
                           unsigned char *drop, unsigned char *ignore, uint64_t *d_runs,
                           uint64_t *d_max_sum, uint64_t *s_runs, uint64_t *s_max_sum) {
  const xprof_objfile *newest_src = NULL, *newest_dst = NULL;
  for (uint32_t i = 0; i < s->n_objfiles; i++) {
    const xprof_objfile *so = &s->objfiles[i];
    uint32_t k = xprof_strmap_get(dmap, so->path);
    if (k == UINT32_MAX || same_build(&d->objfiles[k], so))
      continue;
    const xprof_objfile *dobj = &d->objfiles[k];
    int src_wins = newer(so, dobj);
    if (mode == XPROF_REPLACE_ALL) {
      const xprof_objfile **best = src_wins ? &newest_src : &newest_dst;
      const xprof_objfile *cand = src_wins ? so : dobj;
      if (!*best || newer(cand, *best))
        *best = cand;
    } else if (mode == XPROF_REPLACE_PROGRAM) {
      if (src_wins)
        mark_programs_of(d, dmap, so->path, drop);
      else
        mark_programs_of(s, smap, so->path, ignore);
    } else if (!src_wins) {
      ignore[i] = 1;
    }
  }
  if (mode != XPROF_REPLACE_ALL || (!newest_src && !newest_dst))
    return;
  if (newest_src && (!newest_dst || newer(newest_src, newest_dst))) {
    memset(drop, 1, d->n_objfiles);
    for (uint32_t i = 0; i < d->n_programs; i++)
      xprof_free(d->programs[i].objrefs);
    d->n_programs = 0; /* the whole older profile is reset */
    *d_runs = *d_max_sum = 0;
  } else {
    memset(ignore, 1, s->n_objfiles);
    *s_runs = *s_max_sum = 0; /* the whole newer side is ignored */
  }
}

/* Step 2: s's object files (but those ignore[] marks) into d, whose map
 * is dmap: merged with or replacing those d has, then the others added
 * (appending may move the array that the map points into).  0, or -1
 * when out of memory. */
static int merge_objfiles(xprof_profile *d, const xprof_profile *s, const xprof_strmap *dmap,
                          unsigned char *ignore, uint64_t weight) {
  for (uint32_t i = 0; i < s->n_objfiles; i++) {
    const xprof_objfile *so = &s->objfiles[i];
    if (ignore[i])
      continue;
    uint32_t k = xprof_strmap_get(dmap, so->path);
    if (k == UINT32_MAX) {
      ignore[i] = 2; /* to be added */
      continue;
    }
    xprof_objfile *dobj = &d->objfiles[k];
    if (same_build(dobj, so) ? merge_objfile(d, dobj, so, weight) < 0
                             : copy_objfile_body(d, so, dobj, weight) < 0)
      return -1; /* (src is newer: step 1 ignored it otherwise) */
  }
  for (uint32_t i = 0; i < s->n_objfiles; i++) {
    if (ignore[i] != 2)
      continue;
    xprof_objfile *o = xprof_add_objfile(d, s->objfiles[i].path);
    if (!o || copy_objfile_body(d, &s->objfiles[i], o, weight) < 0)
      return -1;
  }
  return 0;
}

int xprof_merge(xprof_profile *d, const xprof_profile *s, uint64_t weight,
                xprof_replace mode, xprof_error *err) {
  if (weight == 0)
    return xprof_fail(err, XPROF_ERR_INVALID, "merge: weight must be >= 1");
  int rc = -1;
  uint64_t d_runs, d_max_sum, s_runs, s_max_sum;
  known_runs(d, &d_runs, &d_max_sum);
  known_runs(s, &s_runs, &s_max_sum);
  xprof_strmap dmap = {0}, smap = {0};
  unsigned char *drop = xprof_calloc((size_t)d->n_objfiles + 1, 1);
  unsigned char *ignore = xprof_calloc((size_t)s->n_objfiles + 1, 1);
  if (!drop || !ignore ||
      xprof_strmap_init(&dmap, d->objfiles, sizeof *d->objfiles,
                        d->n_objfiles) < 0 ||
      xprof_strmap_init(&smap, s->objfiles, sizeof *s->objfiles,
                        s->n_objfiles) < 0)
    goto nomem;

  /* 1. Rebuilt object files: decide what older data goes. */
  decide_rebuilt(d, s, mode, &dmap, &smap, drop, ignore, &d_runs, &d_max_sum, &s_runs,
                 &s_max_sum);
  xprof_strmap_free(&dmap);
  drop_objfiles(d, drop);
  if (xprof_strmap_init(&dmap, d->objfiles, sizeof *d->objfiles,
                        d->n_objfiles) < 0)
    goto nomem;

  /* 2. Object files. */
  if (merge_objfiles(d, s, &dmap, ignore, weight) < 0)
    goto nomem;

  /* 3. Programs, then the statistics that either side carried. */
  if (merge_programs(d, s) < 0 || xprof_merge_images(d, s, weight) < 0)
    goto nomem;
  d->runs = xprof_sat_add(d_runs, xprof_sat_mul(s_runs, weight));
  d->run_max_sum = xprof_sat_add(d_max_sum, xprof_sat_mul(s_max_sum, weight));
  xprof_update_stats(d, 0);
  rc = 0;
  goto out;
nomem:
  xprof_fail_nomem(err, "merge");
out:
  xprof_strmap_free(&dmap);
  xprof_strmap_free(&smap);
  xprof_free(drop);
  xprof_free(ignore);
  return rc;
}

int xprof_knows_builds(const xprof_profile *d, const xprof_profile *s) {
  xprof_strmap dmap;
  if (xprof_strmap_init(&dmap, d->objfiles, sizeof *d->objfiles, d->n_objfiles) < 0)
    return -1;
  int all = 1;
  for (uint32_t i = 0; i < s->n_objfiles && all; i++) {
    uint32_t k = xprof_strmap_get(&dmap, s->objfiles[i].path);
    all = k != UINT32_MAX && same_build(&d->objfiles[k], &s->objfiles[i]);
  }
  xprof_strmap_free(&dmap);
  return all;
}

int xprof_replace_parse(const char *s, xprof_replace *out) {
  if (strcmp(s, "objfile") == 0)
    *out = XPROF_REPLACE_OBJFILE;
  else if (strcmp(s, "program") == 0)
    *out = XPROF_REPLACE_PROGRAM;
  else if (strcmp(s, "all") == 0)
    *out = XPROF_REPLACE_ALL;
  else
    return -1;
  return 0;
}
