/*
 * collect.c - the plan of a collect build's object file: where each
 * function's counters, value-profile states and first-run word go, how
 * its comdat arrays are named, and what every field of the descriptors
 * the runtime reads (abi/xprof_abi.h) holds.  A plugin describes each
 * function's graph (xprof_graph), adds it here, and then only writes its
 * IR as the plan says: increments at the edges' counters, value records
 * at the sites' states, the arrays and the descriptors.
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "xprof_plan.h"

void xprof_plan_init(xprof_plan *p, const xprof_options *o, int executable) {
  memset(p, 0, sizeof *p);
  p->o = o;
  /* Thread-local twins are for code that goes into an executable, whose
   * TLS is static (a shared library's may not be). */
  p->twins = o->update == XPROF_UPDATE_THREAD && o->tls_counters && executable;
}

void xprof_plan_free(xprof_plan *p) {
  for (uint32_t i = 0; i < p->n_fns; i++) {
    xprof_free((void *)p->fns[i].name);
    xprof_free(p->fns[i].sites);
    xprof_free(p->fns[i].shape);
  }
  xprof_free(p->fns);
  xprof_free(p->vp_init);
  memset(p, 0, sizeof *p);
}

/* A site's state: (value, count) pairs, or for the lengths of memory
 * operations a histogram that the compiled code counts in. */
static void lay_out_sites(const xprof_plan *p, const xprof_graph *g, xprof_plan_fn *f) {
  unsigned n = p->o->values_per_site;
  for (uint32_t s = 0; s < g->n_sites; s++) {
    int hist = g->site_kind[s] == XPROF_SITE_LENGTH;
    xprof_plan_site *site = &f->sites[s];
    site->kind = g->site_kind[s];
    site->type = g->site_type[s];
    site->offset = f->vp_words;
    site->words = hist ? XPROF_ABI_VP_HIST_WORDS : XPROF_ABI_VP_WORDS(n);
    site->word0 = n | (hist ? XPROF_ABI_VP_HISTOGRAM : 0);
    f->vp_words += site->words;
  }
}

/* The key in the names of a comdat function's arrays.  It covers every
 * word of the array -- the first-run word as one more state of one word
 * -- so that copies of another layout never share an array. */
static int comdat_key(const xprof_plan *p, const xprof_graph *g, xprof_plan_fn *f) {
  uint32_t *words = xprof_malloc(((size_t)f->n_sites + 2) * sizeof *words);
  if (!words)
    return -1;
  for (uint32_t s = 0; s < f->n_sites; s++)
    words[s] = f->sites[s].words;
  words[f->n_sites] = 1;
  f->comdat_key = xprof_comdat_key(f->signature, g->edges, g->n_edges, f->n_debug != 0, words,
                                   f->n_sites + (p->o->reorder_functions != 0));
  xprof_free(words);
  return 0;
}

/* Where f's counters, states and first-run word go: a comdat array of
 * its own (counters, then states, then the first-run word), or its share
 * of the object file's arrays. */
static int place(xprof_plan *p, xprof_plan_fn *f) {
  if (f->comdat) {
    f->base = 0;
    f->vp_base = f->n_counters;
    f->first_run = p->o->reorder_functions ? f->n_counters + f->vp_words : XPROF_NO_FIRST_RUN;
    return 0;
  }
  f->first_run = p->o->reorder_functions ? p->n_first_runs++ : XPROF_NO_FIRST_RUN;
  f->base = p->n_counters;
  f->vp_base = p->n_vp_words;
  p->n_counters += f->n_counters;
  for (uint32_t s = 0; s < f->n_sites; s++) {
    if (xprof_grow((void **)&p->vp_init, &p->cap_vp_init, p->n_vp_init, sizeof *p->vp_init) < 0)
      return -1;
    p->vp_init[p->n_vp_init++] = (xprof_plan_word){f->vp_base + f->sites[s].offset,
                                                   f->sites[s].word0};
  }
  p->n_vp_words += f->vp_words;
  return 0;
}

xprof_plan_fn *xprof_plan_add(xprof_plan *p, const char *name, const xprof_graph *g,
                              unsigned flags) {
  if (xprof_grow((void **)&p->fns, &p->cap_fns, p->n_fns, sizeof *p->fns) < 0)
    return NULL;
  xprof_plan_fn *f = &p->fns[p->n_fns];
  memset(f, 0, sizeof *f);
  f->name = xprof_format("%s", name);
  f->sites = xprof_calloc((size_t)g->n_sites + 1, sizeof *f->sites);
  if (!f->name || !f->sites)
    goto fail;
  f->signature = g->signature;
  f->comdat = (flags & XPROF_FN_COMDAT) != 0;
  f->take_address = (flags & XPROF_FN_ADDRESS) != 0;
  f->shared_atomic = (flags & (XPROF_FN_COROUTINE | XPROF_FN_RESOLVER)) &&
                     p->o->update == XPROF_UPDATE_THREAD;
  f->n_sites = g->n_sites;
  f->first_site = p->n_sites;
  f->n_edge_counters = (uint32_t)g->n_counters;
  f->n_side_counters = g->n_side_counters;
  for (uint32_t e = 0; p->o->all_edges && e < g->n_edges; e++)
    f->n_debug += XPROF_DEBUG_COUNTED(g->edges[e].flags);
  f->n_counters = f->n_edge_counters + f->n_side_counters + f->n_debug;
  lay_out_sites(p, g, f);
  /* Its shape, for salvaging its counts after an edit (none when out of
   * memory: the function is profiled all the same). */
  xprof_shape shape = xprof_graph_shape(g);
  if (xprof_shape_encode(&shape, &f->shape, &f->shape_size) < 0)
    f->shape = NULL;
  if ((f->comdat && comdat_key(p, g, f) < 0) || place(p, f) < 0)
    goto fail;
  p->n_sites += f->n_sites;
  p->n_fns++;
  return f;
fail:
  xprof_free((void *)f->name);
  xprof_free(f->sites);
  xprof_free(f->shape);
  return NULL;
}

int xprof_plan_in_twin(const xprof_plan *p, const xprof_plan_fn *f) {
  return p->twins && f->n_counters && !f->shared_atomic;
}

int xprof_plan_finds_copy(const xprof_plan *p, const xprof_plan_fn *f) {
  return p->o->update == XPROF_UPDATE_THREAD && !p->twins && f->n_counters && !f->shared_atomic;
}

int xprof_plan_atomic(const xprof_plan *p, const xprof_plan_fn *f) {
  return p->o->update == XPROF_UPDATE_ATOMIC || f->shared_atomic;
}

int xprof_plan_records_values(const xprof_plan *p) { return p->o->values_per_site > 0; }

uint32_t xprof_plan_fn_words(const xprof_plan *p, const xprof_plan_fn *f) {
  return f->n_counters + f->vp_words + (p->o->reorder_functions != 0);
}

char *xprof_plan_array_name(const xprof_plan_fn *f, enum xprof_plan_array a) {
  static const char *const names[] = {
      XPROF_ABI_STR(XPROF_COUNTERS_VAR), XPROF_ABI_STR(XPROF_TWIN_VAR),
      XPROF_ABI_STR(XPROF_TWIN_CELL_VAR), XPROF_ABI_STR(XPROF_THREAD_WORD_VAR)};
  static const char *const comdat[] = {
      XPROF_ABI_STR(XPROF_COMDAT_COUNTERS), XPROF_ABI_STR(XPROF_TWIN_VAR),
      XPROF_ABI_STR(XPROF_TWIN_CELL_VAR), XPROF_ABI_STR(XPROF_THREAD_WORD_VAR)};
  if (!f || !f->comdat)
    return xprof_format("%s", names[a]);
  return xprof_comdat_array_name(comdat[a], f->name, f->comdat_key);
}

uint64_t xprof_plan_signature(const xprof_plan *p) {
  uint64_t sig = XPROF_OBJECT_SIGNATURE_INIT;
  for (uint32_t i = 0; i < p->n_fns; i++)
    sig = xprof_object_signature_add(sig, p->fns[i].signature);
  return sig;
}

/* ---- the descriptors ---------------------------------------------------- */

/* A value of that kind, everything else zero. */
static xprof_value value(enum xprof_value_kind kind) {
  xprof_value v;
  memset(&v, 0, sizeof v);
  v.kind = kind;
  return v;
}

static xprof_value number(uint64_t n) {
  xprof_value v = value(XPROF_VALUE_NUMBER);
  v.number = n;
  return v;
}

static xprof_value string(const char *s, const char *symbol) {
  xprof_value v = value(s ? XPROF_VALUE_STRING : XPROF_VALUE_NULL);
  v.string = s;
  v.symbol = symbol;
  return v;
}

static xprof_value element(uint32_t fn, enum xprof_value_array array, uint32_t index) {
  xprof_value v = value(XPROF_VALUE_ELEMENT);
  v.fn = fn;
  v.array = array;
  v.index = index;
  return v;
}

static xprof_value other(enum xprof_value_kind kind, uint32_t fn, uint32_t index) {
  xprof_value v = value(kind);
  v.fn = fn;
  v.index = index;
  return v;
}

static void clear(xprof_value *v, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    v[i] = other(XPROF_VALUE_NONE, 0, 0);
}

void xprof_plan_site_values(const xprof_plan *p, uint32_t fn, uint32_t s,
                            xprof_value v[XPROF_ABI_SITE_N_FIELDS]) {
  const xprof_plan_fn *f = &p->fns[fn];
  clear(v, XPROF_ABI_SITE_N_FIELDS);
  v[XPROF_ABI_SITE_type] = number(f->sites[s].type);
  v[XPROF_ABI_SITE_expr_id] = number(s);
  v[XPROF_ABI_SITE_state] = element(fn, XPROF_IN_VP, f->vp_base + f->sites[s].offset);
}

void xprof_plan_proc_values(const xprof_plan *p, uint32_t fn,
                            xprof_value v[XPROF_ABI_PROC_N_FIELDS]) {
  const xprof_plan_fn *f = &p->fns[fn];
  clear(v, XPROF_ABI_PROC_N_FIELDS);
  v[XPROF_ABI_PROC_name] = string(f->name, XPROF_ABI_STR(XPROF_NAME_CONST));
  v[XPROF_ABI_PROC_signature] = number(f->signature);
  v[XPROF_ABI_PROC_id] = number(fn);
  v[XPROF_ABI_PROC_n_counters] = number(f->n_counters);
  v[XPROF_ABI_PROC_counters] = element(fn, XPROF_IN_COUNTERS, f->base);
  v[XPROF_ABI_PROC_n_vp_sites] = number(f->n_sites);
  v[XPROF_ABI_PROC_array_offset] = number(f->base);
  v[XPROF_ABI_PROC_vp_sites] = other(f->n_sites ? XPROF_VALUE_SITE : XPROF_VALUE_NULL, fn,
                                     f->first_site);
  v[XPROF_ABI_PROC_address] = other(f->take_address ? XPROF_VALUE_FUNCTION : XPROF_VALUE_NULL,
                                    fn, 0);
  v[XPROF_ABI_PROC_tls_array] =
      other(xprof_plan_in_twin(p, f) ? XPROF_VALUE_CELL : XPROF_VALUE_NULL, fn, 0);
  v[XPROF_ABI_PROC_first_run] = f->first_run == XPROF_NO_FIRST_RUN
                                    ? other(XPROF_VALUE_NULL, fn, 0)
                                    : element(fn, XPROF_IN_FIRST_RUN, f->first_run);
  v[XPROF_ABI_PROC_shape] = other(f->shape ? XPROF_VALUE_BYTES : XPROF_VALUE_NULL, fn, 0);
  v[XPROF_ABI_PROC_shape].bytes = f->shape;
  v[XPROF_ABI_PROC_shape].size = (uint32_t)f->shape_size;
  v[XPROF_ABI_PROC_shape].symbol = XPROF_ABI_STR(XPROF_SHAPE_CONST);
  v[XPROF_ABI_PROC_shape_size] = number(f->shape ? f->shape_size : 0);
}

void xprof_plan_object_values(const xprof_plan *p, const char *path,
                              xprof_value v[XPROF_ABI_OBJECT_N_FIELDS]) {
  uint64_t sec;
  uint32_t usec;
  xprof_compile_time(&sec, &usec);
  clear(v, XPROF_ABI_OBJECT_N_FIELDS);
  v[XPROF_ABI_OBJECT_abi_version] = number(XPROF_ABI_VERSION);
  v[XPROF_ABI_OBJECT_flags] = number(p->o->update == XPROF_UPDATE_THREAD ? XPROF_ABI_THREAD_COUNTERS
                                     : p->o->update == XPROF_UPDATE_ATOMIC
                                         ? XPROF_ABI_ATOMIC_COUNTERS
                                         : 0);
  v[XPROF_ABI_OBJECT_path] = string(path, XPROF_ABI_STR(XPROF_PATH_CONST));
  v[XPROF_ABI_OBJECT_tv_sec] = number(sec);
  v[XPROF_ABI_OBJECT_tv_usec] = number(usec);
  v[XPROF_ABI_OBJECT_n_values_per_vp] = number(p->o->values_per_site);
  v[XPROF_ABI_OBJECT_signature] = number(xprof_plan_signature(p));
  v[XPROF_ABI_OBJECT_profile_name] =
      string(p->o->profile_name, XPROF_ABI_STR(XPROF_PROFILE_NAME_CONST));
  v[XPROF_ABI_OBJECT_n_procs] = number(p->n_fns);
  v[XPROF_ABI_OBJECT_n_counters] = number(p->n_counters);
  v[XPROF_ABI_OBJECT_procs] = other(XPROF_VALUE_PROC, 0, 0);
  v[XPROF_ABI_OBJECT_counters] = element(XPROF_OBJECT, XPROF_IN_COUNTERS, 0);
  v[XPROF_ABI_OBJECT_next] = other(XPROF_VALUE_NULL, 0, 0);
  v[XPROF_ABI_OBJECT_runtime_reserved] = other(XPROF_VALUE_NULL, 0, 0);
}

/* ---- what the plugins write beside the code ------------------------------ */

void xprof_plan_note(const xprof_plan *p, const char *objpath, const xprof_diag *d) {
  uint32_t n[XPROF_SITE_KINDS] = {0};
  for (uint32_t i = 0; i < p->n_fns; i++)
    for (uint32_t s = 0; s < p->fns[i].n_sites; s++)
      n[p->fns[i].sites[s].kind]++;
  uint32_t divs = n[XPROF_SITE_DIVISOR] + n[XPROF_SITE_QUOTIENT];
  xprof_verbose(d,
                "%s: %u procedure%s, %u counter%s, %u indirect-call site%s, %u "
                "memory-operation site%s, %u division site%s%s (%s updates)",
                objpath ? objpath : "?", p->n_fns, xprof_plural(p->n_fns), p->n_counters,
                xprof_plural(p->n_counters), n[XPROF_SITE_CALL], xprof_plural(n[XPROF_SITE_CALL]),
                n[XPROF_SITE_LENGTH], xprof_plural(n[XPROF_SITE_LENGTH]), divs,
                xprof_plural(divs), xprof_plan_records_values(p) ? "" : ", values not recorded",
                p->o->update == XPROF_UPDATE_THREAD   ? "per-thread"
                : p->o->update == XPROF_UPDATE_ATOMIC ? "atomic"
                                                      : "single-threaded");
}

FILE *xprof_plan_cfg_dump(const char *objpath, const xprof_diag *d) {
  char *name = objpath ? xprof_format("%s.xpcfg", objpath) : NULL;
  FILE *f = name ? fopen(name, "w") : NULL;
  if (f)
    xprof_cfgdump_begin(f);
  else
    xprof_warn(d, XPROF_W_COVERAGE_TABLE, "cannot write %s", name ? name : "the CFG dump");
  xprof_free(name);
  return f;
}

/* Where the coverage table goes.  Asked for (-xprofile=tcov, tcov-dir,
 * tcov:NAME): into the directory the options name, under the object's
 * name in the profile (path), else beside the object file (file), where
 * xprof_tcov looks it up.  A collect build did not ask for coverage: its
 * table goes into the object file itself, so that the build leaves
 * nothing new beside its objects and the table goes wherever the object
 * goes (make clean removes both; a compilation on another machine sends
 * it back with the object).  So does an asked-for table when there is no
 * object file to put it beside. */
char *xprof_plan_write_coverage(xprof_linetab *t, const xprof_options *o, const char *file,
                                const char *path, const xprof_diag *d) {
  int asked = o->coverage == XPROF_COVERAGE_ASKED;
  const char *dir = o->coverage_dir;
  const char *name = !asked ? NULL : dir ? path : file;
  if (asked && !xprof_linetab_has_lines(t))
    xprof_warn(d, XPROF_W_COVERAGE_TABLE,
               "no line information: the coverage table of %s has none (compile with -g)",
               name ? name : path ? path : "this object");
  if (!name) {
    char *text, *a = NULL;
    size_t len;
    if (xprof_linetab_take(t, &text, &len) == 0) {
      char *entry = xprof_format("%s %zu %s\n", XPROF_TABLE_ENTRY, len, path ? path : "");
      size_t head = entry ? strlen(entry) : 0;
      char *bytes = entry ? xprof_realloc(entry, head + len) : NULL;
      if (bytes) {
        memcpy(bytes + head, text, len);
        a = xprof_plan_section_asm(XPROF_TABLE_SECTION, "", bytes, head + len);
      }
      xprof_free(bytes ? bytes : entry);
      free(text); /* the C library's (open_memstream) */
    }
    if (!a && (asked || o->verbose))
      xprof_warn(d, XPROF_W_COVERAGE_TABLE, "coverage table not written: out of memory");
    return a;
  }
  xprof_error err;
  if (xprof_linetab_write(t, name, dir, &err) < 0 && (asked || o->verbose))
    xprof_warn(d, XPROF_W_COVERAGE_TABLE, "coverage table not written: %s", err.msg);
  return NULL;
}
