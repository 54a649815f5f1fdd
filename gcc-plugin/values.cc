/*
 * values.cc - the value-profile sites of a function: every value GCC's
 * own -fprofile-generate would measure (gimple_find_values_to_profile),
 * each kept as a record of the profile, and, at use, the histograms
 * GCC's own value-profile transformations read, built from those
 * records.
 *
 * GCC measures a value with one of several histograms; xprof keeps one
 * kind of record for all of them, the most frequent values and their
 * counts (abi/xprof_abi.h), and derives GCC's other histograms from it:
 *
 *   GCC histogram     xprof site (record)             use builds GCC's
 *   INDIR_CALL        the callee (VP_PROC)            speculative calls,
 *                                                     use.cc
 *   TOPN_VALUES       a divisor (VP_INT or VP_LLONG)  TOPN_VALUES
 *                     a string operation's size: a    TOPN_VALUES
 *                     length histogram (VP_LLONG)
 *   POW2              none: the divisor's site        POW2
 *   AVERAGE           none: the size's site           AVERAGE
 *   INTERVAL          the quotient a / b of an        INTERVAL
 *                     unsigned a % b (VP_INT/LLONG)
 *   IOR, TIME_PROFILE none
 *
 * A string operation's size is counted inline in a histogram of the
 * sizes 0 to 128 (abi/xprof_abi.h), as the LLVM pass counts lengths, with no
 * call: sizes vary a lot (sqlite's), where a divisor rarely does, and
 * GCC expands only short copies inline.  The destination's alignment
 * (GCC's IOR, a hint for how to expand the copy) is not kept: it cost a
 * site per string operation.
 *
 * Sites are numbered (expression ids) in the order GCC lists the
 * values, which is statement order, so collect and use agree on them as
 * they agree on the CFG.
 */
#include "gcc-common.h"

#include "xprof-gcc.h"
#include "xprof_abi.h"

static unsigned vp_type_of(tree value) {
  return TYPE_PRECISION(TREE_TYPE(value)) <= 32 ? XPROF_VP_INT : XPROF_VP_LLONG;
}

/* The last site of stmt's, if it is of the given kind. */
static xp_site *last_site_of(vec<xp_site> *sites, gimple *stmt, enum xprof_site_kind kind) {
  if (sites->is_empty())
    return NULL;
  xp_site *s = &sites->last();
  return s->stmt == stmt && s->kind == kind ? s : NULL;
}

unsigned xp_value_sites(vec<xp_site> *sites) {
  histogram_values values;
  gimple_find_values_to_profile(&values);
  sites->create(values.length());
  histogram_value h;
  unsigned i;
  FOR_EACH_VEC_ELT(values, i, h) {
    xp_site s = {h->hvalue.stmt, XPROF_SITE_CALL, h->hvalue.value, XPROF_VP_PROC, h, NULL, NULL};
    switch (h->type) {
    case HIST_TYPE_INDIR_CALL:
      break;
    case HIST_TYPE_TOPN_VALUES:
      s.kind = is_gimple_call(s.stmt) ? XPROF_SITE_LENGTH : XPROF_SITE_DIVISOR;
      s.vp_type = s.kind == XPROF_SITE_LENGTH ? (unsigned)XPROF_VP_LLONG : vp_type_of(s.value);
      break;
    case HIST_TYPE_INTERVAL:
      s.kind = XPROF_SITE_QUOTIENT;
      s.vp_type = vp_type_of(s.value);
      break;
    case HIST_TYPE_POW2:
    case HIST_TYPE_AVERAGE: {
      bool pow2 = h->type == HIST_TYPE_POW2;
      xp_site *of = last_site_of(sites, h->hvalue.stmt, pow2 ? XPROF_SITE_DIVISOR : XPROF_SITE_LENGTH);
      if (of) {
        (pow2 ? of->pow2 : of->average) = h;
        continue;
      }
      free(h);
      continue;
    }
    default: /* the alignment, the time profile, kinds of later GCCs */
      free(h);
      continue;
    }
    sites->quick_push(s);
  }
  values.release();
  return sites->length();
}

void xp_free_value_sites(vec<xp_site> *sites) {
  xp_site *s;
  unsigned i;
  FOR_EACH_VEC_ELT(*sites, i, s) {
    free(s->hist);
    free(s->pow2);
    free(s->average);
  }
  sites->release();
}

/* ---- collect: the value a site records --------------------------------- */

static tree gimplify_before(gimple_stmt_iterator *gsi, tree expr) {
  return force_gimple_operand_gsi(gsi, expr, true, NULL_TREE, true, GSI_SAME_STMT);
}

tree xp_site_value(const xp_site *s, gimple_stmt_iterator *gsi) {
  tree u64 = get_gcov_type(); /* signed; the same bits as the counters */
  tree v = unshare_expr(s->value);
  if (s->kind == XPROF_SITE_CALL) {
    if (TREE_CODE(v) == OBJ_TYPE_REF)
      v = OBJ_TYPE_REF_EXPR(v);
    return gimplify_before(gsi, fold_convert(ptr_type_node, v));
  }
  if (s->kind == XPROF_SITE_LENGTH)
    return gimplify_before(gsi, fold_convert(unsigned_type_for(u64), v));
  /* As the runtime keeps it: an int sign-extended from 32 bits. */
  if (s->vp_type == XPROF_VP_INT)
    v = fold_convert(intSI_type_node, v);
  return gimplify_before(gsi, fold_convert(u64, v));
}

/* ---- use: GCC's histograms from a site's record -------------------------- */

/* A record's values with counts scaled so that they sum to `all`, the
 * count of the statement's block: GCC takes any other sum for a corrupt
 * profile (check_counter), and ours differ from the block's count only
 * where the profile is not exact (a run cut short by a signal, updates
 * that raced). */
struct xp_values {
  gcov_type value[64], count[64];
  unsigned n;
  gcov_type all;
};

static bool scaled_values(const xprof_objfile *o, const xprof_vp_record *rec, gcov_type all,
                          xp_values *out) {
  uint32_t order[64];
  uint64_t total;
  /* Largest first, as GCC's reader sorts them (sort_hist_values). */
  uint32_t k = xprof_vp_order(o, rec, order, &total);
  out->n = 0;
  out->all = all;
  if (!total || all <= 0)
    return false;
  for (uint32_t i = 0; i < k; i++) {
    const xprof_vp_value *v = &rec->values[order[i]];
    /* A length histogram's longer lengths are no value: in `all` only. */
    if (v->bits == XPROF_ABI_VP_HIST_OTHER)
      continue;
    uint64_t c = total == (uint64_t)all
                     ? v->count
                     : (uint64_t)((double)v->count * (double)all / (double)total);
    if (!c)
      continue;
    out->value[out->n] = (gcov_type)v->bits;
    out->count[out->n++] = (gcov_type)MIN(c, (uint64_t)all);
  }
  return out->n > 0;
}

static void attach(histogram_value h, const gcov_type *counters, unsigned n) {
  h->n_counters = n;
  h->hvalue.counters = XNEWVEC(gcov_type, n);
  memcpy(h->hvalue.counters, counters, n * sizeof *counters);
  gimple_add_histogram_value(cfun, h->hvalue.stmt, h);
}

/* The value as its type holds it (the record keeps an int sign-extended). */
static unsigned HOST_WIDE_INT in_type(gcov_type v, tree type) {
  unsigned prec = TYPE_PRECISION(type);
  unsigned HOST_WIDE_INT u = (unsigned HOST_WIDE_INT)v;
  return prec >= 64 ? u : u & ((HOST_WIDE_INT_1U << prec) - 1);
}

static void attach_topn(xp_site *s, const xp_values *v) {
  gcov_type c[2 + 2 * 64];
  c[0] = v->all;
  c[1] = v->n;
  for (unsigned k = 0; k < v->n; k++) {
    c[2 + 2 * k] = v->value[k];
    c[3 + 2 * k] = v->count[k];
  }
  attach(s->hist, c, 2 + 2 * v->n);
  s->hist = NULL;
  tree type = TREE_TYPE(s->value);
  if (s->pow2) { /* counters[0]: not a power of two, [1]: a power of two */
    gcov_type p[2] = {v->all, 0};
    for (unsigned k = 0; k < v->n; k++) {
      unsigned HOST_WIDE_INT u = in_type(v->value[k], type);
      if (u && !(u & (u - 1))) {
        p[1] += v->count[k];
        p[0] -= v->count[k];
      }
    }
    attach(s->pow2, p, 2);
    s->pow2 = NULL;
  }
  if (s->average) { /* counters[0]: the sum of the sizes, [1]: how many */
    gcov_type a[2] = {0, 0};
    for (unsigned k = 0; k < v->n; k++) {
      unsigned HOST_WIDE_INT u = in_type(v->value[k], type);
      a[0] = (gcov_type)xprof_sat_add((uint64_t)a[0], (uint64_t)u * (uint64_t)v->count[k]);
      a[1] += v->count[k];
    }
    /* The sizes the histogram kept must be most of them, or their
     * average says little about what GCC should expand for. */
    if (2 * a[1] >= v->all)
      attach(s->average, a, 2);
    else
      free(s->average);
    s->average = NULL;
  }
}

/* GCC's interval [0, 2): counters of 0, of 1, of values above, below. */
static void attach_interval(xp_site *s, const xp_values *v) {
  gcov_type c[4] = {0, 0, 0, 0};
  for (unsigned k = 0; k < v->n; k++) {
    unsigned HOST_WIDE_INT u = in_type(v->value[k], TREE_TYPE(s->value));
    c[u < 2 ? u : 2] += v->count[k];
  }
  c[2] += v->all - (c[0] + c[1] + c[2]); /* what scaling left over */
  s->hist->hdata.intvl.int_start = 0;
  s->hist->hdata.intvl.steps = 2;
  attach(s->hist, c, 4);
  s->hist = NULL;
}

static const xprof_vp_record *record_of(const xprof_proc *f, uint32_t site, unsigned type) {
  for (uint32_t r = 0; r < f->n_vp_records; r++)
    if (f->vp[r].expr_id == site)
      return f->vp[r].type == (xprof_vp_type)type ? &f->vp[r] : NULL;
  return NULL;
}

unsigned xp_apply_value_sites(const xprof_objfile *o, const xprof_proc *f,
                              vec<xp_site> *sites) {
  unsigned n = 0;
  xp_site *s;
  unsigned i;
  FOR_EACH_VEC_ELT(*sites, i, s) {
    if (s->kind == XPROF_SITE_CALL)
      continue;
    const xprof_vp_record *rec = record_of(f, i, s->vp_type);
    xp_values v;
    profile_count bb = gimple_bb(s->stmt)->count.ipa();
    if (!rec || !bb.initialized_p() || !scaled_values(o, rec, bb.to_gcov_type(), &v))
      continue;
    if (s->kind == XPROF_SITE_QUOTIENT)
      attach_interval(s, &v);
    else
      attach_topn(s, &v);
    n++;
  }
  return n;
}
