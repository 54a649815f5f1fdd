/* test_order.c - the function order of a link (plan/order.c): what the
 * use compilations record, C3's clusters, the limits that keep a cluster
 * small and dense, and what each linker is given. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "xprof_plan.h"

/* The order of sections `text` (one object) with the sizes "name=size,..."
 * as one line, names separated by spaces.  Each function with a size has
 * a section of its own (.text.NAME), as -ffunction-sections gives. */
static char *order_of(const char *text, const char *sizes) {
  xprof_order *o = xprof_order_new();
  xprof_error err;
  if (xprof_order_add(o, text, strlen(text), "t.o", &err) < 0) {
    xprof_order_free(o);
    return strdup(err.msg);
  }
  char *copy = strdup(sizes), *save;
  for (char *s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(s, '=');
    *eq = 0;
    xprof_order_size(o, s, strtoull(eq + 1, NULL, 10));
    char section[64];
    snprintf(section, sizeof section, ".text.%s", s);
    xprof_order_section(o, section);
  }
  free(copy);
  const char **names;
  uint32_t n;
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  if (xprof_order_compute(o, &names, &n) == 0)
    for (uint32_t i = 0; i < n; i++)
      fprintf(f, "%s%s", i ? " " : "", names[i]);
  fclose(f);
  xprof_free(names);
  xprof_order_free(o);
  return out;
}

/* Callees join their most frequent caller's cluster, hottest first; the
 * cluster of main holds the chain; fib, called once of its 89 entries,
 * stays apart; unknown (no symbol) and never-run functions are left out. */
static void chains(void) {
  const char *text = "XPCALLS 1\n"
                     "F 1 204 main\nC 150 mid\nC 50 other\nC 1 fib\nC 1 printf\n"
                     "F 89 443 fib\nC 88 fib\n"
                     "F 50 50150 other\nC 5000 leaf\n"
                     "F 150 31050 mid\nC 15300 leaf\n"
                     "F 20300 81260900 leaf\n"
                     "F 0 0 never\n"
                     "F 5 10 inlined\n";
  char *o = order_of(text, "main=123,mid=37,fib=110,leaf=143,other=70,never=20");
  CHECK_STR(o, "main mid leaf other fib");
  free(o);
}

/* A cluster stops at a megabyte, and a merge may not make the caller's
 * cluster less than an eighth as dense. */
static void limits(void) {
  const char *text = "XPCALLS 1\nF 1 1000000 a\nC 100 big\nC 100 sparse\n"
                     "F 100 100000000000 big\nF 100 100 sparse\nF 50 5000 mid\n";
  /* big is too large to join a: on its own it is denser than a. */
  char *o = order_of(text, "a=100,big=1048577,sparse=100000,mid=100");
  CHECK_STR(o, "big a mid sparse");
  free(o);
  /* Small enough, it joins a; sparse would thin a's cluster out. */
  o = order_of(text, "a=100,big=150,sparse=100000,mid=100");
  CHECK_STR(o, "a big mid sparse");
  free(o);
  o = order_of(text, "a=100,big=150,sparse=100,mid=100");
  CHECK_STR(o, "a big sparse mid"); /* dense enough to join, after big */
  free(o);
}

/* A comdat function recorded by two objects counts once; calls through
 * pointers are calls; a caller called rarely relative to a callee's
 * entries is no reason to join it. */
static void records(void) {
  xprof_order *o = xprof_order_new();
  xprof_error err;
  const char *a = "XPCALLS 1\nF 10 100 main\nC 10 tmpl\nF 1000 5000 tmpl\nC 1000 leaf\n";
  const char *b = "XPCALLS 1\nF 10 100 tmpl\nF 1000 9000 leaf\n";
  CHECK(xprof_order_add(o, a, strlen(a), "a.o", &err) == 0);
  CHECK(xprof_order_add(o, b, strlen(b), "b.o", &err) == 0);
  xprof_order_size(o, "main", 50);
  xprof_order_size(o, "tmpl", 50);
  xprof_order_size(o, "leaf", 50);
  xprof_order_section(o, ".text.startup.main");
  xprof_order_section(o, ".text.hot.tmpl");
  xprof_order_section(o, ".text.leaf");
  const char **names;
  uint32_t n;
  CHECK(xprof_order_compute(o, &names, &n) == 0);
  CHECK_U64(n, 3);
  /* tmpl's entry count is a.o's 1000: main's 10 calls are 1% of them. */
  if (n == 3) {
    CHECK_STR(names[0], "tmpl");
    CHECK_STR(names[1], "leaf");
    CHECK_STR(names[2], "main");
  }
  xprof_free(names);
  xprof_order_free(o);
}

/* Only functions in a section of their own are ordered (the plugins give
 * one to functions with hot code): a function in a shared .text, or only
 * in .text.unlikely.NAME (a split function's cold part), or in a section
 * whose name merely begins like its own, is not. */
static void placeable(void) {
  const char *text = "XPCALLS 1\nF 1 900 main\nC 100 hot\nC 1 warm\nC 1 split\n"
                     "F 100 90000 hot\nF 1 10 warm\nF 1 20 split\nF 1 10 other\n";
  xprof_order *o = xprof_order_new();
  xprof_error err;
  CHECK(xprof_order_add(o, text, strlen(text), "t.o", &err) == 0);
  const char *fns[] = {"main", "hot", "warm", "split", "other"};
  for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
    xprof_order_size(o, fns[i], 40);
  const char *sections[] = {".text", ".text.startup.main", ".text.hot.hot", ".text.unlikely",
                            ".text.unlikely.split", ".text.exit.warm", ".text.", ".text.hot.",
                            ".text.hot.other.cold"};
  for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
    CHECK(xprof_order_section(o, sections[i]) == 0);
  const char **names;
  uint32_t n;
  CHECK(xprof_order_compute(o, &names, &n) == 0);
  CHECK_U64(n, 2);
  if (n == 2) {
    CHECK_STR(names[0], "main");
    CHECK_STR(names[1], "hot");
  }
  xprof_free(names);
  xprof_order_free(o);
}

static void damaged(void) {
  char *o = order_of("XPCALLS 1\nF 1 x main\n", "main=1");
  CHECK_STR(o, "t.o: section .xprof.calls: not a calls record: F 1 x main");
  free(o);
  o = order_of("XPCALLS 1\nC 5 callee_without_caller\n", "");
  CHECK_HAS(o, "not a calls record: C 5");
  free(o);
}

/* What the plugins record: F from the solved counts, C from value
 * profiles of indirect calls (the callee's name before ':'). */
static void recording(void) {
  xprof_calls *r = xprof_calls_begin();
  uint64_t nodes[] = {7, 7, 3, 4};
  xprof_vp_value v[2] = {{5, 0, "target:/o/a.o"}, {0, 0, NULL}};
  xprof_vp_record rec = {XPROF_VP_PROC, 0, v};
  xprof_proc f = {.name = "f", .n_vp_records = 1, .vp = &rec};
  xprof_calls_function(r, "f", nodes, 4, &f, 2);
  xprof_calls_call(r, "g", 3);
  xprof_calls_call(r, "never", 0);
  char *a = xprof_calls_end(r);
  CHECK_STR(a, "\t.pushsection .xprof.calls,\"e\",@progbits\n"
               "\t.ascii \"XPCALLS 1\\012F 7 7 f\\012C 5 target\\012C 3 g\\012\"\n"
               "\t.popsection\n");
  xprof_free(a);
  r = xprof_calls_begin();
  /* Nothing ran: the section all the same, so that the link knows the
   * object was compiled for the order. */
  a = xprof_calls_end(r);
  CHECK_STR(a, "\t.pushsection .xprof.calls,\"e\",@progbits\n"
               "\t.ascii \"XPCALLS 1\\012\"\n"
               "\t.popsection\n");
  xprof_free(a);
}

static void linkers(void) {
  const char *names[] = {"main", "hot"};
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  CHECK(xprof_order_write(names, 2, XPROF_LINKER_LLD, f) == 0);
  fclose(f);
  CHECK_STR(out, "main\nhot\n");
  free(out);
  f = open_memstream(&out, &len);
  CHECK(xprof_order_write(names, 2, XPROF_LINKER_GOLD, f) == 0);
  fclose(f);
  CHECK_STR(out, ".text.hot.main\n.text.startup.main\n.text.main\n"
                 ".text.hot.hot\n.text.startup.hot\n.text.hot\n");
  free(out);
  f = open_memstream(&out, &len);
  CHECK(xprof_order_write(names, 2, XPROF_LINKER_BFD, f) == 0);
  fclose(f);
  CHECK_HAS(out, "  .text.xprof :\n  {\n    *(.text.hot.main .text.startup.main .text.main)\n"
                 "    *(.text.hot.hot .text.startup.hot .text.hot)\n  }\n}\nINSERT BEFORE .text;\n");
  free(out);
}

UNIT_TABLE(order_tests) = {
    {"order/chains", chains},       {"order/limits", limits},   {"order/records", records},
    {"order/damaged", damaged},     {"order/recording", recording},
    {"order/placeable", placeable},
    {"order/linkers", linkers},     UNIT_END};
