/* test_plan.c - what libxprof's compiler-side layer decides for both
 * plugins and the drivers: the options, the collect plan (layout and
 * descriptor values), the use plan (match, salvage, solve). */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "xprof_plan.h"

static void options_parse(void) {
  xprof_options o;
  xprof_error err;
  xprof_options_init(&o);
  CHECK(xprof_options_set(&o, "xprofile", "collect:prog", XPROF_OPT_GCC, &err) == 0);
  CHECK(xprof_options_set(&o, "update", "atomic", XPROF_OPT_GCC, &err) == 0);
  CHECK(xprof_options_set(&o, "values-per-site", "6", XPROF_OPT_GCC, &err) == 0);
  CHECK(xprof_options_set(&o, "skip-functions", "a*,,b*", XPROF_OPT_GCC, &err) == 0);
  CHECK(xprof_options_set(&o, "no-tls-counters", NULL, XPROF_OPT_GCC, &err) == 0);
  CHECK(xprof_options_set(&o, "verbose", "yes", XPROF_OPT_GCC, &err) == 0);
  CHECK(xprof_options_finish(&o, &err) == 0);
  CHECK(o.mode == XPROF_MODE_COLLECT);
  CHECK_STR(o.profile_name, "prog");
  CHECK(o.update == XPROF_UPDATE_ATOMIC);
  CHECK_U64(o.values_per_site, 6);
  CHECK_U64(o.skip_functions.n, 2);
  CHECK_STR(o.skip_functions.v[1], "b*");
  CHECK(!o.tls_counters && o.verbose);
  /* The rightmost mode wins; use names add up; tcov is collect. */
  CHECK(xprof_options_set(&o, "xprofile", "use:a", XPROF_OPT_GCC, &err) == 0);
  CHECK(xprof_options_set(&o, "xprofile", "use:b", XPROF_OPT_GCC, &err) == 0);
  CHECK(o.mode == XPROF_MODE_USE && !o.profile_name && o.use_names.n == 2);
  CHECK(xprof_options_set(&o, "xprofile", "tcov", XPROF_OPT_GCC, &err) == 0);
  CHECK(o.mode == XPROF_MODE_COLLECT && o.tcov && o.coverage == XPROF_COVERAGE_ASKED);
  CHECK_U64(o.use_names.n, 0);
  xprof_options_free(&o);
}

static void options_errors(void) {
  xprof_options o;
  xprof_error err;
  xprof_options_init(&o);
  CHECK(xprof_options_set(&o, "xprofile", "collect:", XPROF_OPT_LLVM, &err) < 0);
  CHECK_HAS(err.msg, "a profile name must follow the colon");
  CHECK(xprof_options_set(&o, "update", "sometimes", XPROF_OPT_LLVM, &err) < 0);
  CHECK_STR(err.msg, "expected thread, atomic or single");
  CHECK(xprof_options_set(&o, "values-per-site", "65", XPROF_OPT_LLVM, &err) < 0);
  CHECK_STR(err.msg, "expected a number from 0 to 64");
  CHECK(xprof_options_set(&o, "colour", "red", XPROF_OPT_LLVM, &err) < 0);
  CHECK(err.code == XPROF_ERR_NOTFOUND);
  CHECK(xprof_options_set(&o, "hot-inline", "10", XPROF_OPT_LLVM, &err) < 0);
  CHECK_STR(err.msg, "an option of the GCC plugin only");
  CHECK(xprof_options_set(&o, "pre-inline", "10", XPROF_OPT_GCC, &err) < 0);
  CHECK_STR(err.msg, "an option of the LLVM plugin only");
  CHECK(xprof_options_set(&o, "verbose", "maybe", XPROF_OPT_LLVM, &err) < 0);
  CHECK(xprof_options_set(&o, "no-verbose", "1", XPROF_OPT_LLVM, &err) < 0);
  CHECK(xprof_options_set(&o, "pathmap", "nocolon", XPROF_OPT_GCC, &err) < 0);
  CHECK_STR(err.msg, "expected COLLECT_PREFIX:USE_PREFIX");
  CHECK(xprof_options_set(&o, "salvage", "no", XPROF_OPT_GCC, &err) == 0);
  CHECK_U64(o.salvage, 101);
  /* No mode: refused; use without a name reads a.out's profile. */
  CHECK(xprof_options_finish(&o, &err) < 0);
  CHECK(xprof_options_set(&o, "xprofile", "use", XPROF_OPT_GCC, &err) == 0);
  CHECK(xprof_options_finish(&o, &err) == 0);
  CHECK(o.use_names.n == 1 && strcmp(o.use_names.v[0], "a.out") == 0);
  xprof_options_free(&o);
}

/* The options as a driver hands them to a plugin, read back. */
static void collect_pairs(void *ctx, const char *name, const char *value) {
  xprof_options *o = ctx;
  xprof_error err;
  if (xprof_options_set(o, name, value, XPROF_OPT_LLVM, &err) < 0)
    unit_failures++;
}

static void print_pairs(void *ctx, const char *name, const char *value) {
  FILE *f = ctx;
  fprintf(f, "%s%s%s\n", name, value ? "=" : "", value ? value : "");
}

static void options_round_trip(void) {
  xprof_options a, b;
  xprof_error err;
  xprof_options_init(&a);
  xprof_options_init(&b);
  const char *set[][2] = {{"xprofile", "use:x"}, {"xprofile", "use:y=1"},
                          {"pathmap", "/a:/b"},  {"salvage", "no"},
                          {"no-tls-counters", NULL}, {"split-cold", "0"},
                          {"warning", "coverage-mismatch:error"}, {"no-reorder-functions", NULL}};
  for (size_t i = 0; i < sizeof set / sizeof *set; i++)
    CHECK(xprof_options_set(&a, set[i][0], set[i][1], XPROF_OPT_LLVM, &err) == 0);
  xprof_options_each(&a, XPROF_OPT_LLVM, collect_pairs, &b);
  char *ta = NULL, *tb = NULL;
  size_t na, nb;
  FILE *fa = open_memstream(&ta, &na), *fb = open_memstream(&tb, &nb);
  xprof_options_each(&a, XPROF_OPT_LLVM, print_pairs, fa);
  xprof_options_each(&b, XPROF_OPT_LLVM, print_pairs, fb);
  fclose(fa);
  fclose(fb);
  CHECK_STR(ta, tb);
  CHECK_STR(ta, "xprofile=use:x\nxprofile=use:y=1\npathmap=/a:/b\nno-tls-counters\n"
                "salvage=no\nwarning=coverage-mismatch:error\nno-reorder-functions\n"
                "split-cold=0\n");
  free(ta);
  free(tb);
  xprof_options_free(&a);
  xprof_options_free(&b);
}

/* ext-tsp-blocks: each compiler's own default until given (its model's
 * cost differs), the value given for both once given; the default is not
 * handed on by the drivers, a given value is. */
static void ext_tsp_defaults(void) {
  xprof_options o;
  xprof_error err;
  xprof_options_init(&o);
  o.compiler = XPROF_OPT_GCC;
  CHECK_U64(xprof_ext_tsp_blocks(&o), 10000);
  o.compiler = XPROF_OPT_LLVM;
  CHECK_U64(xprof_ext_tsp_blocks(&o), 1000);
  char *text = NULL;
  size_t n;
  FILE *f = open_memstream(&text, &n);
  xprof_options_each(&o, XPROF_OPT_BOTH, print_pairs, f);
  fclose(f);
  CHECK_STR(text, "");
  free(text);
  /* The limit itself fits; one more does not, and the note says so in
   * the plugin's words. */
  char note[128];
  CHECK(xprof_ext_tsp_fits(&o, "f", 1000, note, sizeof note) == 1);
  CHECK(xprof_ext_tsp_fits(&o, "f", 1001, note, sizeof note) == 0);
  CHECK_STR(note, "blocks placed by LLVM's default: f ran 1001 blocks, more than "
                  "-xprof-ext-tsp-blocks=1000");
  o.compiler = XPROF_OPT_GCC;
  CHECK(xprof_ext_tsp_fits(&o, "g", 10001, note, sizeof note) == 0);
  CHECK_STR(note, "blocks placed by GCC's default: g ran 10001 blocks, more than "
                  "ext-tsp-blocks=10000");
  o.compiler = XPROF_OPT_LLVM;
  CHECK(xprof_options_set(&o, "ext-tsp-blocks", "1500", XPROF_OPT_LLVM, &err) == 0);
  CHECK_U64(xprof_ext_tsp_blocks(&o), 1500);
  o.compiler = XPROF_OPT_GCC;
  CHECK_U64(xprof_ext_tsp_blocks(&o), 1500);
  CHECK(xprof_options_set(&o, "ext-tsp-blocks", "0", XPROF_OPT_GCC, &err) == 0);
  CHECK_U64(xprof_ext_tsp_blocks(&o), 0);
  f = open_memstream(&text, &n);
  xprof_options_each(&o, XPROF_OPT_GCC, print_pairs, f);
  fclose(f);
  CHECK_STR(text, "ext-tsp-blocks=0\n");
  free(text);
  xprof_options_free(&o);
}

static void warning_flags(void) {
  xprof_options o;
  enum xprof_warning w;
  int clang;
  xprof_options_init(&o);
  CHECK(xprof_options_warning_flag(&o, "-Wno-coverage-mismatch", &w, &clang) == 1);
  CHECK(w == XPROF_W_COVERAGE_MISMATCH && !clang && o.warning[w] == XPROF_WARN_OFF);
  CHECK(xprof_options_warning_flag(&o, "-Werror=profile-instr-unprofiled", &w, &clang) == 1);
  CHECK(w == XPROF_W_MISSING_PROFILE && clang && o.warning[w] == XPROF_WARN_ERROR);
  CHECK(xprof_options_warning_flag(&o, "-Wno-error=missing-profile", &w, &clang) == 1);
  CHECK(o.warning[w] == XPROF_WARN_NO_ERROR);
  /* -Wno-error= of a warning that is off leaves it off. */
  CHECK(xprof_options_warning_flag(&o, "-Wno-error=coverage-mismatch", &w, &clang) == 1);
  CHECK(o.warning[XPROF_W_COVERAGE_MISMATCH] == XPROF_WARN_OFF);
  CHECK(xprof_options_warning_flag(&o, "-Wxprof-inexact", &w, &clang) == 1);
  CHECK(o.warning[XPROF_W_INEXACT] == XPROF_WARN_ON);
  CHECK(xprof_options_warning_flag(&o, "-Werror", &w, &clang) == 0);
  CHECK(xprof_options_warning_flag(&o, "-Wall", &w, &clang) == 0);
  CHECK(xprof_options_warning_flag(&o, "-Wno-unused", &w, &clang) == 0);
  xprof_options_free(&o);
}

/* A diamond ENTRY -> 2 -> {3, 4} -> 5 -> EXIT, with an indirect call in 3,
 * a memory-operation length in 4, and a side counter in 5. */
static void diamond(xprof_graph *g) {
  CHECK(xprof_graph_reserve(g, 6, 8, 2, 1) == 0);
  xprof_graph_edge(g, XPROF_ENTRY, 2, 0, 100, 0);
  xprof_graph_edge(g, 2, 3, 0, 60, 0);
  xprof_graph_edge(g, 2, 4, 0, 40, 0);
  xprof_graph_edge(g, 3, 5, 0, 60, 0);
  xprof_graph_edge(g, 4, 5, 0, 40, 0);
  xprof_graph_edge(g, 5, XPROF_EXIT, 0, 100, 0);
  g->site_node[0] = 3, g->site_kind[0] = XPROF_SITE_CALL, g->site_type[0] = XPROF_VP_PROC;
  g->site_node[1] = 4, g->site_kind[1] = XPROF_SITE_LENGTH, g->site_type[1] = XPROF_VP_LLONG;
  g->side_node[0] = 5, g->side_slot[0] = 0, g->n_side_counters = 1;
  for (uint32_t v = 2; v < 6; v++)
    g->hash[v] = xprof_block_hash_add(0, v);
  CHECK(xprof_graph_place(g) == 0);
}

static void collect_plan(void) {
  xprof_options o;
  xprof_options_init(&o);
  o.values_per_site = 3;
  xprof_graph g;
  diamond(&g);
  CHECK_U64(g.n_counters, 2); /* two edges of the diamond off the tree */
  CHECK_U64(g.side_counter[0], 2);
  xprof_plan p;
  xprof_plan_init(&p, &o, 1);
  const xprof_plan_fn *f = xprof_plan_add(&p, "f", &g, XPROF_FN_ADDRESS);
  const xprof_plan_fn *h = xprof_plan_add(&p, "h", &g, XPROF_FN_COMDAT);
  CHECK(f && h);
  f = &p.fns[0];
  /* f: three counters (two edges' and the side's) in the object's array,
   * its states there; h: its own array, counters then states then its
   * first-run word. */
  CHECK_U64(f->n_counters, 3);
  CHECK_U64(f->base, 0);
  CHECK_U64(f->sites[0].words, XPROF_ABI_VP_WORDS(3));
  CHECK_U64(f->sites[1].offset, XPROF_ABI_VP_WORDS(3));
  CHECK_U64(f->sites[1].word0, 3 | XPROF_ABI_VP_HISTOGRAM);
  CHECK_U64(f->first_run, 0);
  CHECK_U64(p.n_counters, 3);
  CHECK_U64(p.n_vp_words, XPROF_ABI_VP_WORDS(3) + XPROF_ABI_VP_HIST_WORDS);
  CHECK_U64(p.n_vp_init, 2);
  CHECK_U64(p.vp_init[1].at, XPROF_ABI_VP_WORDS(3));
  CHECK_U64(h->vp_base, 3);
  CHECK_U64(h->first_run, 3 + XPROF_ABI_VP_WORDS(3) + XPROF_ABI_VP_HIST_WORDS);
  CHECK_U64(xprof_plan_fn_words(&p, h), h->first_run + 1);
  CHECK(xprof_plan_in_twin(&p, f) && !xprof_plan_finds_copy(&p, f));
  char *name = xprof_plan_array_name(h, XPROF_ARRAY_TWIN_CELL);
  CHECK(strncmp(name, XPROF_ABI_STR(XPROF_TWIN_CELL_VAR) ".h.", 9) == 0);
  xprof_free(name);
  name = xprof_plan_array_name(f, XPROF_ARRAY_COUNTERS);
  CHECK_STR(name, XPROF_ABI_STR(XPROF_COUNTERS_VAR));
  xprof_free(name);
  /* The descriptors' fields. */
  xprof_value v[XPROF_ABI_PROC_N_FIELDS];
  xprof_plan_proc_values(&p, 1, v);
  CHECK(v[XPROF_ABI_PROC_address].kind == XPROF_VALUE_NULL);
  CHECK(v[XPROF_ABI_PROC_tls_array].kind == XPROF_VALUE_CELL);
  CHECK(v[XPROF_ABI_PROC_vp_sites].kind == XPROF_VALUE_SITE && v[XPROF_ABI_PROC_vp_sites].index == 2);
  CHECK(v[XPROF_ABI_PROC_first_run].kind == XPROF_VALUE_ELEMENT);
  for (unsigned i = 0; i < XPROF_ABI_PROC_N_FIELDS; i++)
    CHECK(v[i].kind != XPROF_VALUE_NONE);
  xprof_value ov[XPROF_ABI_OBJECT_N_FIELDS];
  xprof_plan_object_values(&p, "/b/x.o", ov);
  CHECK_U64(ov[XPROF_ABI_OBJECT_n_procs].number, 2);
  CHECK_U64(ov[XPROF_ABI_OBJECT_flags].number, XPROF_ABI_THREAD_COUNTERS);
  CHECK(ov[XPROF_ABI_OBJECT_profile_name].kind == XPROF_VALUE_NULL);
  /* A library's code (not for an executable): copies found at entry. */
  xprof_plan q;
  xprof_plan_init(&q, &o, 0);
  CHECK(xprof_plan_add(&q, "f", &g, 0) != NULL);
  CHECK(!xprof_plan_in_twin(&q, &q.fns[0]) && xprof_plan_finds_copy(&q, &q.fns[0]));
  /* An ifunc resolver, which may run before thread-local storage exists:
   * with per-thread counting, atomic adds to the shared array, in a
   * program or a library; with racy counters as the others. */
  CHECK(xprof_plan_add(&q, "r", &g, XPROF_FN_RESOLVER) != NULL);
  CHECK(!xprof_plan_finds_copy(&q, &q.fns[1]) && xprof_plan_atomic(&q, &q.fns[1]));
  CHECK(xprof_plan_add(&p, "r", &g, XPROF_FN_RESOLVER) != NULL);
  CHECK(!xprof_plan_in_twin(&p, &p.fns[2]) && xprof_plan_atomic(&p, &p.fns[2]));
  /* So does a coroutine, which may resume in another thread. */
  CHECK(xprof_plan_add(&p, "co", &g, XPROF_FN_COROUTINE) != NULL);
  CHECK(!xprof_plan_in_twin(&p, &p.fns[3]) && xprof_plan_atomic(&p, &p.fns[3]));
  xprof_plan_free(&q);
  o.update = XPROF_UPDATE_SINGLE;
  xprof_plan_init(&q, &o, 1);
  CHECK(xprof_plan_add(&q, "r", &g, XPROF_FN_RESOLVER) != NULL);
  CHECK(!xprof_plan_in_twin(&q, &q.fns[0]) && !xprof_plan_atomic(&q, &q.fns[0]));
  xprof_plan_free(&q);
  xprof_plan_free(&p);
  xprof_graph_free(&g);
  xprof_options_free(&o);
}

static void no_messages(void *ctx, xprof_diag_kind kind, enum xprof_warning w,
                        const char *text) {
  (void)kind, (void)w, (void)text;
  ++*(unsigned *)ctx;
}

static void use_match(void) {
  xprof_options o;
  xprof_options_init(&o);
  unsigned said = 0;
  xprof_diag d = {&o, no_messages, &said};
  xprof_graph g;
  diamond(&g);
  /* A profile of f on this very graph: 100 runs, 60 through node 3. */
  xprof_profile *prof = xprof_profile_new();
  xprof_objfile *obj = xprof_add_objfile(prof, "/b/x.o");
  xprof_proc *f = xprof_add_proc(prof, obj, "f");
  f->signature = g.signature;
  xprof_proc_alloc_counters(prof, f, 3);
  static const uint64_t count[6] = {100, 60, 40, 60, 40, 100}; /* diamond()'s edges */
  for (uint32_t e = 0; e < g.n_edges; e++)
    if (XPROF_HAS_COUNTER(g.counter_of_edge[e]))
      f->counters[g.counter_of_edge[e]] = count[e];
  f->counters[2] = 7; /* the side counter */
  xprof_use u;
  memset(&u, 0, sizeof u);
  u.o = &o;
  u.d = &d;
  u.objpath = "/b/x.o";
  u.obj = obj;
  xprof_use_fn r;
  CHECK(xprof_use_match(&u, "f", NULL, f, &g, NULL, NULL, &r) == 1);
  CHECK_U64(r.node_count[XPROF_ENTRY], 100);
  CHECK_U64(r.node_count[3], 60);
  CHECK_U64(xprof_use_side_count(&r, &g, 0), 7);
  xprof_use_fn_free(&r);
  /* Another signature and no shape to salvage by: a warning, no counts. */
  f->signature ^= 1;
  CHECK(xprof_use_match(&u, "f", NULL, f, &g, NULL, NULL, &r) == 0);
  CHECK_U64(said, 1);
  /* A graph that could not be built as the collect build's. */
  CHECK(xprof_use_match(&u, "f", NULL, f, NULL, NULL, NULL, &r) == 0);
  CHECK_U64(u.st.matched, 1);
  CHECK_U64(u.st.mismatched, 2);
  xprof_profile_free(prof);
  xprof_graph_free(&g);
  xprof_options_free(&o);
}

/* The places of the diamond's blocks: node k on line 10 + k. */
static void diamond_places(void *ctx, xprof_places *p) {
  static xprof_line_loc locs[4];
  for (uint32_t k = 2; k < 6; k++)
    locs[k - 2] = (xprof_line_loc){k, 10 + k, NULL, 0, 0};
  ++*(unsigned *)ctx;
  p->decl_line = 10;
  p->locs = locs;
  p->n_locs = 4;
}

/* A function whose procedure does not match (another compiler's graph)
 * takes its counts from the line profile, with one warning for the
 * object, and no records; a function the data do not know, but the lines
 * do, too; one neither knows has none.  A line profile's function that
 * ran only inlined gets an entry of its own. */
static void use_lines(void) {
  xprof_options o;
  xprof_options_init(&o);
  unsigned said = 0, asked = 0;
  xprof_diag d = {&o, no_messages, &said};
  xprof_graph g;
  diamond(&g);
  xprof_profile *prof = xprof_profile_new();
  xprof_objfile *obj = xprof_add_objfile(prof, "/b/x.o");
  xprof_proc *f = xprof_add_proc(prof, obj, "f");
  f->signature = g.signature ^ 1;
  xprof_proc_alloc_counters(prof, f, 3);
  f->counters[0] = 5, f->counters[1] = 7; /* another graph's */
  xprof_use u;
  memset(&u, 0, sizeof u);
  u.o = &o;
  u.d = &d;
  u.objpath = "/b/x.o";
  u.obj = obj;
  u.lines_read = 1;
  const char *text = XPROF_LP_EXACT_MARK "\nf:200:100\n 0: 100\n 2: 100\n 3: 60\n 4: 40\n"
                     " 5: 100\n 5: h:10\n  1: 10\n";
  xprof_error err;
  CHECK(xprof_lineprof_read_llvm("lines", text, strlen(text), &u.lines, &err) == 0);
  CHECK(xprof_lineprof_fold_inlined(u.lines, 0) == 0);
  CHECK_U64(u.lines->n_funcs, 2);
  CHECK(xprof_lineprof_find(u.lines, "h", NULL) != NULL);
  /* A function that ran inlined and out of line: only `all` adds its
   * inlined runs to its own entry. */
  const char *both = "f:20:1\n 5: h:10\n  1: 10\nh:3:3\n 1: 3\n";
  for (int all = 0; all < 2; all++) {
    xprof_lineprof *lp;
    CHECK(xprof_lineprof_read_llvm("both", both, strlen(both), &lp, &err) == 0);
    CHECK(xprof_lineprof_fold_inlined(lp, all) == 0);
    const xprof_lp_func *h = xprof_lineprof_find(lp, "h", NULL);
    CHECK(h && h->n_lines == 1);
    CHECK_U64(h ? h->lines[0].count : 0, all ? 13 : 3);
    xprof_lineprof_free(lp);
  }
  const xprof_proc *found;
  CHECK(xprof_use_find(&u, "f", NULL, &found) == 1 && found == f);
  xprof_use_fn r;
  CHECK(xprof_use_match(&u, "f", NULL, f, &g, diamond_places, &asked, &r) == 1);
  CHECK_U64(asked, 1);
  CHECK(r.by_lines && !r.salvaged);
  CHECK_U64(r.node_count[XPROF_ENTRY], 100);
  CHECK_U64(r.node_count[3], 60);
  CHECK_U64(r.node_count[4], 40);
  CHECK_U64(xprof_use_records(&r)->n_vp_records, 0);
  CHECK_U64(xprof_use_side_count(&r, &g, 0), XPROF_NO_SIDE);
  CHECK(!xprof_use_fn_sampled(&u, &r));
  xprof_use_fn_free(&r);
  /* Samples alone (no mark of exact counts, no data of the object's
   * own): a function without samples is unmeasured, not cold. */
  xprof_use s = u;
  CHECK(!xprof_use_sampled(&s));
  s.obj = NULL;
  CHECK(!xprof_use_sampled(&s));
  const char *samples = "f:3:1\n 0: 1\n 2: 2\n";
  CHECK(xprof_lineprof_read_llvm("samples", samples, strlen(samples), &s.lines, &err) == 0);
  CHECK(s.lines && s.lines->from_samples && xprof_use_sampled(&s));
  s.obj = obj;
  CHECK(!xprof_use_sampled(&s));
  xprof_lineprof_free(s.lines);
  CHECK(xprof_use_find(&u, "h", NULL, &found) == 1 && found == NULL);
  CHECK(xprof_use_find(&u, "nobody", NULL, &found) == 0);
  CHECK_U64(u.st.by_lines, 1);
  CHECK_U64(u.st.mismatched, 0);
  CHECK_U64(said, 0); /* no per-function warning: the object's, at close */
  xprof_use_close(&u);
  CHECK_U64(said, 1);
  xprof_profile_free(prof);
  xprof_graph_free(&g);
  xprof_options_free(&o);
}

const unit_test plan_tests[] = {{"plan/options_parse", options_parse},
                                {"plan/options_errors", options_errors},
                                {"plan/options_round_trip", options_round_trip},
    {"plan/ext_tsp_defaults", ext_tsp_defaults},
                                {"plan/warning_flags", warning_flags},
                                {"plan/collect_plan", collect_plan},
                                {"plan/use_match", use_match},
                                {"plan/use_lines", use_lines},
                                {NULL, NULL}};
