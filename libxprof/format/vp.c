/*
 * vp.c - what a value-profile record keeps of more values than it holds,
 * and what a site counted in all.
 *
 * The runtime's recorder keeps a site's counts summing to its events
 * (valueprof.c); a record written or merged keeps that sum for indirect
 * calls, so that the count of the edge into the call can be read off the
 * record instead of a counter (flow.c, XPROF_EDGE_MEASURED).
 */
#include "internal.h"

/* Stable insertion sort by count, descending: records are small. */
static void sort_by_count(xprof_vp_value *v, uint32_t n) {
  for (uint32_t a = 1; a < n; a++) {
    xprof_vp_value x = v[a];
    uint32_t b = a;
    while (b > 0 && v[b - 1].count < x.count) {
      v[b] = v[b - 1];
      b--;
    }
    v[b] = x;
  }
}

void xprof_vp_keep_largest(xprof_vp_type type, xprof_vp_value *vals,
                           uint32_t n, xprof_vp_value *out, uint32_t nv) {
  sort_by_count(vals, n);
  memset(out, 0, (size_t)nv * sizeof *out);
  if (n <= nv || nv == 0 || type != XPROF_VP_PROC) {
    for (uint32_t k = 0; k < n && k < nv; k++)
      out[k] = vals[k];
    return;
  }
  if (nv == 1) {
    out[0] = vals[0];
    for (uint32_t k = 1; k < n; k++)
      out[0].count = xprof_sat_add(out[0].count, vals[k].count);
    return;
  }
  /* The nv - 1 largest named callees, then the rest as one empty value. */
  uint32_t kept = 0;
  uint64_t rest = 0;
  for (uint32_t k = 0; k < n; k++) {
    if (vals[k].proc && kept < nv - 1)
      out[kept++] = vals[k];
    else
      rest = xprof_sat_add(rest, vals[k].count);
  }
  out[kept].count = rest; /* proc NULL, bits 0: "not profiled" */
  sort_by_count(out, kept + 1);
}

uint32_t xprof_vp_order(const xprof_objfile *o, const xprof_vp_record *rec,
                        uint32_t order[64], uint64_t *total) {
  uint32_t k = 0;
  *total = 0;
  for (uint32_t i = 0; i < o->n_values_per_vp; i++) {
    const xprof_vp_value *v = &rec->values[i];
    *total = xprof_sat_add(*total, v->count);
    if (k < 64 && v->count && (rec->type != XPROF_VP_PROC || v->proc))
      order[k++] = i;
  }
  /* Stable insertion sort: records are small. */
  for (uint32_t a = 1; a < k; a++)
    for (uint32_t b = a; b > 0 && rec->values[order[b]].count > rec->values[order[b - 1]].count;
         b--) {
      uint32_t t = order[b];
      order[b] = order[b - 1];
      order[b - 1] = t;
    }
  return k;
}

void xprof_vp_site_totals(const xprof_objfile *o, const xprof_proc *f,
                          uint64_t *total, uint32_t n_sites) {
  for (uint32_t s = 0; s < n_sites; s++)
    total[s] = 0;
  for (uint32_t r = 0; r < f->n_vp_records; r++) {
    const xprof_vp_record *rec = &f->vp[r];
    if (rec->expr_id >= n_sites)
      continue;
    uint64_t sum = 0;
    for (uint32_t k = 0; k < o->n_values_per_vp; k++)
      sum = xprof_sat_add(sum, rec->values[k].count);
    total[rec->expr_id] = sum;
  }
}
