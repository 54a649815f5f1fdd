/*
 * use.c - the plan of a use build's object file: find its data (shipped
 * by a driver, or looked up in the profiles the options name), match each
 * function to its procedure, salvage a changed one's counts or solve a
 * matching one's, and say what could not be used.  The plugins then hand
 * the solved counts to their optimizers as their compilers want them.
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "xprof_plan.h"

static void warn_lookup(void *ctx, const char *msg) {
  xprof_warn(ctx, XPROF_W_MISSING_PROFILE, "%s", msg);
}

/* Why the object file has no data: a warning when the build tree seems to
 * have moved (naming the pathmap that finds the data) or the profile
 * seems to be another build's; a note (verbose) when it was in no
 * program that ran, which is common and, as a warning, would change
 * configure scripts' results (zlib's takes any output as failure). */
static void explain_missing(const xprof_use *u) {
  const xprof_options *o = u->o;
  char *map, text[1024];
  xprof_missing why = xprof_use_explain_missing(o->use_names.v, o->use_names.n, o->pathmap.v,
                                                o->pathmap.n, u->objpath, &map);
  if (xprof_use_missing_text(why, u->objpath, map, text, sizeof text))
    xprof_warn(u->d, XPROF_W_MISSING_PROFILE, "%s", text);
  else
    xprof_verbose(u->d, "%s", text);
  xprof_free(map);
}

int xprof_use_open(xprof_use *u, const xprof_options *o, const xprof_diag *d,
                   const char *objpath, const char *shipped, size_t n_shipped,
                   int has_functions) {
  memset(u, 0, sizeof *u);
  u->o = o;
  u->d = d;
  u->objpath = objpath;
  int any_data = 1;
  if (shipped) {
    xprof_error err;
    if (xprof_use_unship(shipped, n_shipped, &u->profile, &err) < 0)
      xprof_warn(d, XPROF_W_MISSING_PROFILE, "%s; compiling without profile data", err.msg);
    else
      u->obj = &u->profile->objfiles[0];
    return u->obj != NULL;
  }
  u->profile = xprof_use_lookup(o->use_names.v, o->use_names.n, o->pathmap.v, o->pathmap.n,
                                objpath, &u->obj, &any_data, warn_lookup, (void *)d);
  /* An object file without functions (only data) has no data to miss. */
  if (!u->profile && any_data && has_functions)
    explain_missing(u);
  if (u->profile && !u->profile->summary) {
    u->profile->summary = xprof_alloc(u->profile, sizeof *u->profile->summary);
    if (u->profile->summary)
      xprof_compute_summary(u->profile, u->profile->summary);
  }
  return u->profile != NULL;
}

const xprof_proc *xprof_use_find(xprof_use *u, const char *name) {
  const xprof_proc *f = xprof_find_proc(u->obj, name);
  u->st.missing += !f;
  return f;
}

/* ---- one function ---------------------------------------------------------- */

/* f's counts carried over to g, which changed since training
 * (salvage.c), when enough of them match it.  Returns 1, or 0 after
 * warning that they do not fit. */
static int salvage(xprof_use *u, const xprof_proc *f, const xprof_graph *g, xprof_use_fn *r) {
  xprof_salvage_result sr;
  xprof_error err;
  uint32_t n_vp;
  xprof_shape now = xprof_graph_shape(g);
  if (g->n_side)
    r->side = xprof_calloc(g->n_side, sizeof *r->side);
  int rc = g->n_side && !r->side
               ? xprof_fail_nomem(&err, f->name)
               : xprof_salvage_proc(u->obj, f, &now, r->edge_count, r->node_count, &r->vp, &n_vp,
                                    r->side, &sr, &err);
  double share = xprof_salvage_fraction(&sr);
  if (rc == 0 && share * 100 + 1e-9 >= u->o->salvage) {
    u->st.salvaged++;
    u->st.salvage_mass = xprof_sat_add(u->st.salvage_mass, sr.old_mass);
    u->st.salvage_matched = xprof_sat_add(u->st.salvage_matched, sr.matched_mass);
    xprof_verbose(u->d, XPROF_MSG_SALVAGED, f->name, sr.matched_blocks, sr.old_blocks,
                  100 * share, sr.sites_matched, sr.sites);
    r->salvaged = 1;
    r->view = *f;
    r->view.vp = r->vp;
    r->view.n_vp_records = n_vp;
    r->view.n_vp_sites = g->n_sites;
    return 1;
  }
  if (rc == 0)
    xprof_warn(u->d, XPROF_W_COVERAGE_MISMATCH, XPROF_MSG_NOT_SALVAGED, f->name, 100 * share,
               u->o->salvage);
  else if (err.code == XPROF_ERR_NOTFOUND && u->profile && u->profile->shapes_problem)
    xprof_warn(u->d, XPROF_W_COVERAGE_MISMATCH,
               XPROF_MSG_MISMATCH " (the profile's shapes could not be read: %s)", f->name,
               u->profile->shapes_problem);
  else
    xprof_warn(u->d, XPROF_W_COVERAGE_MISMATCH, XPROF_MSG_MISMATCH " (%s)", f->name, err.msg);
  return 0;
}

/* f's counts on g, which is the graph they were collected on. */
static int solve(xprof_use *u, const xprof_proc *f, const xprof_graph *g, xprof_use_fn *r) {
  uint32_t nc = (uint32_t)g->n_counters;
  uint64_t *values = xprof_calloc((size_t)nc + 1, sizeof *values);
  uint64_t *sites = xprof_calloc((size_t)g->n_sites + 1, sizeof *sites);
  int rc = -1;
  if (values && sites) {
    for (uint32_t k = 0; k < nc; k++)
      values[k] = xprof_proc_counter(f, k);
    xprof_vp_site_totals(u->obj, f, sites, g->n_sites);
    rc = xprof_solve_flow_sites(g->n_nodes, g->edges, g->n_edges, g->counter_of_edge, values,
                                nc, sites, g->n_sites, r->edge_count, r->node_count);
  }
  xprof_free(values);
  xprof_free(sites);
  if (rc < 0) {
    xprof_warn(u->d, XPROF_W_COVERAGE_MISMATCH, XPROF_MSG_UNSOLVABLE, f->name);
    return 0;
  }
  if (rc > 0)
    xprof_verbose(u->d, XPROF_MSG_INCONSISTENT, f->name);
  return 1;
}

int xprof_use_match(xprof_use *u, const xprof_proc *f, const xprof_graph *g, xprof_use_fn *r) {
  memset(r, 0, sizeof *r);
  r->f = f;
  int ok = 0;
  if (g && g->n_counters >= 0) {
    r->edge_count = xprof_calloc((size_t)g->n_edges + 1, sizeof *r->edge_count);
    r->node_count = xprof_calloc((size_t)g->n_nodes + 1, sizeof *r->node_count);
  }
  if (!r->edge_count || !r->node_count)
    xprof_warn(u->d, XPROF_W_COVERAGE_MISMATCH, XPROF_MSG_MISMATCH, f->name);
  else if (g->signature != f->signature && u->o->salvage <= 100)
    ok = salvage(u, f, g, r);
  else if (g->signature != f->signature)
    xprof_warn(u->d, XPROF_W_COVERAGE_MISMATCH, XPROF_MSG_MISMATCH, f->name);
  else
    ok = solve(u, f, g, r);
  if (!ok) {
    xprof_use_fn_free(r);
    u->st.mismatched++;
    return 0;
  }
  u->st.matched++;
  u->st.untrained += r->node_count[XPROF_ENTRY] == 0;
  return 1;
}

const xprof_proc *xprof_use_records(const xprof_use_fn *r) {
  return r->salvaged ? &r->view : r->f;
}

uint64_t xprof_use_side_count(const xprof_use_fn *r, const xprof_graph *g, uint32_t i) {
  if (r->salvaged)
    return r->side ? r->side[i] : XPROF_NO_SIDE;
  return xprof_proc_counter(r->f, g->side_counter[i]);
}

uint64_t xprof_use_unreturned(const xprof_graph *g, const uint64_t *edge_count) {
  unsigned char *head = xprof_calloc(g->n_nodes + 1, 1);
  uint64_t n = 0;
  for (uint32_t e = 0; head && e < g->n_edges; e++)
    if (g->edges[e].flags & XPROF_EDGE_MEASURED)
      head[g->edges[e].dst] = 1;
  for (uint32_t e = 0; head && e < g->n_edges; e++)
    if ((g->edges[e].flags & XPROF_EDGE_FAKE) && head[g->edges[e].src])
      n = xprof_sat_add(n, edge_count[e]);
  xprof_free(head);
  return n;
}

void xprof_use_fn_free(xprof_use_fn *r) {
  xprof_free(r->edge_count);
  xprof_free(r->node_count);
  xprof_free(r->vp);
  xprof_free(r->side);
  memset(r, 0, sizeof *r);
}

/* ---- the object file ------------------------------------------------------- */

void xprof_use_close(xprof_use *u) {
  const xprof_use_stats *st = &u->st;
  if (u->profile && st->salvaged) {
    double pct = st->salvage_mass
                     ? 100.0 * (double)st->salvage_matched / (double)st->salvage_mass
                     : 100.0;
    const char *its = st->salvaged == 1 ? "its" : "their";
    xprof_warn(u->d, XPROF_W_COVERAGE_MISMATCH,
               "%s: %u function%s changed since the training build; %s profile data was "
               "salvaged (%.0f%% of %s counts matched the new code)",
               u->objpath, st->salvaged, xprof_plural(st->salvaged), its, pct, its);
  }
  if (u->profile) {
    char salvaged[64] = "";
    if (st->salvaged) /* counted as matched too */
      snprintf(salvaged, sizeof salvaged, "; %u salvaged from changed code", st->salvaged);
    xprof_verbose(u->d,
                  "%s: %u procedure%s matched the profile, %u mismatched, %u missing; "
                  "%u indirect call%s promoted, %u operation%s specialized to profiled "
                  "values; %u never ran in training%s%s",
                  u->objpath, st->matched, xprof_plural(st->matched), st->mismatched,
                  st->missing, st->promoted, xprof_plural(st->promoted), st->specialized,
                  xprof_plural(st->specialized), st->untrained,
                  u->o->partial_training ? " (optimized as without a profile)" : "", salvaged);
  }
  xprof_profile_free(u->profile);
  u->profile = NULL;
  u->obj = NULL;
}
