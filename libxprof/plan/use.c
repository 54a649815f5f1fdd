/*
 * use.c - the plan of a use build's object file: find its data (shipped
 * by a driver, or looked up in the profiles the options name), match each
 * function to its procedure, salvage a changed one's counts or solve a
 * matching one's, and say what could not be used.  The plugins then hand
 * the solved counts to their optimizers as their compilers want them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "xprof_plan.h"

static void warn_lookup(void *ctx, const char *msg) {
  xprof_warn(ctx, XPROF_W_MISSING_PROFILE, "%s", msg);
}

/* Why the object file has no data: a warning when the build tree seems to
 * have moved (naming the pathmap that finds the data) or the profile
 * seems to be another build's; a note (verbose) when it was in no
 * program that ran, which is common and, as a warning, would change
 * configure scripts' results (zlib's takes any output as failure).  A
 * profile of a program's time samples (sampled) has no object files:
 * the note says so, not that data are missing.  Returns the reason. */
static xprof_missing explain_missing(const xprof_use *u, int sampled) {
  const xprof_options *o = u->o;
  char *map, text[1024];
  xprof_missing why = xprof_use_explain_missing(o->use_names.v, o->use_names.n, o->pathmap.v,
                                                o->pathmap.n, u->objpath, &map);
  if (sampled) /* no object file is ever in it: nothing is missing */
    xprof_verbose(u->d, "%s: the profile is time samples, which know functions by their "
                  "source lines, not object files",
                  u->objpath);
  else if (xprof_use_missing_text(why, u->objpath, map, text, sizeof text))
    xprof_warn(u->d, XPROF_W_MISSING_PROFILE, "%s", text);
  else
    xprof_verbose(u->d, "%s", text);
  xprof_free(map);
  return why;
}

/* A source of the line profile as this build names it (-xprofile_pathmap:
 * a build in another directory looks functions up by its own paths). */
static char *use_path(void *ctx, const char *file) {
  const xprof_options *o = ctx;
  return xprof_pathmap_use_path(o->pathmap.v, o->pathmap.n, file);
}

/* Take lp (NULL: none) as u's line profile.  A function the training
 * build inlined everywhere is out of line here before (LLVM) or after
 * (GCC) this compiler's early inlining: it gets an entry of its own.
 * (Adding every function's inlined runs to its own entry, for LLVM's pass
 * before any inlining, measured no better on sqlite.)  The driver that
 * ships lines to another machine did the same: doing it again adds
 * nothing.  Its sources are first named as this build names them
 * (use_path). */
static void take_lines(xprof_use *u, xprof_lineprof *lp) {
  u->lines_read = 1;
  u->lines = lp;
  if (lp && u->o->pathmap.n)
    xprof_lineprof_map_files(lp, use_path, (void *)u->o);
  if (lp && xprof_lineprof_fold_inlined(lp, 0) < 0) {
    xprof_lineprof_free(lp);
    u->lines = NULL;
  }
}

/* The line profile, read the first time it is asked for; NULL: none. */
static const xprof_lineprof *lines_of(xprof_use *u) {
  if (!u->lines_read)
    take_lines(u, xprof_use_lookup_lines(u->o->use_names.v, u->o->use_names.n, warn_lookup,
                                         (void *)u->d));
  return u->lines;
}

/* xprof_use_open for data a driver shipped: the object file's, or only
 * lines, as the driver found them (it decided as below). */
static int open_shipped(xprof_use *u, const char *shipped, size_t n_shipped, int has_functions) {
  xprof_error err;
  xprof_lineprof *lp;
  if (xprof_use_unship(shipped, n_shipped, &u->profile, &lp, &err) < 0) {
    xprof_warn(u->d, XPROF_W_MISSING_PROFILE, "%s; compiling without profile data", err.msg);
    return 0;
  }
  take_lines(u, lp);
  if (u->profile->n_objfiles)
    u->obj = &u->profile->objfiles[0];
  return u->obj || (u->lines && has_functions);
}

int xprof_use_takes_lines(const xprof_lineprof *lp, int has_obj, xprof_missing why) {
  return lp && (has_obj || lp->from_samples || why != XPROF_MISSING_FOREIGN);
}

int xprof_use_open(xprof_use *u, const xprof_options *o, const xprof_diag *d,
                   const char *objpath, const char *shipped, size_t n_shipped,
                   int has_functions) {
  memset(u, 0, sizeof *u);
  u->o = o;
  u->d = d;
  u->objpath = objpath;
  u->lines_obj.path = objpath;
  u->lines_obj.n_values_per_vp = o->values_per_site < 64 ? o->values_per_site : 64;
  int any_data = 1;
  if (shipped)
    return open_shipped(u, shipped, n_shipped, has_functions);
  u->profile = xprof_use_lookup(o->use_names.v, o->use_names.n, o->pathmap.v, o->pathmap.n,
                                objpath, &u->obj, &any_data, warn_lookup, (void *)d);
  /* An object file without functions (only data) has no data to miss.
   * Without data, its functions may still be known by their lines: from
   * samples (which know no object files), or from counts where the
   * object is this build's (not another program's profile). */
  const xprof_lineprof *lp = !u->profile && has_functions ? lines_of(u) : NULL;
  xprof_missing why = XPROF_MISSING_UNLINKED;
  if (!u->profile && any_data && has_functions)
    why = explain_missing(u, lp && lp->from_samples);
  if (xprof_use_takes_lines(lp, 0, why)) {
    if (!xprof_use_whole_summary(o->use_names.v, o->use_names.n, &u->summary))
      xprof_lineprof_summary(u->lines, &u->summary);
    return 1;
  }
  if (u->profile && !u->profile->summary) {
    u->profile->summary = xprof_alloc(u->profile, sizeof *u->profile->summary);
    if (u->profile->summary)
      xprof_compute_summary(u->profile, u->profile->summary);
  }
  return u->profile != NULL;
}

const xprof_summary *xprof_use_summary(const xprof_use *u) {
  return u->profile && u->profile->summary ? u->profile->summary : &u->summary;
}

int xprof_use_find(xprof_use *u, const char *name, const char *file, const xprof_proc **f) {
  *f = u->obj ? xprof_find_proc(u->obj, name) : NULL;
  u->st.missing += u->obj && !*f;
  return *f || (lines_of(u) && xprof_lineprof_find(u->lines, name, file));
}

/* ---- one function ---------------------------------------------------------- */

static void defer(xprof_use *u, const char *fmt, ...) XPROF_PRINTF(2, 3);

/* Why a function's data do not fit, said only if its lines cannot place
 * its counts either (xprof_use_match). */
static void defer(xprof_use *u, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(u->pending, sizeof u->pending, fmt, ap);
  va_end(ap);
}

/* f's counts carried over to g, which changed since training
 * (salvage.c), when enough of them match it.  Returns 1 with r holding
 * them, *sr saying how well they matched (xprof_use_match accounts for
 * them) and carried[v] whether block v's count is its training block's,
 * or 0 after deferring the warning that they do not fit. */
static int salvage(xprof_use *u, const xprof_proc *f, const xprof_graph *g, xprof_use_fn *r,
                   xprof_salvage_result *sr, unsigned char *carried) {
  xprof_error err;
  uint32_t n_vp;
  xprof_shape now = xprof_graph_shape(g);
  if (g->n_side)
    r->side = xprof_calloc(g->n_side, sizeof *r->side);
  int rc = g->n_side && !r->side
               ? xprof_fail_nomem(&err, f->name)
               : xprof_salvage_proc(u->obj, f, &now, r->edge_count, r->node_count, &r->vp, &n_vp,
                                    r->side, carried, sr, &err);
  double share = xprof_salvage_fraction(sr);
  if (rc == 0 && share * 100 + 1e-9 >= u->o->salvage) {
    r->salvaged = 1;
    r->view = *f;
    r->view.vp = r->vp;
    r->view.n_vp_records = n_vp;
    r->view.n_vp_sites = g->n_sites;
    return 1;
  }
  if (rc == 0)
    defer(u, XPROF_MSG_NOT_SALVAGED, f->name, 100 * share, u->o->salvage);
  else if (err.code == XPROF_ERR_NOTFOUND && u->profile && u->profile->shapes_problem)
    defer(u, XPROF_MSG_MISMATCH " (the profile's shapes could not be read: %s)", f->name,
          u->profile->shapes_problem);
  else
    defer(u, XPROF_MSG_MISMATCH " (%s)", f->name, err.msg);
  return 0;
}

static void account_salvage(xprof_use *u, const xprof_proc *f, const xprof_salvage_result *sr) {
  u->st.salvaged++;
  u->st.salvage_mass = xprof_sat_add(u->st.salvage_mass, sr->old_mass);
  u->st.salvage_matched = xprof_sat_add(u->st.salvage_matched, sr->matched_mass);
  xprof_verbose(u->d, XPROF_MSG_SALVAGED, f->name, sr->matched_blocks, sr->old_blocks,
                100 * xprof_salvage_fraction(sr), sr->sites_matched, sr->sites);
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
    defer(u, XPROF_MSG_UNSOLVABLE, f->name);
    return 0;
  }
  if (rc > 0)
    xprof_verbose(u->d, XPROF_MSG_INCONSISTENT, f->name);
  return 1;
}

/* Memory of r's that xprof_use_fn_free frees; NULL when out of memory. */
static void *owned(xprof_use_fn *r, void *p) {
  if (p && xprof_grow((void **)&r->owned, &r->cap_owned, r->n_owned, sizeof *r->owned) == 0) {
    r->owned[r->n_owned++] = p;
    return p;
  }
  xprof_free(p);
  return NULL;
}

/* The count of callee t as r's records take it: times `scale` if >= 0. */
static uint64_t scaled(uint64_t count, double scale) {
  if (scale < 0)
    return count;
  double x = (double)count * scale + 0.5;
  return x < 18446744073709551615.0 ? (uint64_t)x : UINT64_MAX;
}

/* Do targets a and b name the same callee, or value of the same kind? */
static int same_target(const xprof_lp_target *a, const xprof_lp_target *b) {
  return a->kind == b->kind &&
         (a->name && b->name ? strcmp(a->name, b->name) == 0 : a->value == b->value);
}

/* The record of site `site` of kind `kind` and value type `type`: the
 * callees or values of that kind that lf's lines name at its place, one
 * value each (one named by several discriminators adds up), the busiest
 * first, as many as the object file's records hold.  0 when there are
 * none, 1, or -1 when out of memory. */
static int line_record(xprof_use *u, const xprof_lp_func *lf, uint32_t decl_line,
                       const xprof_line_loc *site, uint32_t kind, uint32_t type,
                       xprof_use_fn *r, xprof_vp_record *rec) {
  const xprof_objfile *o = xprof_use_values(u);
  uint32_t n;
  double scale;
  const xprof_lp_target *t = xprof_line_targets(u->lines, lf, decl_line, site, &n, &scale);
  if (!n || !o->n_values_per_vp)
    return 0;
  xprof_vp_value *v = owned(r, xprof_calloc(o->n_values_per_vp, sizeof *v));
  if (!v)
    return -1;
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (t[i].kind != kind)
      continue;
    uint64_t c = 0; /* target i's count, each once (its first) */
    for (uint32_t j = 0; j < n; j++)
      if (same_target(&t[j], &t[i])) {
        if (j < i)
          break;
        c = xprof_sat_add(c, scaled(t[j].count, scale));
      }
    uint32_t at = k; /* where it goes, the busiest first */
    while (at > 0 && v[at - 1].count < c)
      at--;
    if (!c || at >= o->n_values_per_vp)
      continue;
    char *name = t[i].name ? owned(r, xprof_format("%s:%s", t[i].name, o->path)) : NULL;
    if (t[i].name && !name)
      return -1;
    k -= k == o->n_values_per_vp; /* the least goes */
    memmove(&v[at + 1], &v[at], (size_t)(k - at) * sizeof *v);
    v[at] = (xprof_vp_value){c, t[i].name ? 0 : t[i].value, name};
    k++;
  }
  *rec = (xprof_vp_record){kind == XPROF_SITE_CALL ? XPROF_VP_PROC : type, site->node, v};
  return k > 0;
}

/* Records of g's value-profile sites (of the places' sites) from the
 * callees and values of the site's kind that lf's lines name there, as
 * r's view; 0 or -1. */
static int line_records(xprof_use *u, const xprof_lp_func *lf, const xprof_places *p,
                        const xprof_graph *g, xprof_use_fn *r) {
  r->view.n_vp_sites = g->n_sites;
  if (!p->n_sites)
    return 0;
  r->vp = xprof_calloc(p->n_sites, sizeof *r->vp);
  if (!r->vp)
    return -1;
  uint32_t n = 0;
  for (uint32_t i = 0; i < p->n_sites; i++) {
    uint32_t site = p->sites[i].node;
    int rc = site < g->n_sites ? line_record(u, lf, p->decl_line, &p->sites[i],
                                             g->site_kind[site], g->site_type[site], r, &r->vp[n])
                               : 0;
    if (rc < 0)
      return -1;
    n += rc;
  }
  r->view.vp = r->vp;
  r->view.n_vp_records = n;
  return 0;
}

/* Into buf: what a match by lines left aside, as the notes say it
 * (nothing when it left nothing). */
static void folded_text(char *buf, size_t size, uint64_t total, uint64_t folded) {
  buf[0] = 0;
  double pct = 100.0 * (double)folded / (double)xprof_sat_add(total, folded);
  if (folded && pct < 0.5)
    snprintf(buf, size, ", leaving aside under 1%% on lines this compiler folded into others");
  else if (folded)
    snprintf(buf, size, ", leaving aside the %.0f%% on lines this compiler folded into others",
             pct);
}

/* Counts for the function `name` on g by source line, when they place at
 * least the share of its line profile's counts that -xprofile_salvage
 * asks.  Returns 1 with r filled, 0 when the line
 * profile has none of its places or too few. */
static int by_lines(xprof_use *u, const char *name, const char *file, const xprof_graph *g,
                    xprof_places_fn places, void *ctx, xprof_use_fn *r) {
  const xprof_lp_func *lf = lines_of(u) ? xprof_lineprof_find(u->lines, name, file) : NULL;
  if (!lf || !places)
    return 0;
  xprof_places p = {0, NULL, 0, NULL, 0, NULL, NULL};
  places(ctx, &p);
  xprof_line_match m = {0, 0, 0, 0, 0, 0, 0};
  uint64_t *edges = xprof_calloc((size_t)g->n_edges + 1, sizeof *edges);
  uint64_t *nodes = xprof_calloc((size_t)g->n_nodes + 1, sizeof *nodes);
  int rc = !edges || !nodes ? -1
                            : xprof_line_counts(u->lines, lf, &p, g->n_nodes, g->edges,
                                                g->n_edges, NULL, edges, nodes, &m);
  /* As salvage keeps a changed function's counts only when enough of
   * them match (-xprofile_salvage), so do the lines. */
  unsigned need = u->o->salvage <= 100 ? u->o->salvage : XPROF_SALVAGE_DEFAULT_PERCENT;
  double share = m.total ? (double)m.placed / (double)m.total : 1.0;
  if (rc > 0 && share * 100 + 1e-9 < need) {
    rc = 0;
    if (!u->pending[0])
      defer(u, XPROF_MSG_NOT_SALVAGED, name, 100 * share, need);
  }
  if (rc <= 0) {
    xprof_free(edges);
    xprof_free(nodes);
    if (rc == 0 && !m.total) /* nothing to place: not "100% placed" */
      xprof_verbose(u->d, "%s: its line profile has no counts on this compilation's lines "
                    "(%u of %u places found)",
                    name, m.matched, m.located);
    else
      xprof_verbose(u->d, "%s: its line profile placed %.0f%% of its counts (%u of %u places "
                    "found)%s",
                    name, 100 * share, m.matched, m.located,
                    rc < 0 ? " (out of memory, or too large a graph)" : "");
    return 0;
  }
  u->st.by_lines++;
  u->st.lines_total = xprof_sat_add(u->st.lines_total, m.total);
  u->st.lines_placed = xprof_sat_add(u->st.lines_placed, m.placed);
  u->st.lines_folded = xprof_sat_add(u->st.lines_folded, m.folded);
  char by_callees[64] = "";
  if (m.scaled)
    snprintf(by_callees, sizeof by_callees, ", %u by their inlined callees' own lines", m.scaled);
  char folded[96];
  folded_text(folded, sizeof folded, m.total, m.folded);
  xprof_verbose(u->d, "%s: counts placed by source line (%u of %u places found%s, %.0f%% of its "
                "line profile's counts%s)",
                name, m.matched, m.located, by_callees, 100 * share, folded);
  /* What a salvage left goes: the lines' records are of their own. */
  xprof_free(r->edge_count);
  xprof_free(r->node_count);
  xprof_free(r->vp);
  xprof_free(r->side);
  r->edge_count = edges;
  r->node_count = nodes;
  r->vp = NULL;
  r->side = NULL;
  r->by_lines = 1;
  memset(&r->view, 0, sizeof r->view);
  r->view.name = name;
  if (line_records(u, lf, &p, g, r) < 0) { /* out of memory: counts without records */
    memset(&r->view, 0, sizeof r->view);
    r->view.name = name;
  }
  return 1;
}

/* The line profile's mark (XPROF_LP_BY_*) for graphs of this compiler. */
static unsigned own_graphs(const xprof_use *u) {
  return u->o->compiler == XPROF_OPT_GCC ? XPROF_LP_BY_GCC : XPROF_LP_BY_LLVM;
}

struct xprof_use_source {
  char *path;
  uint64_t hash;
};

/* The hash of source `file` as this compilation names it, as the
 * coverage tables' S records give it (xprof_source_hash), each file read
 * once; 0 when it cannot be read. */
static uint64_t source_hash_now(xprof_use *u, const char *file) {
  for (uint32_t i = 0; i < u->n_hashed; i++)
    if (strcmp(u->hashed[i].path, file) == 0)
      return u->hashed[i].hash;
  char *copy = xprof_format("%s", file);
  if (!copy ||
      xprof_grow((void **)&u->hashed, &u->cap_hashed, u->n_hashed, sizeof *u->hashed) < 0) {
    xprof_free(copy);
    return 0; /* out of memory: not known, and not kept */
  }
  uint64_t h = xprof_source_hash(file);
  u->hashed[u->n_hashed++] = (struct xprof_use_source){copy, h};
  return h;
}

/* Is the function's source, as this compilation reads it, the one the
 * training compiled, byte for byte (the line profile keeps its hash)?
 * Then nothing was edited, and the lines are where its counts belong. */
static int source_unchanged(xprof_use *u, const xprof_lineprof *lp, const char *name,
                            const char *file) {
  const xprof_lp_func *lf = file ? xprof_lineprof_find(lp, name, file) : NULL;
  return lf && lf->source_hash && lf->source_hash == source_hash_now(u, file);
}

/* Salvage matches blocks by their shape, for code edited since training:
 * blocks of the new graph it did not find are taken for new code that
 * never ran.  When the code was not edited they are not new: another
 * compiler's graph, another version's or other options' (a branch that
 * one made a select, a call the other's early inliner took in), and the
 * lines know how often they ran.  With the lines of another compiler's
 * graphs, the lines place the whole function where they place enough of
 * it (LINES_FIRST).  With the lines of this compiler's own graphs (its
 * training was another version or other options), the blocks that
 * salvage matched keep their counts and the lines give theirs to the
 * blocks it did not (LINES_FILL): taking the whole function by line
 * instead lost what the shapes say in code whose macros put many blocks
 * on one place (lua's interpreter loop ran 2-6% more instructions from
 * an older version's training with either compiler; bench/history.md,
 * 2026-12-03, evening).  Only where the function's source file is the
 * training's byte for byte: an edit moves the lines.  A macro (-D) can
 * change the code without changing the file, but the lines of code the
 * training did not compile have no counts to give. */
typedef enum { SALVAGE_STANDS, LINES_FIRST, LINES_FILL } lines_role;
static lines_role lines_role_of(xprof_use *u, const xprof_salvage_result *sr, const char *name,
                                const char *file) {
  const xprof_lineprof *lp = lines_of(u);
  if (!lp || lp->from_samples ||
      (xprof_salvage_fraction(sr) >= 0.995 && sr->matched_blocks >= sr->new_blocks))
    return SALVAGE_STANDS;
  if (lp->made_by & ~own_graphs(u))
    return LINES_FIRST;
  return source_unchanged(u, lp, name, file) ? LINES_FILL : SALVAGE_STANDS;
}

/* Counts by source line for the blocks of g whose counts salvage did not
 * carry over from the training (carried[v] 0), with salvage's flow (r's
 * counts) as the prior (xprof_line_counts): the carried counts stand,
 * and the lines' estimates give way to them; a block the lines do not
 * estimate keeps what salvage's flow gave it where the new flow allows.
 * Returns 1 with r's counts replaced, 0 when the lines estimate none of
 * the blocks salvage did not carry (r as it was). */
static int fill_by_lines(xprof_use *u, const char *name, const char *file, const xprof_graph *g,
                         xprof_places_fn places, void *ctx, const unsigned char *carried,
                         xprof_use_fn *r) {
  const xprof_lp_func *lf = xprof_lineprof_find(u->lines, name, file);
  if (!lf || !places)
    return 0;
  xprof_places p = {0, NULL, 0, NULL, 0, NULL, NULL};
  places(ctx, &p);
  xprof_line_match m = {0, 0, 0, 0, 0, 0, 0};
  uint64_t *edges = xprof_calloc((size_t)g->n_edges + 1, sizeof *edges);
  uint64_t *nodes = xprof_calloc((size_t)g->n_nodes + 1, sizeof *nodes);
  xprof_line_prior prior = {r->node_count, carried};
  int rc = !edges || !nodes ? -1
                            : xprof_line_counts(u->lines, lf, &p, g->n_nodes, g->edges,
                                                g->n_edges, &prior, edges, nodes, &m);
  /* Salvage stands where the lines estimate none of the blocks it made
   * up: the lines of code that the training did not compile (a macro
   * that changed) have no counts. */
  if (rc > 0 && !m.estimated)
    rc = 0;
  if (rc > 0) {
    uint32_t left = 0;
    for (uint32_t v = XPROF_EXIT + 1; v < g->n_nodes; v++)
      left += !carried[v];
    xprof_verbose(u->d, "%s: of the %u block%s salvage did not match, %u took counts by "
                  "source line",
                  name, left, xprof_plural(left), m.estimated);
    xprof_free(r->edge_count);
    xprof_free(r->node_count);
    r->edge_count = edges;
    r->node_count = nodes;
    edges = nodes = NULL;
  }
  xprof_free(edges);
  xprof_free(nodes);
  return rc > 0;
}

int xprof_use_match(xprof_use *u, const char *name, const char *file, const xprof_proc *f,
                    const xprof_graph *g, xprof_places_fn places, void *ctx, xprof_use_fn *r) {
  memset(r, 0, sizeof *r);
  r->f = f;
  u->pending[0] = 0;
  xprof_salvage_result sr;
  unsigned char *carried = NULL;
  int ok = 0;
  if (g && g->n_counters >= 0) {
    r->edge_count = xprof_calloc((size_t)g->n_edges + 1, sizeof *r->edge_count);
    r->node_count = xprof_calloc((size_t)g->n_nodes + 1, sizeof *r->node_count);
    carried = xprof_calloc((size_t)g->n_nodes + 1, 1);
  }
  if (!r->edge_count || !r->node_count || !carried)
    defer(u, XPROF_MSG_MISMATCH, name);
  else if (!f)
    ; /* only the lines know it */
  else if (g->signature != f->signature && u->o->salvage <= 100)
    ok = salvage(u, f, g, r, &sr, carried);
  else if (g->signature != f->signature)
    defer(u, XPROF_MSG_MISMATCH, name);
  else
    ok = solve(u, f, g, r);
  lines_role role = ok && r->salvaged ? lines_role_of(u, &sr, name, file) : SALVAGE_STANDS;
  if (role == LINES_FIRST && by_lines(u, name, file, g, places, ctx, r))
    r->salvaged = 0;
  else if (ok && r->salvaged) {
    account_salvage(u, f, &sr);
    if (role == LINES_FILL)
      u->st.filled += fill_by_lines(u, name, file, g, places, ctx, carried, r);
  }
  xprof_free(carried);
  /* -xprofile_salvage=no: a function whose graph changed is compiled
   * without profile data, as the user asked; the lines serve only those
   * the data do not know. */
  if (!ok && r->edge_count && r->node_count && (!f || u->o->salvage <= 100)) {
    ok = by_lines(u, name, file, g, places, ctx, r);
    u->st.unplaced += !ok;
  }
  if (!ok) {
    if (f && u->pending[0])
      xprof_warn(u->d, XPROF_W_COVERAGE_MISMATCH, "%s", u->pending);
    xprof_use_fn_free(r);
    u->st.mismatched += f != NULL;
    return 0;
  }
  u->st.matched++;
  u->st.untrained += r->node_count[XPROF_ENTRY] == 0;
  return 1;
}

int xprof_use_replays(xprof_use *u, const char *name, const char *file, const xprof_proc *f) {
  const xprof_lineprof *lp = lines_of(u);
  if (!lp || !xprof_lineprof_find(lp, name, file))
    return 0;
  if (!f || lp->from_samples)
    return 1;
  return u->o->salvage <= 100 && !(lp->made_by & own_graphs(u)) && (lp->made_by & ~own_graphs(u));
}

uint64_t xprof_use_replay_count(xprof_use *u, const char *name, const char *file,
                                uint32_t decl_line, const xprof_line_loc *call,
                                const char *callee) {
  const xprof_lp_func *lf = lines_of(u) ? xprof_lineprof_find(u->lines, name, file) : NULL;
  uint64_t n = lf ? xprof_line_inlined(lf, decl_line, call, callee) : 0;
  return n && n >= xprof_cutoff_count(xprof_use_summary(u), XPROF_HOT_CUTOFF) ? n : 0;
}

int xprof_use_fn_sampled(const xprof_use *u, const xprof_use_fn *r) {
  return r->by_lines && u->lines && u->lines->from_samples;
}

int xprof_use_sampled(const xprof_use *u) {
  return !u->obj && u->lines && u->lines->from_samples;
}

const xprof_proc *xprof_use_records(const xprof_use_fn *r) {
  return r->salvaged || r->by_lines ? &r->view : r->f;
}

const xprof_objfile *xprof_use_values(const xprof_use *u) {
  return u->obj ? u->obj : &u->lines_obj;
}

uint64_t xprof_use_side_count(const xprof_use_fn *r, const xprof_graph *g, uint32_t i) {
  if (r->by_lines)
    return XPROF_NO_SIDE;
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
  for (uint32_t i = 0; i < r->n_owned; i++)
    xprof_free(r->owned[i]);
  xprof_free(r->owned);
  memset(r, 0, sizeof *r);
}

/* ---- the object file ------------------------------------------------------- */

/* Functions placed by lines: a warning where the profile's graphs were
 * meant to match (the object file has data: another compiler's or
 * version's training, other options); a note where the lines are all
 * there is (a profile of samples, an object file the data do not know:
 * a configure test's main may be placed by the program's, and a warning
 * would change the test's result). */
static void lines_note(const xprof_use *u) {
  const xprof_use_stats *st = &u->st;
  double pct = st->lines_total ? 100.0 * (double)st->lines_placed / (double)st->lines_total
                               : 100.0;
  char folded[96], text[640];
  folded_text(folded, sizeof folded, st->lines_total, st->lines_folded);
  snprintf(text, sizeof text,
           "%s: %u function%s did not match the profile's graphs (another compiler or version, "
           "other options, or changed code); their counts were placed by source line "
           "(%.0f%% of their line profile's counts found a place%s)%s",
           u->objpath, st->by_lines, xprof_plural(st->by_lines), pct, folded,
           st->unplaced ? "; the rest are compiled without profile data" : "");
  if (u->obj)
    xprof_warn(u->d, XPROF_W_COVERAGE_MISMATCH, "%s", text);
  else
    xprof_verbose(u->d, "%s: %u function%s given counts by source line from the line "
                  "profile (%s; %.0f%% of their counts found a place%s), %u without",
                  u->objpath, st->by_lines, xprof_plural(st->by_lines),
                  u->lines->from_samples ? "time samples" : "exact counts", pct, folded,
                  st->unplaced);
}

void xprof_use_close(xprof_use *u) {
  const xprof_use_stats *st = &u->st;
  if (u->profile && st->salvaged) {
    double pct = st->salvage_mass
                     ? 100.0 * (double)st->salvage_matched / (double)st->salvage_mass
                     : 100.0;
    const char *its = st->salvaged == 1 ? "its" : "their";
    char filled[96] = "";
    if (st->filled)
      snprintf(filled, sizeof filled, "; %u placed the rest by source line", st->filled);
    xprof_warn(u->d, XPROF_W_COVERAGE_MISMATCH,
               "%s: %u function%s changed since the training build; %s profile data was "
               "salvaged (%.0f%% of %s counts matched the new code%s)",
               u->objpath, st->salvaged, xprof_plural(st->salvaged), its, pct, its, filled);
  }
  if (st->by_lines)
    lines_note(u);
  if (u->profile || u->lines) {
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
  xprof_lineprof_free(u->lines);
  for (uint32_t i = 0; i < u->n_hashed; i++)
    xprof_free(u->hashed[i].path);
  xprof_free(u->hashed);
  u->hashed = NULL;
  u->n_hashed = u->cap_hashed = 0;
  u->profile = NULL;
  u->lines = NULL;
  u->obj = NULL;
}
