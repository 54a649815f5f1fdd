/* test_lineprof.c - line-level profiles (views/lineprof.c) and the
 * compilers' sample formats (views/sample_formats.c): how copies of a
 * function add up, how inlined call sites nest, and the bytes GCC reads. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "unit.h"
#include "xprof_plan.h"
#include "xprof_views.h"

/* A function row of lp named `name`, declared at a.c:decl. */
/* xprof_line_counts on the places locs[0..n) of a function declared at
 * decl (the source's lines unknown). */
static int line_counts(const xprof_lineprof *lp, const xprof_lp_func *f, uint32_t decl,
                       uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                       const xprof_line_loc *locs, uint32_t n, uint64_t *ec, uint64_t *nc,
                       xprof_line_match *m) {
  xprof_places p = {decl, locs, n, NULL, 0, NULL, NULL};
  return xprof_line_counts(lp, f, &p, n_nodes, edges, n_edges, NULL, ec, nc, m);
}

static xprof_lp_func *func(xprof_lineprof *lp, const char *name, uint32_t decl) {
  xprof_grow((void **)&lp->funcs, &lp->cap_funcs, lp->n_funcs, sizeof *lp->funcs);
  xprof_lp_func *f = &lp->funcs[lp->n_funcs++];
  memset(f, 0, sizeof *f);
  f->name = xprof_format("%s", name);
  f->file = xprof_format("a.c");
  f->decl_line = decl;
  return f;
}

/* Inline `name` (declared at decl) at offset `at` of f. */
static xprof_lp_func *inline_at(xprof_lp_func *f, uint32_t at, const char *name, uint32_t decl) {
  xprof_lp_func *c = xprof_calloc(1, sizeof *c);
  c->name = xprof_format("%s", name);
  c->file = xprof_format("a.c");
  c->decl_line = decl;
  xprof_grow((void **)&f->calls, &f->cap_calls, f->n_calls, sizeof *f->calls);
  f->calls[f->n_calls++] = (xprof_lp_call){at, 0, c};
  return c;
}

static char *llvm_text(const xprof_lineprof *lp) {
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  CHECK(xprof_lineprof_write_llvm(f, lp) == 0);
  fclose(f);
  return out;
}

/* Each of the n texts bad[] is refused, for its line 3. */
static void rejected_at_line_3(const char *const *bad, size_t n) {
  for (size_t i = 0; i < n; i++) {
    xprof_lineprof *b = NULL;
    xprof_error err;
    CHECK(xprof_lineprof_read_llvm("bad.txt", bad[i], strlen(bad[i]), &b, &err) < 0);
    CHECK_HAS(err.msg, "bad.txt:3:");
  }
}

/* main calls work (inlined at offset 3) twice over: two copies of main
 * (a static function of one header in two objects) add up, a line of
 * two blocks keeps the busier, and a different function of the same
 * name is left out with a note. */
static void merging(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *m = func(lp, "main", 10);
  m->head = 1;
  xprof_lineprof_add(m, 0, 0, 1);
  xprof_lineprof_add(m, 2, 0, 5);
  xprof_lineprof_add(m, 2, 0, 7); /* two blocks of one line */
  xprof_lp_func *w = inline_at(m, 3, "work", 20);
  xprof_lineprof_add(w, 1, 0, 100);
  m = func(lp, "main", 10);
  m->head = 2;
  xprof_lineprof_add(m, 2, 0, 3);
  w = inline_at(m, 3, "work", 20);
  xprof_lineprof_add(w, 1, 0, 50);
  xprof_lineprof_add(w, 2, 0, 9);
  xprof_lp_func *other = func(lp, "main", 40); /* another file's */
  xprof_lineprof_add(other, 0, 0, 1);
  CHECK(xprof_lineprof_finish(lp) == 0);
  CHECK_U64(lp->n_funcs, 1);
  CHECK_U64(lp->funcs[0].head, 3);
  CHECK_U64(lp->n_notes, 1);
  CHECK_HAS(lp->notes[0], "1 function shares a name with a busier one declared elsewhere");
  char *text = llvm_text(lp);
  /* Line 2 is two blocks, the least busy 5 in one copy and 3 in the other. */
  CHECK_STR(text, XPROF_LP_EXACT_MARK "\nmain:170:3\n #xprof-source 10 a.c\n"
                  " 0: 1\n 2: 10\n #xprof-blocks 2 2:8\n"
                  " 3: work:159\n  #xprof-source 20 a.c\n  1: 150\n  2: 9\n");
  free(text);
  xprof_lineprof_free(lp);
}

/* Static functions of one name in two sources are two functions: both
 * stay, each found by its source however a compilation spells the path,
 * through clang's text and back; the compilers' formats keep the
 * busiest, with a note. */
static void statics(void) {
  CHECK(xprof_same_source("/src/lib/a.c", "lib/a.c") && xprof_same_source("../../lib/a.c", "a.c") &&
        xprof_same_source("./a.c", "/x/a.c") && xprof_same_source(NULL, "b.c"));
  CHECK(!xprof_same_source("lib/a.c", "src/a.c") && !xprof_same_source("a.c", "b.c") &&
        !xprof_same_source("..", "a.c") && !xprof_same_source("x/a.c", "xa.c"));
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *a = func(lp, "work", 3);
  xprof_lineprof_add(a, 2, 0, 100);
  xprof_lp_func *b = func(lp, "work", 12);
  xprof_free(b->file);
  b->file = xprof_format("/src/b.c");
  xprof_lineprof_add(b, 4, 0, 7);
  xprof_lp_func *a2 = func(lp, "work", 3); /* a.c's again, from another image */
  xprof_lineprof_add(a2, 2, 0, 20);
  CHECK(xprof_lineprof_finish(lp) == 0);
  CHECK_U64(lp->n_funcs, 2);
  CHECK_U64(lp->n_notes, 0);
  const xprof_lp_func *fa = xprof_lineprof_find(lp, "work", "lib/a.c");
  const xprof_lp_func *fb = xprof_lineprof_find(lp, "work", "b.c");
  CHECK(fa && fa->total == 120 && fb && fb->total == 7);
  CHECK(xprof_lineprof_find(lp, "work", NULL) == fa); /* the busiest */
  CHECK(xprof_lineprof_find(lp, "work", "c.c") == NULL);
  char *text = llvm_text(lp);
  CHECK_STR(text, XPROF_LP_EXACT_MARK "\nwork:120:0\n #xprof-source 3 a.c\n 2: 120\n"
                  "work:7:0\n #xprof-source 12 /src/b.c\n 4: 7\n");
  xprof_lineprof *back = NULL;
  xprof_error err;
  CHECK(xprof_lineprof_read_llvm("lines", text, strlen(text), &back, &err) == 0);
  CHECK(back && back->n_funcs == 2);
  fb = back ? xprof_lineprof_find(back, "work", "src/b.c") : NULL;
  CHECK(fb && fb->decl_line == 12 && fb->total == 7);
  free(text);
  CHECK(xprof_lineprof_unique(lp) == 0);
  CHECK_U64(lp->n_funcs, 1);
  CHECK_U64(lp->funcs[0].total, 120);
  CHECK_U64(lp->n_notes, 1);
  CHECK_HAS(lp->notes[0], "1 function shares a name with a busier one declared elsewhere");
  CHECK_HAS(lp->notes[0], "the compilers' sample profiles name functions only");
  xprof_lineprof_free(back);
  xprof_lineprof_free(lp);
  /* A source line without a path, and a malformed one. */
  const char *one = "f:5:1\n #xprof-source 9\n 1: 5\n";
  CHECK(xprof_lineprof_read_llvm("one", one, strlen(one), &back, &err) == 0);
  CHECK(back->funcs[0].decl_line == 9 && back->funcs[0].file == NULL);
  xprof_lineprof_free(back);
  const char *bad[] = {"f:5:1\n 1: 5\n #xprof-source x.c\n", "f:5:1\n 1: 5\n #xprof-source 9x\n"};
  rejected_at_line_3(bad, 2);
  /* An inlined instance keeps its source through the text too, and the
   * function it stands for is that file's, not any of its name. */
  const char *nested = "run_b:7:1\n #xprof-source 71 b.c\n 0: work:7\n  #xprof-source 60 /src/b.c\n"
                       "  4: 7\n";
  CHECK(xprof_lineprof_read_llvm("nested", nested, strlen(nested), &back, &err) == 0);
  const xprof_lp_func *in = back && back->n_funcs == 1 && back->funcs[0].n_calls == 1
                                ? back->funcs[0].calls[0].callee
                                : NULL;
  CHECK(in && in->decl_line == 60 && in->file && strcmp(in->file, "/src/b.c") == 0);
  text = llvm_text(back);
  CHECK_STR(text, nested);
  free(text);
  CHECK(xprof_lineprof_fold_inlined(back, 0) == 0);
  CHECK_U64(back->n_funcs, 2);
  CHECK(xprof_lineprof_find(back, "work", "a.c") == NULL);
  fb = xprof_lineprof_find(back, "work", "b.c");
  CHECK(fb && fb->decl_line == 60 && fb->total == 7);
  xprof_lineprof_free(back);
}

/* A function's source hash goes through clang's text and back; copies
 * compiled from one source keep it, copies from two versions of the
 * source (one edited between two compilations) know none; a malformed
 * hash is refused. */
static void source_hashes(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  const uint64_t h = 0x0123456789abcdefull;
  xprof_lp_func *f = func(lp, "work", 3);
  f->source_hash = h;
  xprof_lineprof_add(f, 2, 0, 100);
  xprof_lp_func *again = func(lp, "work", 3);
  again->source_hash = h;
  xprof_lineprof_add(again, 2, 0, 20);
  xprof_lp_func *g = func(lp, "walk", 9);
  g->source_hash = h;
  xprof_lineprof_add(g, 1, 0, 5);
  xprof_lp_func *g2 = func(lp, "walk", 9);
  g2->source_hash = h + 1;
  xprof_lineprof_add(g2, 1, 0, 5);
  CHECK(xprof_lineprof_finish(lp) == 0);
  CHECK_U64(lp->n_funcs, 2);
  const xprof_lp_func *w = xprof_lineprof_find(lp, "work", "a.c");
  const xprof_lp_func *k = xprof_lineprof_find(lp, "walk", "a.c");
  CHECK(w && w->source_hash == h && w->total == 120);
  CHECK(k && k->source_hash == 0 && k->total == 10);
  char *text = llvm_text(lp);
  CHECK_STR(text, XPROF_LP_EXACT_MARK "\nwalk:10:0\n #xprof-source 9 a.c\n 1: 10\n"
                  "work:120:0\n #xprof-source 3 a.c\n"
                  " " XPROF_LP_SOURCE_HASH " 0x123456789abcdef\n 2: 120\n");
  xprof_lineprof *back = NULL;
  xprof_error err;
  CHECK(xprof_lineprof_read_llvm("lines", text, strlen(text), &back, &err) == 0);
  w = back ? xprof_lineprof_find(back, "work", "a.c") : NULL;
  CHECK(w && w->source_hash == h && w->decl_line == 3);
  free(text);
  xprof_lineprof_free(back);
  xprof_lineprof_free(lp);
  const char *bad[] = {"f:5:1\n 1: 5\n #xprof-file-hash 12\n",
                       "f:5:1\n 1: 5\n #xprof-file-hash 0xfg\n",
                       "f:5:1\n 1: 5\n #xprof-file-hash 0x11112222333344445\n"};
  rejected_at_line_3(bad, 3);
}

/* Copies of one comdat function share their counts: one is kept. */
static void comdat(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  for (int i = 0; i < 2; i++) {
    xprof_lp_func *f = func(lp, "_Z3addii", 5);
    f->comdat = 1;
    f->head = 4;
    xprof_lineprof_add(f, 1, 0, 4);
  }
  CHECK(xprof_lineprof_finish(lp) == 0);
  char *text = llvm_text(lp);
  CHECK_STR(text, XPROF_LP_EXACT_MARK "\n_Z3addii:4:4\n #xprof-source 5 a.c\n 1: 4\n");
  free(text);
  xprof_lineprof_free(lp);
}

static uint32_t word(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* GCC's AutoFDO data, word by word: header, sorted names, one function
 * with a position (and its indirect call's callee) and an inlined call
 * site, the module section. */
static void gcc_bytes(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *m = func(lp, "main", 10);
  m->head = 1;
  xprof_lineprof_add(m, 2, 0, 7);
  xprof_lineprof_target(m, 2, 0, "work", 3); /* an indirect call's callee */
  xprof_lineprof_value(m, 2, 0, XPROF_SITE_DIVISOR, 7, 3); /* not in GCC's format */
  xprof_lp_func *w = inline_at(m, 3, "work", 20);
  xprof_lineprof_add(w, 1, 0, 0x100000005ull);
  func(lp, "never", 1); /* did not run: not written */
  CHECK(xprof_lineprof_finish(lp) == 0);
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  CHECK(xprof_lineprof_write_gcc(f, lp) == 0);
  fclose(f);
  const unsigned char *p = (const unsigned char *)out;
  /* An empty name first: GCC 12 cannot look up index 0. */
  uint32_t expect[] = {0x67636461, 2, 0, 0xaa000000, 4 + 5 + 9 + 9, 3, 1};
  for (unsigned i = 0; i < sizeof expect / sizeof *expect; i++)
    CHECK_U64(word(p + 4 * i), expect[i]);
  CHECK(p[28] == 0);
  CHECK_U64(word(p + 29), 5);
  CHECK(memcmp(p + 33, "main", 5) == 0);
  CHECK_U64(word(p + 38), 5);
  CHECK(memcmp(p + 42, "work", 5) == 0);
  p += 47;
  uint32_t body[] = {0xac000000, 0, 1, /* head */ 1, 0, /* main */ 1, 1, 1,
                     2u << 16, 1, 7, 0, /* indirect call: work */ 7, 2, 0, 3, 0,
                     /* call at 3 */ 3u << 16, /* work */ 2, 1, 0,
                     1u << 16, 0, 5, 1, 0xae000000, 4, 0};
  body[1] = (uint32_t)((sizeof body / 4 - 5) * 4); /* the section's bytes after its length */
  for (unsigned i = 0; i < sizeof body / sizeof *body; i++)
    CHECK_U64(word(p + 4 * i), body[i]);
  CHECK_U64(len, 47 + sizeof body);
  free(out);
  xprof_lineprof_free(lp);
}


/* clang's text read back: nesting, discriminators, indirect-call targets
 * kept, metadata passed over, repeats added up; what is not the format
 * is refused with its line. */
static void read_llvm(void) {
  const char *text = "# a comment\n"
                     "main:170:3\n"
                     " 0: 1\n"
                     " 2.1: 10 foo:6 bar:4\n"
                     " !CFGChecksum: 12\n"
                     " 3: work:159\r\n"
                     "  1: 150\n"
                     "  2: 9\n"
                     " 2.1: 5\n"
                     " 3.2: work:40\n"
                     "  1: 40\n"
                     " 3: work:1\n"
                     "  2: 1\n"
                     "a::b:1:1\n"
                     " 0: 1\n";
  xprof_lineprof *lp;
  xprof_error err;
  CHECK(xprof_lineprof_read_llvm("t.prof", text, strlen(text), &lp, &err) == 0);
  char *out = llvm_text(lp);
  /* work inlined twice on line 3, told apart by the discriminator: both
   * kept; the same instance given twice adds up. */
  CHECK_STR(out, "a::b:1:1\n 0: 1\nmain:216:3\n 0: 1\n 2.1: 15 bar:4 foo:6\n 3: work:160\n"
                 "  1: 150\n  2: 10\n 3.2: work:40\n  1: 40\n");
  xprof_lineprof *again;
  CHECK(xprof_lineprof_read_llvm("again", out, strlen(out), &again, &err) == 0);
  char *twice = llvm_text(again);
  CHECK_STR(twice, out);
  CHECK(lp->from_samples && again->from_samples);
  /* Exact counts say so, and are read back as such. */
  xprof_lineprof *exact;
  char *marked = xprof_format(XPROF_LP_EXACT_MARK "\n%s", out);
  CHECK(xprof_lineprof_read_llvm("exact", marked, strlen(marked), &exact, &err) == 0);
  CHECK(!exact->from_samples);
  char *thrice = llvm_text(exact);
  CHECK_STR(thrice, marked);
  free(thrice);
  xprof_free(marked);
  xprof_lineprof_free(exact);
  free(out);
  free(twice);
  xprof_lineprof_free(lp);
  xprof_lineprof_free(again);
  const char *bad[] = {"main:1\n", "main:1:1\n  0: 1\n", "main:1:1\n x: 1\n",
                       "main:1:1\n 1: \n", "[main:1 @ f]:1:1\n", " 0: 1\n",
                       "main:1:1\n 1: 5 foo\n", "main:1:1\n 0: 1\n 1: 5 foo:x\n",
                       "main:1:1\n 1: 5x\n", "main:1:1\n 1: 5 :3\n",
                       "main:1:1\n 65536: 1\n", "main:1:1\n 65536: f:1\n"};
  const char *where[] = {"t:1:", "t:2:", "t:2:", "t:2:", "t:1:", "t:1:", "t:2:", "t:3:",
                         "t:2:", "t:2:", "t:2: a line offset beyond 65535",
                         "t:2: a line offset beyond 65535"};
  for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
    CHECK(xprof_lineprof_read_llvm("t", bad[i], strlen(bad[i]), &lp, &err) == -1);
    CHECK_HAS(err.msg, where[i]);
  }
  /* A NUL is no text (a name would end there; found by fuzz_exports). */
  const char nul[] = "main:1:1\n 0: 1\n\0 1: 6\n";
  CHECK(xprof_lineprof_read_llvm("t", nul, sizeof nul - 1, &lp, &err) == -1);
  CHECK_HAS(err.msg, "t:3:");
  /* Text without a terminator is read to its end and no further (under
   * ASan, the C library's number parsing read past it; fuzz_exports). */
  const char *open_end[] = {"main:1:1\n 0: 12", "main:1:1\n 0.7", "main:1:1\n 0: g:3",
                            "main:1:12", "# xprof line profile: exact counts from g"};
  const int accepted[] = {1, 0, 1, 1, 1};
  for (unsigned i = 0; i < sizeof open_end / sizeof *open_end; i++) {
    size_t n = strlen(open_end[i]);
    char *exact = malloc(n);
    memcpy(exact, open_end[i], n);
    int rc = xprof_lineprof_read_llvm("t", exact, n, &lp, &err);
    CHECK(rc == (accepted[i] ? 0 : -1));
    if (rc == 0)
      xprof_lineprof_free(lp);
    free(exact);
  }
}


/* A diamond's counts from a line profile: one branch inlined from sq (a
 * nested instance, 7), the other's line at 0 (it never ran), a place
 * inlined from a function the profile never saw inlined (no estimate).
 * The three runs the branches' estimates leave out go where raising an
 * estimate costs least: through the branch that was seen to run, not the
 * one seen not to.  Without the 0 line, the other branch has no estimate
 * and takes the three; with neither branch's lines, the branches share
 * the runs evenly (the cheapest flow would take one and leave the other
 * at 0, "never run").  The counts a function could place are its own
 * lines' and those of the instances inlined into it that its code here
 * has: without sq's code, sq's 7 are not main's to place (sq's own entry
 * takes them), and main's own lines are all placed. */
static void counts_by_line(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *m = func(lp, "main", 10);
  m->head = 10;
  xprof_lineprof_add(m, 1, 0, 10);
  xprof_lineprof_add(m, 3, 0, 0);
  xprof_lineprof_add(m, 4, 0, 10);
  xprof_lineprof_add(inline_at(m, 2, "sq", 50), 1, 0, 7);
  CHECK(xprof_lineprof_finish(lp) == 0);
  const xprof_edge d[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {2, 4, 0, 0, 0},
                          {3, 5, 0, 0, 0}, {4, 5, 0, 0, 0}, {5, 1, 0, 0, 0}};
  xprof_inline_frame sq[] = {{"sq", "a.c", 50, 12}}, other[] = {{"other", "a.c", 60, 13}};
  xprof_line_loc locs[] = {{2, 11, NULL, 0, 0}, {3, 51, sq, 1, 0}, {4, 13, NULL, 0, 0},
                           {4, 70, other, 1, 0}, {5, 14, NULL, 0, 0}};
  uint64_t ec[6], nc[6];
  xprof_line_match mt;
  /* The training inlined sq at main's line 12 (offset 2), 7 runs. */
  xprof_line_loc call = {2, 12, NULL, 0, 0};
  CHECK_U64(xprof_line_inlined(&lp->funcs[0], 10, &call, "sq"), 7);
  CHECK_U64(xprof_line_inlined(&lp->funcs[0], 10, &call, "other"), 0);
  call.line = 13;
  CHECK_U64(xprof_line_inlined(&lp->funcs[0], 10, &call, "sq"), 0);
  /* sq inlined twice on line 13 (a profile of AutoFDO's tools tells them
   * apart by discriminator; places here carry none): the busier. */
  xprof_lineprof *two = xprof_calloc(1, sizeof *two);
  xprof_lp_func *m2 = func(two, "main", 10);
  xprof_lineprof_add(inline_at(m2, 3, "sq", 50), 1, 0, 4);
  xprof_lineprof_add(inline_at(m2, 3, "sq", 50), 1, 0, 9);
  m2->calls[1].discr = 2;
  CHECK(xprof_lineprof_finish(two) == 0);
  CHECK_U64(two->funcs[0].n_calls, 2);
  CHECK_U64(xprof_line_inlined(&two->funcs[0], 10, &call, "sq"), 9);
  xprof_lineprof_free(two);
  CHECK(line_counts(NULL, &lp->funcs[0], 10, 6, d, 6, locs, 5, ec, nc, &mt) == 1);
  CHECK_U64(mt.located, 5);
  CHECK_U64(mt.matched, 3);
  CHECK_U64(mt.total, 27);
  CHECK_U64(mt.placed, 27);
  CHECK_U64(nc[0], 10);
  CHECK_U64(nc[2], 10);
  CHECK_U64(nc[3], 10);
  CHECK_U64(nc[4], 0);
  CHECK_U64(ec[1], 10);
  CHECK_U64(ec[2], 0);
  CHECK_U64(ec[5], 10);
  /* No line 13: node 4 has no estimate. */
  xprof_line_loc unlined[] = {{2, 11, NULL, 0, 0}, {3, 51, sq, 1, 0}, {4, 19, NULL, 0, 0},
                              {5, 14, NULL, 0, 0}};
  CHECK(line_counts(NULL, &lp->funcs[0], 10, 6, d, 6, unlined, 4, ec, nc, &mt) == 1);
  CHECK_U64(nc[3], 7);
  CHECK_U64(nc[4], 3);
  /* Neither branch's lines: an even split. */
  xprof_line_loc neither[] = {{2, 11, NULL, 0, 0}, {3, 18, NULL, 0, 0}, {4, 19, NULL, 0, 0},
                              {5, 14, NULL, 0, 0}};
  CHECK(line_counts(NULL, &lp->funcs[0], 10, 6, d, 6, neither, 4, ec, nc, &mt) == 1);
  CHECK_U64(mt.total, 20);
  CHECK_U64(mt.placed, 20);
  CHECK_U64(nc[3], 5);
  CHECK_U64(nc[4], 5);
  CHECK_U64(ec[1], 5);
  CHECK_U64(ec[3], 5);
  CHECK_U64(nc[5], 10);
  /* Declared elsewhere now: no place is found, the compiler's estimates
   * stand. */
  xprof_line_loc moved[] = {{2, 3, NULL, 0, 0}};
  CHECK(line_counts(NULL, &lp->funcs[0], 40, 6, d, 6, moved, 1, ec, nc, &mt) == 0);
  CHECK_U64(mt.matched, 0);
  xprof_lineprof_free(lp);
}

/* Blocks that share a place.  A macro's tokens all have the expansion's
 * line and column: `x = *p; if (x >= 0x80) slow();` at main's line 11 is a
 * test (2) and a call (3) that never ran (the line's blocks: 100 and 0).
 * The call, which the test dominates, does not take the line's 100 (with
 * it the flow would go all through the call): the training's place was
 * several blocks too, and the call, which no other place estimates,
 * takes the least busy one's 0.  Where the training had one block there
 * (once: its compiler made the branch a select), nothing says how often
 * the call ran: it has no estimate and the branch is split evenly.  Where
 * the place's blocks all ran as often
 * (`a && b`, both tests 10 times, in both's line 31), the second test
 * keeps the count: without it, the flow would leave it out.  A loop
 * condition copied ahead of its loop (block 2, and 4 in the loop that 2
 * is not in; 1 and 10 runs in training) keeps the count in the loop:
 * without it the loop, whose body has no line, would not run at all. */
/* Lines the source had that no place took were folded away by the
 * compiler (an if/else made a select): not counted against the share
 * placed.  main (line 10): lines 11 and 14 placed, 12 (30) folded; sq
 * inlined at 13 (declared at 50 here): 51 placed, 52 (5) folded.  Lines
 * the source did not have (edited away), or that it cannot say, count. */
static int had_main_12_sq_52(void *ctx, const char *fn, uint32_t line) {
  int *calls = ctx;
  ++*calls;
  if (strcmp(fn, "main") == 0)
    return line == 12 || line == 11 || line == 14 ? 1 : 0;
  return strcmp(fn, "sq") == 0 ? line == 52 || line == 51 : -1;
}

static int had_nothing(void *ctx, const char *fn, uint32_t line) {
  (void)ctx, (void)fn, (void)line;
  return -1;
}

static void folded_lines(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *m = func(lp, "main", 10);
  m->head = 10;
  xprof_lineprof_add(m, 1, 0, 10);
  xprof_lineprof_add(m, 2, 0, 30);
  xprof_lineprof_add(m, 4, 0, 10);
  xprof_lp_func *sq = inline_at(m, 3, "sq", 50);
  xprof_lineprof_add(sq, 1, 0, 7);
  xprof_lineprof_add(sq, 2, 0, 5);
  CHECK(xprof_lineprof_finish(lp) == 0);
  const xprof_edge d[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {3, 4, 0, 0, 0}, {4, 1, 0, 0, 0}};
  xprof_inline_frame at13[] = {{"sq", "a.c", 50, 13}};
  xprof_line_loc locs[] = {{2, 11, NULL, 0, 0}, {3, 51, at13, 1, 0}, {4, 14, NULL, 0, 0}};
  uint64_t ec[4], nc[5];
  xprof_line_match mt;
  int calls = 0;
  xprof_places p = {10, locs, 3, NULL, 0, had_main_12_sq_52, &calls};
  CHECK(xprof_line_counts(lp, &lp->funcs[0], &p, 5, d, 4, NULL, ec, nc, &mt) == 1);
  CHECK_U64(mt.placed, 27);
  CHECK_U64(mt.total, 27);
  CHECK_U64(mt.folded, 35);
  CHECK_U64(nc[2], 10);
  CHECK_U64(nc[3], 10);
  /* Asked only of the lines no place took: main's 12, sq's 52. */
  CHECK_U64(calls, 2);
  p.had_line = had_nothing;
  CHECK(xprof_line_counts(lp, &lp->funcs[0], &p, 5, d, 4, NULL, ec, nc, &mt) == 1);
  CHECK_U64(mt.total, 62);
  CHECK_U64(mt.folded, 0);
  p.had_line = NULL;
  CHECK(xprof_line_counts(lp, &lp->funcs[0], &p, 5, d, 4, NULL, ec, nc, &mt) == 1);
  CHECK_U64(mt.placed, 27);
  CHECK_U64(mt.total, 62);
  /* Declared at 20 here, main's lines moved by 10: main had line 22, not
   * 12 -- its 30 count again. */
  xprof_inline_frame at23[] = {{"sq", "a.c", 50, 23}};
  xprof_line_loc moved[] = {{2, 21, NULL, 0, 0}, {3, 51, at23, 1, 0}, {4, 24, NULL, 0, 0}};
  p = (xprof_places){20, moved, 3, NULL, 0, had_main_12_sq_52, &calls};
  CHECK(xprof_line_counts(lp, &lp->funcs[0], &p, 5, d, 4, NULL, ec, nc, &mt) == 1);
  CHECK_U64(mt.placed, 27);
  CHECK_U64(mt.total, 57);
  CHECK_U64(mt.folded, 5);
  xprof_lineprof_free(lp);
}

/* The table of a compilation's own lines that the plugins note: each
 * function's lines sorted and once, looked up by name; a function not
 * noted cannot say (-1). */
static void source_lines(void) {
  xprof_source_lines t;
  memset(&t, 0, sizeof t);
  uint32_t work[] = {14, 9, 11, 9, 12, 14}, main_[] = {20, 21};
  CHECK(xprof_source_lines_add(&t, "work", work, 6) == 0);
  CHECK(xprof_source_lines_add(&t, "main", main_, 2) == 0);
  CHECK(xprof_source_lines_add(&t, "empty", NULL, 0) == 0);
  CHECK_U64(t.n, 3);
  CHECK(xprof_source_lines_had(&t, "work", 9) == 1);
  CHECK(xprof_source_lines_had(&t, "work", 14) == 1);
  CHECK(xprof_source_lines_had(&t, "work", 10) == 0);
  CHECK(xprof_source_lines_had(&t, "main", 21) == 1);
  CHECK(xprof_source_lines_had(&t, "main", 9) == 0);
  CHECK(xprof_source_lines_had(&t, "other", 9) == -1);
  CHECK(xprof_source_lines_had(&t, "empty", 1) == -1);
  /* Added after a lookup: sorted again. */
  uint32_t late[] = {3};
  CHECK(xprof_source_lines_add(&t, "abc", late, 1) == 0);
  CHECK(xprof_source_lines_had(&t, "abc", 3) == 1);
  CHECK(xprof_source_lines_had(&t, "work", 12) == 1);
  xprof_source_lines_free(&t);
  CHECK_U64(t.n, 0);
}

static void shared_place(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *f = func(lp, "main", 10);
  f->head = 100;
  xprof_lineprof_add(f, 1, 0, 100);
  xprof_lineprof_add(f, 1, 0, 0);
  xprof_lineprof_add(f, 2, 0, 100);
  f = func(lp, "guarded", 20);
  f->head = 1;
  xprof_lineprof_add(f, 1, 0, 10);
  xprof_lineprof_add(f, 1, 0, 1);
  xprof_lineprof_add(f, 3, 0, 1);
  f = func(lp, "both", 30);
  f->head = 10;
  xprof_lineprof_add(f, 1, 0, 10);
  xprof_lineprof_add(f, 1, 0, 10);
  xprof_lineprof_add(f, 2, 0, 0);
  xprof_lineprof_add(f, 3, 0, 10);
  f = func(lp, "once", 10);
  f->head = 100;
  xprof_lineprof_add(f, 1, 0, 100);
  xprof_lineprof_add(f, 2, 0, 100);
  CHECK(xprof_lineprof_finish(lp) == 0);
  const xprof_edge tri[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {2, 4, 0, 0, 0}, {3, 4, 0, 0, 0},
                            {4, 1, 0, 0, 0}};
  xprof_line_loc macro[] = {{2, 11, NULL, 0, 7}, {3, 11, NULL, 0, 7}, {4, 12, NULL, 0, 0}};
  uint64_t ec[8], nc[8];
  xprof_line_match mt;
  const xprof_lp_func *mf = xprof_lineprof_find(lp, "main", NULL);
  CHECK(line_counts(NULL, mf, 10, 5, tri, 5, macro, 3, ec, nc, &mt) == 1);
  CHECK_U64(mt.matched, 3);
  CHECK_U64(mt.placed, 200);
  CHECK_U64(nc[2], 100);
  CHECK_U64(nc[3], 0);
  CHECK_U64(ec[2], 100);
  CHECK_U64(nc[4], 100);
  CHECK(line_counts(NULL, xprof_lineprof_find(lp, "once", NULL), 10, 5, tri, 5, macro, 3, ec,
                          nc, &mt) == 1);
  CHECK_U64(nc[3], 50);
  CHECK_U64(ec[2], 50);
  /* 2 (a) -> 3 (b) -> 4 (then) -> 6; 2 -> 5 (else), 3 -> 5; 5 -> 6. */
  const xprof_edge and[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {2, 5, 0, 0, 0}, {3, 4, 0, 0, 0},
                            {3, 5, 0, 0, 0}, {4, 6, 0, 0, 0}, {5, 6, 0, 0, 0}, {6, 1, 0, 0, 0}};
  xprof_line_loc tests[] = {{2, 31, NULL, 0, 9}, {3, 31, NULL, 0, 9}, {4, 32, NULL, 0, 0},
                            {5, 33, NULL, 0, 0}};
  const xprof_lp_func *both = xprof_lineprof_find(lp, "both", NULL);
  CHECK(line_counts(NULL, both, 30, 7, and, 8, tests, 4, ec, nc, &mt) == 1);
  CHECK_U64(nc[3], 10);
  CHECK_U64(ec[4], 10);
  CHECK_U64(nc[4], 0);
  /* 2 -> 3 (body) -> 4 (condition) -> 3 | 5; 2 -> 5 -> exit. */
  const xprof_edge loop[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {2, 5, 0, 0, 0}, {3, 4, 0, 0, 0},
                             {4, 3, 0, 0, 0}, {4, 5, 0, 0, 0}, {5, 1, 0, 0, 0}};
  xprof_line_loc copied[] = {{2, 21, NULL, 0, 3}, {3, 29, NULL, 0, 0}, {4, 21, NULL, 0, 3},
                             {5, 23, NULL, 0, 0}};
  CHECK(line_counts(NULL, xprof_lineprof_find(lp, "guarded", NULL), 20, 6, loop, 7, copied, 4,
                          ec, nc, &mt) == 1);
  CHECK_U64(nc[2], 1);
  CHECK_U64(nc[3], 10);
  CHECK_U64(nc[4], 10);
  CHECK_U64(ec[5], 1);
  xprof_lineprof_free(lp);
}

/* helper, called by main at line 12 in training (main's 10 runs), is
 * inlined there now: its code takes helper's own lines (40 entries; its
 * branch taken 8 times) scaled to the call, 10 of 40; those are not
 * main's counts placed.  Without the whole profile, the branch has no
 * estimates and is split evenly. */
static void callee_scaled(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *m = func(lp, "main", 10);
  m->head = 10;
  xprof_lineprof_add(m, 1, 0, 10);
  xprof_lineprof_add(m, 2, 0, 10);
  xprof_lineprof_add(m, 4, 0, 10);
  xprof_lp_func *h = func(lp, "helper", 80);
  h->head = 40;
  xprof_lineprof_add(h, 1, 0, 40);
  xprof_lineprof_add(h, 2, 0, 8);
  xprof_lineprof_add(h, 3, 0, 32);
  CHECK(xprof_lineprof_finish(lp) == 0);
  const xprof_edge d[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {3, 4, 0, 0, 0}, {3, 5, 0, 0, 0},
                          {4, 6, 0, 0, 0}, {5, 6, 0, 0, 0}, {6, 1, 0, 0, 0}};
  xprof_inline_frame at12[] = {{"helper", "a.c", 80, 12}};
  xprof_line_loc locs[] = {{2, 11, NULL, 0, 0}, {3, 81, at12, 1, 0}, {4, 82, at12, 1, 0},
                           {5, 83, at12, 1, 0}, {6, 14, NULL, 0, 0}};
  const xprof_lp_func *mf = xprof_lineprof_find(lp, "main", NULL);
  uint64_t ec[7], nc[7];
  xprof_line_match mt;
  CHECK(line_counts(lp, mf, 10, 7, d, 7, locs, 5, ec, nc, &mt) == 1);
  CHECK_U64(mt.matched, 5);
  CHECK_U64(mt.scaled, 3);
  CHECK_U64(mt.placed, 20);
  CHECK_U64(nc[3], 10);
  CHECK_U64(nc[4], 2);
  CHECK_U64(nc[5], 8);
  CHECK_U64(nc[6], 10);
  CHECK(line_counts(NULL, mf, 10, 7, d, 7, locs, 5, ec, nc, &mt) == 1);
  CHECK_U64(mt.scaled, 0);
  CHECK_U64(nc[4], 5);
  CHECK_U64(nc[5], 5);
  xprof_lineprof_free(lp);
}

/* The callees of indirect calls, by line: two sites of one line add up,
 * a callee on a line the function does not have goes, copies of a
 * static function add up, and a use build finds them by place -- in an
 * instance inlined in training, and through the callee's own entry,
 * scaled to the call, where the training called it. */
/* Clang's text `out` (malloc'd, freed here) read back and written again
 * is the same text. */
static void reads_back(char *out) {
  xprof_lineprof *again = NULL;
  xprof_error err;
  CHECK(xprof_lineprof_read_llvm("again", out, strlen(out), &again, &err) == 0);
  char *twice = again ? llvm_text(again) : NULL;
  CHECK_STR(twice, out);
  free(twice);
  xprof_lineprof_free(again);
  free(out);
}

static void targets(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *m = func(lp, "main", 10);
  m->head = 10;
  xprof_lineprof_add(m, 2, 0, 10);
  xprof_lineprof_target(m, 2, 0, "f", 3);
  xprof_lineprof_target(m, 2, 0, "g", 1);
  xprof_lineprof_target(m, 2, 0, "f", 4); /* another call on the line */
  xprof_lineprof_target(m, 9, 0, "f", 5); /* no line 9 */
  xprof_lp_func *w = inline_at(m, 3, "work", 20);
  xprof_lineprof_add(w, 1, 0, 6);
  xprof_lineprof_target(w, 1, 0, "g", 6);
  xprof_lp_func *h = func(lp, "helper", 40);
  h->head = 20;
  xprof_lineprof_add(h, 1, 0, 20);
  xprof_lineprof_target(h, 1, 0, "f", 20);
  xprof_lp_func *h2 = func(lp, "helper", 40); /* a copy in another object */
  h2->head = 20;
  xprof_lineprof_add(h2, 1, 0, 20);
  xprof_lineprof_target(h2, 1, 0, "f", 10);
  xprof_lineprof_add(m, 5, 0, 10); /* main calls helper at line 15 */
  CHECK(xprof_lineprof_finish(lp) == 0);
  const xprof_lp_func *mf = xprof_lineprof_find(lp, "main", NULL);
  CHECK_U64(mf->n_targets, 2);
  char *out = llvm_text(lp);
  CHECK_STR(out, XPROF_LP_EXACT_MARK "\nhelper:40:40\n #xprof-source 40 a.c\n 1: 40 f:30\n"
                 "main:26:10\n #xprof-source 10 a.c\n 2: 10 f:7 g:1\n 5: 10\n"
                 " 3: work:6\n  #xprof-source 20 a.c\n  1: 6 g:6\n");
  reads_back(out); /* the same */
  uint32_t n;
  double scale;
  xprof_line_loc at12 = {0, 12, NULL, 0, 0};
  const xprof_lp_target *t = xprof_line_targets(lp, mf, 10, &at12, &n, &scale);
  CHECK_U64(n, 2);
  CHECK_STR(t[0].name, "f");
  CHECK_U64(t[0].count, 7);
  CHECK(scale < 0);
  xprof_inline_frame work[] = {{"work", "a.c", 20, 13}};
  xprof_line_loc in_work = {0, 21, work, 1, 0};
  t = xprof_line_targets(lp, mf, 10, &in_work, &n, &scale);
  CHECK_U64(n, 1);
  CHECK_STR(t[0].name, "g");
  xprof_inline_frame helper[] = {{"helper", "a.c", 40, 15}};
  xprof_line_loc in_helper = {0, 41, helper, 1, 0};
  t = xprof_line_targets(lp, mf, 10, &in_helper, &n, &scale);
  CHECK_U64(n, 1);
  CHECK_U64(t[0].count, 30);
  CHECK(scale > 0.249 && scale < 0.251); /* 10 calls of its 40 */
  CHECK(xprof_line_targets(NULL, mf, 10, &in_helper, &n, &scale) == NULL);
  CHECK_U64(n, 0);
  xprof_line_loc at11 = {0, 11, NULL, 0, 0};
  CHECK(xprof_line_targets(lp, mf, 10, &at11, &n, &scale) == NULL);
  xprof_lineprof_free(lp);
}

/* The values of divisions and memory operations: kept by line and kind,
 * repeats added up, those on no line dropped; in clang's text as xprof's
 * comment lines under their line, read back the same; what is not such a
 * line is refused with its line. */
static void values(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *m = func(lp, "main", 10);
  m->head = 10;
  xprof_lineprof_add(m, 2, 0, 10);
  xprof_lineprof_value(m, 2, 0, XPROF_SITE_LENGTH, 16, 4);
  xprof_lineprof_value(m, 2, 0, XPROF_SITE_DIVISOR, 9, 1);
  xprof_lineprof_value(m, 2, 0, XPROF_SITE_DIVISOR, 7, 5);
  xprof_lineprof_target(m, 2, 0, "f", 3);
  xprof_lineprof_value(m, 2, 0, XPROF_SITE_DIVISOR, 7, 2); /* another division on the line */
  xprof_lineprof_value(m, 9, 0, XPROF_SITE_DIVISOR, 7, 2); /* no line 9 */
  xprof_lp_func *w = inline_at(m, 3, "work", 20);
  xprof_lineprof_add(w, 1, 0, 6);
  xprof_lineprof_value(w, 1, 0, XPROF_SITE_LENGTH, 8, 6);
  CHECK(xprof_lineprof_finish(lp) == 0);
  const xprof_lp_func *mf = xprof_lineprof_find(lp, "main", NULL);
  CHECK_U64(mf->n_targets, 4);
  char *out = llvm_text(lp);
  CHECK_STR(out, XPROF_LP_EXACT_MARK "\nmain:16:10\n #xprof-source 10 a.c\n 2: 10 f:3\n"
                 " #xprof-values 2 divisor 7:7 9:1\n"
                 " #xprof-values 2 length 16:4\n 3: work:6\n  #xprof-source 20 a.c\n  1: 6\n  #xprof-values 1 length 8:6\n");
  reads_back(out);
  /* At a place, the callee and the values of each kind, callees first. */
  uint32_t n;
  double scale;
  xprof_line_loc at12 = {0, 12, NULL, 0, 0};
  const xprof_lp_target *t = xprof_line_targets(lp, mf, 10, &at12, &n, &scale);
  CHECK_U64(n, 4);
  CHECK(t && t[0].kind == XPROF_SITE_CALL && t[1].kind == XPROF_SITE_DIVISOR &&
        t[1].value == 7 && t[1].count == 7 && !t[1].name && t[3].kind == XPROF_SITE_LENGTH);
  xprof_lineprof_free(lp);
  static const char *const bad[] = {
      "main:1:1\n 2: 1\n #xprof-values 2 divisor 7\n",      /* no count */
      "main:1:1\n 2: 1\n #xprof-values 2 speed 7:1\n",      /* no such kind */
      "main:1:1\n 2: 1\n #xprof-values 2 divisor\n",        /* no values */
      "main:1:1\n 2: 1\n #xprof-values x divisor 7:1\n",    /* no offset */
      "main:1:1\n 2: 1\n  #xprof-values 2 divisor 7:1\n",   /* deeper than its function */
  };
  rejected_at_line_3(bad, sizeof bad / sizeof *bad);
}

/* A line that is several blocks has counts by column (samples): they go
 * through clang's text as xprof's comment lines, a column on no line of
 * its function is dropped, columns given twice add up as the lines of
 * samples do; a block takes its column's count, else its line's.  main's
 * line 11 (offset 1) is a test (column 5, 10 runs) and its arms (column
 * 20: 8, column 30: 2); line 12 has no columns. */
static void columns(void) {
  const char *text = "main:30:10\n"
                     " 1: 6\n"
                     " #xprof-columns 1 5:6 20:4 30:1\n"
                     " #xprof-columns 1 20:4 30:1\n"
                     " #xprof-columns 7 3:9\n"
                     " 2: 10\n";
  xprof_lineprof *lp;
  xprof_error err;
  CHECK(xprof_lineprof_read_llvm("c.prof", text, strlen(text), &lp, &err) == 0);
  CHECK_U64(lp->funcs[0].n_columns, 3);
  CHECK_U64(lp->funcs[0].total, 16); /* the lines', not the columns' */
  char *out = llvm_text(lp);
  CHECK_STR(out, "main:16:10\n 1: 6\n #xprof-columns 1 5:6 20:8 30:2\n 2: 10\n");
  free(out);
  /* 2 -> 3 (test) -> 4 or 5 (arms) -> 6 (line 12) -> exit. */
  const xprof_edge d[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {3, 4, 0, 0, 0}, {3, 5, 0, 0, 0},
                          {4, 6, 0, 0, 0}, {5, 6, 0, 0, 0}, {6, 1, 0, 0, 0}};
  xprof_line_loc locs[] = {{2, 10, NULL, 0, 0}, {3, 11, NULL, 0, 5}, {4, 11, NULL, 0, 20},
                           {5, 11, NULL, 0, 30}, {6, 12, NULL, 0, 2}};
  uint64_t ec[7], nc[7];
  xprof_line_match mt;
  CHECK(line_counts(NULL, &lp->funcs[0], 10, 7, d, 7, locs, 5, ec, nc, &mt) == 1);
  CHECK_U64(nc[4], 8);
  CHECK_U64(nc[5], 2);
  CHECK_U64(nc[6], 10);
  /* Without columns the arms have the line's count, 6 each, and the flow
   * of 10 goes through them as it may: neither takes 8. */
  for (uint32_t i = 0; i < 5; i++)
    locs[i].column = 0;
  CHECK(line_counts(NULL, &lp->funcs[0], 10, 7, d, 7, locs, 5, ec, nc, &mt) == 1);
  CHECK_U64(nc[4] + nc[5], 10);
  CHECK(nc[4] <= 6 && nc[5] <= 6);
  xprof_lineprof_free(lp);
  /* sq, inlined into main at three lines, has an entry of its own made
   * from its copies: their lines and columns add up alike; a copy whose
   * line has no columns has every column at the line's count. */
  lp = xprof_calloc(1, sizeof *lp);
  lp->from_samples = 1;
  xprof_lp_func *m = func(lp, "main", 10);
  xprof_lp_func *a = inline_at(m, 2, "sq", 50), *b = inline_at(m, 3, "sq", 50);
  xprof_lineprof_add(a, 1, 0, 6);
  xprof_lineprof_column(a, 1, 5, 6);
  xprof_lineprof_column(a, 1, 9, 3);
  xprof_lineprof_add(b, 1, 0, 4);
  xprof_lineprof_column(b, 1, 5, 4);
  xprof_lineprof_column(b, 1, 9, 4);
  xprof_lineprof_add(inline_at(m, 4, "sq", 50), 1, 0, 5);
  CHECK(xprof_lineprof_finish(lp) == 0);
  CHECK(xprof_lineprof_fold_inlined(lp, 0) == 0);
  const xprof_lp_func *sq = xprof_lineprof_find(lp, "sq", NULL);
  CHECK(sq && sq->n_lines == 1 && sq->n_columns == 2);
  CHECK_U64(sq->lines[0].count, 15);
  CHECK_U64(sq->columns[0].count, 15);
  CHECK_U64(sq->columns[1].count, 12);
  out = llvm_text(lp); /* columns all at their line's count are not written */
  CHECK(strstr(out, "sq:15:0\n #xprof-source 50 a.c\n 1: 15\n #xprof-columns 1 5:15 9:12\n") !=
        NULL);
  free(out);
  xprof_lineprof_free(lp);
  const char *bad[] = {"f:1:1\n 1: 1\n #xprof-columns 1\n",
                       "f:1:1\n 1: 1\n #xprof-columns 1 0:4\n",
                       "f:1:1\n 1: 1\n #xprof-columns 1 5:\n",
                       "f:1:1\n 1: 1\n #xprof-columns x 5:4\n"};
  rejected_at_line_3(bad, sizeof bad / sizeof *bad);
}

/* How many blocks a line or column is, and the least busy one's count, go
 * through clang's text as xprof's comment line and read back: main's line
 * 1 is three blocks, the least busy run twice, its column 20 two blocks
 * of 4 and 1; column 5 is one block, which the line leaves out.  A line or
 * column not given before it, a least above its count, fewer than two
 * blocks, a missing count are errors. */
static void blocks_text(void) {
  const char *text = "main:16:10\n"
                     " 1: 6\n"
                     " #xprof-columns 1 5:6 20:4 30:1\n"
                     " #xprof-blocks 1 3:2 20:2:1\n"
                     " 2: 10\n";
  xprof_lineprof *lp;
  xprof_error err;
  CHECK(xprof_lineprof_read_llvm("l.prof", text, strlen(text), &lp, &err) == 0);
  const xprof_lp_func *f = &lp->funcs[0];
  CHECK(f->n_lines == 2 && f->n_columns == 3);
  CHECK_U64(f->lines[0].least, 2);
  CHECK_U64(f->lines[0].blocks, 3);
  CHECK_U64(f->lines[1].least, 10);
  CHECK_U64(f->lines[1].blocks, 1);
  CHECK_U64(f->columns[0].least, 6);
  CHECK_U64(f->columns[0].blocks, 1);
  CHECK_U64(f->columns[1].least, 1);
  CHECK_U64(f->columns[1].blocks, 2);
  char *out = llvm_text(lp);
  CHECK_STR(out, text);
  free(out);
  xprof_lineprof_free(lp);
  const char *bad[] = {"f:1:1\n 1: 4\n #xprof-blocks 2 2:1\n",
                       "f:1:1\n 1: 4\n #xprof-blocks 1 2:5\n",
                       "f:1:1\n 1: 4\n #xprof-blocks 1 1:1\n",
                       "f:1:1\n 1: 4\n #xprof-blocks 1 2:1 7:2:1\n",
                       "f:1:1\n 1: 4\n #xprof-blocks 1\n",
                       "f:1:1\n 1: 4\n #xprof-blocks 1 2\n",
                       "f:1:1\n 1: 4\n #xprof-blocks 1 2:1 7:1\n"};
  rejected_at_line_3(bad, sizeof bad / sizeof *bad);
}

/* A column the exact profile does not have: within two of one it has
 * (GCC's `->` where clang has the member's name) it is that one, farther
 * it has no estimate rather than the line's.  main's line 11 (offset 1) is
 * a test at column 5 (10 runs) and arms at 20 (8) and 30 (2); here the
 * arms are at 22 and 26: 22 takes 20's 8, 26 none, and the flow leaves it
 * the 2 (with the line's 10 it would be anyone's guess). */
static void column_slack(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *f = func(lp, "main", 10);
  f->head = 10;
  xprof_lineprof_add(f, 1, 0, 10);
  xprof_lineprof_column(f, 1, 5, 10);
  xprof_lineprof_column(f, 1, 20, 8);
  xprof_lineprof_column(f, 1, 30, 2);
  xprof_lineprof_add(f, 2, 0, 10);
  CHECK(xprof_lineprof_finish(lp) == 0);
  const xprof_edge d[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {2, 4, 0, 0, 0},
                          {3, 5, 0, 0, 0}, {4, 5, 0, 0, 0}, {5, 1, 0, 0, 0}};
  xprof_line_loc locs[] = {{2, 11, NULL, 0, 5}, {3, 11, NULL, 0, 22}, {4, 11, NULL, 0, 26},
                           {5, 12, NULL, 0, 0}};
  uint64_t ec[6], nc[6];
  xprof_line_match mt;
  CHECK(line_counts(NULL, &lp->funcs[0], 10, 6, d, 6, locs, 4, ec, nc, &mt) == 1);
  CHECK_U64(mt.matched, 3);
  CHECK_U64(nc[3], 8);
  CHECK_U64(nc[4], 2);
  CHECK_U64(nc[5], 10);
  xprof_lineprof_free(lp);
}

/* #xprof-busiest: the training block of main's line 1 is 3, of its
 * column 20 block 4 (column 5, listed without one, is the line's); line
 * 2's block is 4 too.  Blocks are numbered within each function, so g's
 * block 1 follows main's last (7) in memory.  Line 4, not listed, ran in
 * a block of its own (10, after every listed one); line 5, of two
 * blocks, in one not known (0), and line 6 too, whose columns ran other
 * counts than it though the text gives it one block (the fuzzer's:
 * numbered, it would be written back with a block listed).  In samples no block is known but
 * those listed.  Written back relative to
 * the least written block, but for the lines whose block no other place
 * ran in (main's line 3, g's line 2), in the order of the names.  A line or column not given before
 * it, a block 0, a missing block are errors. */
static void busiest_text(void) {
  const char *text = XPROF_LP_EXACT_MARK " from llvm\n"
                     "main:30:10\n"
                     " 1: 6\n"
                     " #xprof-columns 1 5:6 20:4\n"
                     " #xprof-busiest 1 3 20:4\n"
                     " 2: 10\n"
                     " #xprof-busiest 2 4\n"
                     " 3: 2\n"
                     " #xprof-busiest 3 7\n"
                     " 4: 2\n"
                     " 5: 6\n"
                     " #xprof-blocks 5 2:1\n"
                     " 6: 4\n"
                     " #xprof-columns 6 3:4 9:1\n"
                     "g:9:3\n"
                     " 1: 3\n"
                     " #xprof-busiest 1 1\n"
                     " 2: 3\n"
                     " #xprof-busiest 2 2\n"
                     " 3: 3\n"
                     " #xprof-busiest 3 1\n";
  const char *written = XPROF_LP_EXACT_MARK " from llvm\n"
                        "g:9:3\n"
                        " 1: 3\n"
                        " #xprof-busiest 1 1\n"
                        " 2: 3\n"
                        " 3: 3\n"
                        " #xprof-busiest 3 1\n"
                        "main:30:10\n"
                        " 1: 6\n"
                        " #xprof-columns 1 5:6 20:4\n"
                        " #xprof-busiest 1 1 20:2\n"
                        " 2: 10\n"
                        " #xprof-busiest 2 2\n"
                        " 3: 2\n"
                        " 4: 2\n"
                        " 5: 6\n"
                        " #xprof-blocks 5 2:1\n"
                        " 6: 4\n"
                        " #xprof-columns 6 3:4 9:1\n";
  xprof_lineprof *lp;
  xprof_error err;
  CHECK(xprof_lineprof_read_llvm("l.prof", text, strlen(text), &lp, &err) == 0);
  CHECK(lp->n_funcs == 2);
  const xprof_lp_func *f = xprof_lineprof_find(lp, "main", NULL);
  CHECK(f && f->n_lines == 6 && f->n_columns == 4);
  CHECK_U64(f->lines[0].block, 3);
  CHECK_U64(f->lines[1].block, 4);
  CHECK_U64(f->lines[2].block, 7);
  CHECK_U64(f->lines[3].block, 10);
  CHECK_U64(f->lines[4].block, 0);
  CHECK_U64(f->lines[5].block, 0);
  CHECK_U64(f->columns[2].block, 0);
  CHECK_U64(f->columns[0].block, 3);
  CHECK_U64(f->columns[1].block, 4);
  const xprof_lp_func *g = xprof_lineprof_find(lp, "g", NULL);
  CHECK(g && g->n_lines == 3);
  CHECK_U64(g->lines[0].block, 8);
  CHECK_U64(g->lines[1].block, 9);
  CHECK_U64(g->lines[2].block, 8);
  CHECK_U64(lp->blocks_numbered, 10);
  char *out = llvm_text(lp);
  CHECK_STR(out, written);
  free(out);
  xprof_lineprof_free(lp);
  /* Samples say nothing of blocks: line 4's is not known there. */
  const char *samples = strchr(text, '\n') + 1;
  CHECK(xprof_lineprof_read_llvm("l.prof", samples, strlen(samples), &lp, &err) == 0);
  f = xprof_lineprof_find(lp, "main", NULL);
  CHECK(f && f->n_lines == 6);
  CHECK_U64(f->lines[3].block, 0);
  xprof_lineprof_free(lp);
  const char *bad[] = {"f:1:1\n 1: 4\n #xprof-busiest 2 1\n",
                       "f:1:1\n 1: 4\n #xprof-busiest 1 0\n",
                       "f:1:1\n 1: 4\n #xprof-busiest 1 2 5:3\n",
                       "f:1:1\n 1: 4\n #xprof-busiest 1 2 5:0\n",
                       "f:1:1\n 1: 4\n #xprof-busiest 1 2 5\n",
                       "f:1:1\n 1: 4\n #xprof-busiest 1\n"};
  rejected_at_line_3(bad, sizeof bad / sizeof *bad);
}

/* Where a place of main (declared at line 10) ran in an exact training:
 * its line offset and column, its count, and its training block. */
typedef struct ran_at {
  uint32_t offset, column;
  uint64_t count;
  uint32_t block;
} ran_at;

/* A line profile of main alone, entered `head` times, whose places ran as
 * r[0..n) say. */
static xprof_lineprof *main_ran(uint64_t head, const ran_at *r, size_t n) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *f = func(lp, "main", 10);
  f->head = head;
  for (size_t k = 0; k < n; k++)
    xprof_lineprof_block(f, r[k].offset, r[k].column, r[k].count, r[k].block);
  CHECK(xprof_lineprof_finish(lp) == 0);
  return lp;
}

/* main's line 11 is `k = p[j] - 1; if (k < 0) k += n;`: a test at column
 * 5 and an arm at column 20, both run 10 times in training, then line 12.
 * Here the arm is a block of its own (3), which only the test's branch
 * reaches.  Where the training ran the arm's code in the test's block (a
 * select), its count says nothing of the branch: the arm gets half, as an
 * arm without an estimate does; where it was a block of its own that ran
 * 10 times, or the block is not known, the branch went that way 10
 * times. */
static void ran_with_test(void) {
  const xprof_edge tri[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {2, 4, 0, 0, 0}, {3, 4, 0, 0, 0},
                            {4, 1, 0, 0, 0}};
  xprof_line_loc locs[] = {{2, 11, NULL, 0, 5}, {3, 11, NULL, 0, 20}, {4, 12, NULL, 0, 0}};
  const uint32_t arm_block[] = {7, 9, 0};
  const uint64_t arm_count[] = {5, 10, 10};
  for (int i = 0; i < 3; i++) {
    const ran_at r[] = {{1, 0, 10, 7}, {1, 5, 10, 7}, {1, 20, 10, arm_block[i]}, {2, 0, 10, 8}};
    xprof_lineprof *lp = main_ran(10, r, 4);
    uint64_t ec[5], nc[5];
    xprof_line_match mt;
    CHECK(line_counts(NULL, &lp->funcs[0], 10, 5, tri, 5, locs, 3, ec, nc, &mt) == 1);
    CHECK_U64(nc[2], 10);
    CHECK_U64(nc[3], arm_count[i]);
    CHECK_U64(ec[2], 10 - arm_count[i]);
    CHECK_U64(nc[4], 10);
    xprof_lineprof_free(lp);
  }
}

/* main's line 11 is `if (*budget < 0) return;` in a loop, run once: the
 * test (column 9) ran 10 times, line 12 (the loop going on) after it,
 * and main returns at line 14.  The training's compiler merged the
 * return's code (column 27) into the function's exit block (8), which
 * line 14 ran in too: the return's count (1) is the exit's and says
 * nothing of the branch; the exit post-dominates the return, which gets
 * no estimate from it, and the flow, with line 12 as often as the test,
 * leaves it 0.  Where the return was a block of its own (9) that ran
 * once, and line 12 nine times, the last test returned there. */
static void ran_with_exit(void) {
  /* 0 -> 2 (test) -> 3 (return) -> 5 (exit) -> 1; 2 -> 4 (line 12) -> 2
   * and 4 -> 5 */
  const xprof_edge g[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {2, 4, 0, 0, 0}, {4, 2, 0, 0, 0},
                          {4, 5, 0, 0, 0}, {3, 5, 0, 0, 0}, {5, 1, 0, 0, 0}};
  xprof_line_loc locs[] = {{2, 11, NULL, 0, 9}, {3, 11, NULL, 0, 27}, {4, 12, NULL, 0, 0},
                           {5, 14, NULL, 0, 0}};
  const uint32_t return_block[] = {8, 9};
  const uint64_t return_count[] = {0, 1};
  for (int i = 0; i < 2; i++) {
    const ran_at r[] = {{1, 0, 10, 7}, {1, 9, 10, 7}, {1, 27, 1, return_block[i]},
                        {2, 0, i ? 9 : 10, 10}, {4, 0, 1, 8}};
    xprof_lineprof *lp = main_ran(1, r, 5);
    uint64_t ec[7], nc[6];
    xprof_line_match mt;
    CHECK(line_counts(NULL, &lp->funcs[0], 10, 6, g, 7, locs, 4, ec, nc, &mt) == 1);
    CHECK_U64(nc[3], return_count[i]);
    CHECK_U64(nc[5], 1);
    xprof_lineprof_free(lp);
  }
}

/* Lines beside a prior, the flow salvage made: its measured blocks keep
 * their counts and the lines' estimates around them give way; a block
 * the lines estimate takes their count where the prior made one up; a
 * block they do not estimate keeps the prior's, unsplit. */
static void prior_flow(void) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  xprof_lp_func *m = func(lp, "main", 10);
  m->head = 10;
  xprof_lineprof_add(m, 1, 0, 10);
  xprof_lineprof_add(m, 2, 0, 9); /* disagrees with what was measured */
  xprof_lineprof_add(m, 3, 0, 7);
  xprof_lineprof_add(m, 4, 0, 10);
  CHECK(xprof_lineprof_finish(lp) == 0);
  const xprof_edge d[] = {{0, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {2, 4, 0, 0, 0},
                          {3, 5, 0, 0, 0}, {4, 5, 0, 0, 0}, {5, 1, 0, 0, 0}};
  xprof_line_loc locs[] = {{2, 11, NULL, 0, 0}, {3, 12, NULL, 0, 0}, {4, 13, NULL, 0, 0},
                           {5, 14, NULL, 0, 0}};
  xprof_places p = {10, locs, 4, NULL, 0, NULL, NULL};
  uint64_t ec[6], nc[6];
  xprof_line_match mt;
  /* The header and an arm measured: the other arm's 7 and the join's 10
   * are estimates; the arm's 9 gives way to the measured 2. */
  uint64_t count[6] = {10, 10, 10, 2, 8, 10};
  unsigned char header_arm[6] = {0, 0, 1, 1, 0, 0};
  xprof_line_prior prior = {count, header_arm};
  CHECK(xprof_line_counts(lp, &lp->funcs[0], &p, 6, d, 6, &prior, ec, nc, &mt) == 1);
  CHECK_U64(nc[2], 10);
  CHECK_U64(nc[3], 2);
  CHECK_U64(nc[4], 8);
  CHECK_U64(nc[5], 10);
  CHECK_U64(mt.estimated, 2); /* blocks 4 and 5 */
  /* Header and join measured, the arms not: salvage sent the flow
   * through one arm; the lines know the other ran 7 times. */
  uint64_t routed[6] = {10, 10, 10, 10, 0, 10};
  unsigned char ends[6] = {0, 0, 1, 0, 0, 1};
  prior = (xprof_line_prior){routed, ends};
  p.n_locs = 3; /* no place of arm 3: only the prior knows it */
  xprof_line_loc no_arm3[] = {{2, 11, NULL, 0, 0}, {4, 13, NULL, 0, 0}, {5, 14, NULL, 0, 0}};
  p.locs = no_arm3;
  CHECK(xprof_line_counts(lp, &lp->funcs[0], &p, 6, d, 6, &prior, ec, nc, &mt) == 1);
  CHECK_U64(nc[3], 3);
  CHECK_U64(nc[4], 7);
  CHECK_U64(mt.estimated, 1);
  /* Neither arm estimated: the prior stands, not split evenly as the
   * lines alone would split it. */
  xprof_line_loc no_arms[] = {{2, 11, NULL, 0, 0}, {5, 14, NULL, 0, 0}};
  p.locs = no_arms;
  p.n_locs = 2;
  CHECK(xprof_line_counts(lp, &lp->funcs[0], &p, 6, d, 6, &prior, ec, nc, &mt) == 1);
  CHECK_U64(nc[3], 10);
  CHECK_U64(nc[4], 0);
  CHECK_U64(mt.estimated, 0);
  CHECK(xprof_line_counts(lp, &lp->funcs[0], &p, 6, d, 6, NULL, ec, nc, &mt) == 1);
  CHECK_U64(nc[3], 5);
  CHECK_U64(nc[4], 5);
  xprof_lineprof_free(lp);
}

UNIT_TABLE(lineprof_tests) = {
    {"lineprof/column-slack", column_slack},
    {"lineprof/busiest-text", busiest_text},
    {"lineprof/ran-with-test", ran_with_test},
    {"lineprof/ran-with-exit", ran_with_exit},
    {"lineprof/blocks-text", blocks_text},
    {"lineprof/columns", columns},
    {"lineprof/targets", targets},
    {"lineprof/values", values},
    {"lineprof/counts-by-line", counts_by_line},
    {"lineprof/prior-flow", prior_flow},
    {"lineprof/folded-lines", folded_lines},
    {"lineprof/source-lines", source_lines},
    {"lineprof/callee-scaled", callee_scaled},
    {"lineprof/shared-place", shared_place},
    {"lineprof/read-llvm", read_llvm},
    {"lineprof/merging", merging}, {"lineprof/comdat", comdat},
    {"lineprof/statics", statics}, {"lineprof/source-hashes", source_hashes}, {"lineprof/gcc-bytes", gcc_bytes},
    UNIT_END};
