/* test_cfgdump.c - the plugins' CFG dumps and coverage tables, written
 * and read back, the reader's errors on damaged ones (xprof_verify and
 * xprof_tcov index counts with what it reads), and line coverage by
 * gcov's rules from a table and its counts. */
#include <stdlib.h>

#include "unit.h"
#include "xprof_plan.h"
#include "xprof_views.h"

/* The last fields of a line of the procedure's own code (not inlined),
 * which is no site. */
#define OWN XPROF_NO_LINE, XPROF_SITE_KINDS, 0, 0

/* A diamond: ENTRY -> 2 -> {3, 4} -> 5 -> EXIT, one edge measured by
 * value-profile site 0. */
static const xprof_edge diamond[] = {
    {XPROF_ENTRY, 2, 0, 10, 0}, {2, 3, 0, 7, 0},           {2, 4, 0, 3, 0},
    {3, 5, XPROF_EDGE_MEASURED, 7, 0}, {4, 5, 0, 3, 0}, {5, XPROF_EXIT, 0, 10, 0}};
enum { N_NODES = 6, N_EDGES = 6 };

static const char *write_dump(const char *name) {
  static char path[256];
  snprintf(path, sizeof path, "%s/%s", unit_tmpdir(), name);
  uint32_t counter_of_edge[N_EDGES];
  int64_t n = xprof_place_counters(N_NODES, diamond, N_EDGES, counter_of_edge);
  FILE *f = fopen(path, "w");
  xprof_cfgdump_begin(f);
  xprof_cfgdump_proc(f, "diamond", 0xabcdef, N_NODES, diamond, N_EDGES, counter_of_edge,
                     (uint32_t)n, 1);
  fclose(f);
  return path;
}

static void round_trip(void) {
  const char *path = write_dump("ok.xpcfg");
  xprof_profile *owner = xprof_profile_new();
  xprof_cfgdump d;
  xprof_error err;
  CHECK(xprof_cfgdump_read(path, owner, &d, &err) == 0);
  xprof_cfgdump_entry *procs = d.procs;
  uint32_t n = d.n_procs;
  CHECK_U64(d.version, 1);
  CHECK_U64(procs[0].n_lines, 0);
  CHECK_U64(procs[0].decl_line, XPROF_NO_LINE);
  CHECK_U64(n, 1);
  CHECK_STR(procs[0].name, "diamond");
  CHECK_U64(procs[0].signature, 0xabcdef);
  CHECK_U64(procs[0].n_nodes, N_NODES);
  CHECK_U64(procs[0].n_edges, N_EDGES);
  /* Every real edge gets a debug counter, numbered after the others. */
  CHECK_U64(procs[0].n_debug, N_EDGES);
  uint32_t counter_of_edge[N_EDGES];
  xprof_place_counters(N_NODES, diamond, N_EDGES, counter_of_edge);
  for (uint32_t e = 0; e < N_EDGES; e++) {
    CHECK_U64(procs[0].edges[e].src, diamond[e].src);
    CHECK_U64(procs[0].edges[e].dst, diamond[e].dst);
    CHECK_U64(procs[0].counter_of_edge[e], counter_of_edge[e]);
    CHECK_U64(procs[0].debug_of_edge[e], procs[0].n_counters + e);
  }
  xprof_profile_free(owner);
}

/* Read a dump made of these lines; returns the reader's message. */
static const char *read_text(const char *text, xprof_error *err) {
  char path[256];
  snprintf(path, sizeof path, "%s/bad.xpcfg", unit_tmpdir());
  unit_write_file(path, text, strlen(text));
  xprof_profile *owner = xprof_profile_new();
  xprof_cfgdump d;
  int rc = xprof_cfgdump_read(path, owner, &d, err);
  xprof_profile_free(owner);
  return rc == 0 ? "read" : err->msg;
}

static void damaged(void) {
  xprof_error err;
  CHECK_HAS(read_text("XPCFG 8\n", &err), "bad.xpcfg:1: not a CFG dump");
  CHECK_HAS(read_text("XPCFG 1\nPROC f\n", &err), "bad.xpcfg:2: expected a PROC line");
  CHECK_HAS(read_text("XPCFG 1\nPROC f 0x1 4 2 1 0\n0 2 0 - -\n", &err),
            "bad.xpcfg:4: expected an edge line");
  /* Out of range: a node, a counter, a debug counter. */
  CHECK_HAS(read_text("XPCFG 1\nPROC f 0x1 4 1 1 0\n0 9 0 - -\n", &err),
            "bad.xpcfg:3: edge 0 of f names a node or counter out of range");
  CHECK_HAS(read_text("XPCFG 1\nPROC f 0x1 4 1 1 0\n0 2 0 5 -\n", &err),
            "out of range");
  CHECK_HAS(read_text("XPCFG 1\nPROC f 0x1 4 1 1 1\n0 2 0 0 7\n", &err),
            "out of range");
  CHECK_STR(read_text("XPCFG 1\nPROC f 0x1 4 1 1 1\n0 2 0 0 1\n", &err), "read");
  /* Version 2's records: sources in order, lines after a procedure, of
   * its nodes and of known sources. */
  CHECK_STR(read_text("XPCFG 2\nS 0 1 2 0x3 /a b.c\nPROC f 0x1 4 1 1 0\n0 2 0 0 -\n"
                      "F 0 7\nL 2 0 8\n", &err), "read");
  CHECK_HAS(read_text("XPCFG 2\nS 1 1 2 0x3 /a.c\n", &err), "bad.xpcfg:2: expected S 0");
  CHECK_HAS(read_text("XPCFG 2\nS 0 1 2 0x3\n", &err), "bad.xpcfg:2: expected S 0");
  CHECK_HAS(read_text("XPCFG 2\nS 0 1 2 0x3 /a.c\nL 2 0 8\n", &err),
            "bad.xpcfg:3: expected PROC, S, F, C, N, B, E, K, O, V, A or L");
  CHECK_HAS(read_text("XPCFG 2\nS 0 1 2 0x3 /a.c\nPROC f 0x1 4 1 1 0\n0 2 0 0 -\n"
                      "L 4 0 8\n", &err), "bad.xpcfg:5: expected PROC, S, F, C, N, B, E, K, O, V, A or L");
  CHECK_HAS(read_text("XPCFG 2\nPROC f 0x1 4 1 1 0\n0 2 0 0 -\nF 0 1\n", &err),
            "bad.xpcfg:4: expected PROC, S, F, C, N, B, E, K, O, V, A or L");
  /* Calls: version 3 only, in a block of the procedure. */
  CHECK_HAS(read_text("XPCFG 2\nPROC f 0x1 4 1 1 0\n0 2 0 0 -\nK 2 g\n", &err),
            "bad.xpcfg:4: expected PROC");
  CHECK_HAS(read_text("XPCFG 3\nPROC f 0x1 4 1 1 0\n0 2 0 0 -\nK 4 g\n", &err),
            "bad.xpcfg:4: expected PROC");
  CHECK_HAS(read_text("XPCFG 3\nPROC f 0x1 4 1 1 0\n0 2 0 0 -\nK 2 g\n", &err), "read");
  /* Inline contexts: version 4 only, numbered in order, parents and
   * sources before them, lines naming contexts that exist. */
  const char *v4 = "XPCFG 4\nS 0 1 2 0x3 /a.c\nPROC f 0x1 4 1 1 0\n0 2 0 0 -\n";
  char buf[256];
  snprintf(buf, sizeof buf, "%sO 0 - 7 0 3 g\nO 1 0 4 0 9 h\nL 2 0 10 1\n", v4);
  CHECK_STR(read_text(buf, &err), "read");
  snprintf(buf, sizeof buf, "%sO 1 - 7 0 3 g\n", v4);
  CHECK_HAS(read_text(buf, &err), "bad.xpcfg:5: expected PROC");
  snprintf(buf, sizeof buf, "%sO 0 0 7 0 3 g\n", v4);
  CHECK_HAS(read_text(buf, &err), "bad.xpcfg:5: expected PROC");
  snprintf(buf, sizeof buf, "%sO 0 - 7 1 3 g\n", v4);
  CHECK_HAS(read_text(buf, &err), "bad.xpcfg:5: expected PROC");
  snprintf(buf, sizeof buf, "%sO 0 - 7 0 3 g\nL 2 0 10 1\n", v4);
  CHECK_HAS(read_text(buf, &err), "bad.xpcfg:6: expected PROC");
  CHECK_HAS(read_text("XPCFG 3\nS 0 1 2 0x3 /a.c\nPROC f 0x1 4 1 1 0\n0 2 0 0 -\nO 0 - 7 0 3 g\n",
                      &err),
            "bad.xpcfg:5: expected PROC");
  /* Value-profile sites' places: version 5 only, of sources and contexts
   * that exist. */
  snprintf(buf, sizeof buf, "%sV 0 0 12\n", v4);
  CHECK_HAS(read_text(buf, &err), "bad.xpcfg:5: expected PROC");
  buf[6] = '5';
  CHECK_STR(read_text(buf, &err), "read");
  snprintf(buf, sizeof buf, "%sV 0 1 12\n", v4);
  buf[6] = '5';
  CHECK_HAS(read_text(buf, &err), "bad.xpcfg:5: expected PROC");
  snprintf(buf, sizeof buf, "%sV 0 0 12 0\n", v4);
  buf[6] = '5';
  CHECK_HAS(read_text(buf, &err), "bad.xpcfg:5: expected PROC");
  /* Version 6 has M records: not before. */
  snprintf(buf, sizeof buf, "%sM 2 0 12\n", v4);
  buf[6] = '6';
  CHECK_STR(read_text(buf, &err), "read");
  buf[6] = '5';
  CHECK_HAS(read_text(buf, &err), "bad.xpcfg:5: expected PROC");
  /* Version 6 says each site's kind, one the reader knows. */
  snprintf(buf, sizeof buf, "%sV 0 2 0 12\n", v4);
  buf[6] = '6';
  CHECK_STR(read_text(buf, &err), "read");
  snprintf(buf, sizeof buf, "%sV 0 9 0 12\n", v4);
  buf[6] = '6';
  CHECK_HAS(read_text(buf, &err), "bad.xpcfg:5: expected PROC");
  snprintf(buf, sizeof buf, "%sV 0 0 12\n", v4); /* a version 5 record: no kind */
  buf[6] = '6';
  CHECK_HAS(read_text(buf, &err), "bad.xpcfg:5: expected PROC");
  /* Columns (version 7): a block's, in range, above 0. */
  const char *bad_columns[] = {"A 2 0 12 0\n", "A 9 0 12 5\n", "A 2 3 12 5\n", "A 2 0 12\n",
                               "A 2 0 12 5 4\n"};
  for (size_t i = 0; i < sizeof bad_columns / sizeof *bad_columns; i++) {
    snprintf(buf, sizeof buf, "%s%s", v4, bad_columns[i]);
    buf[6] = '7';
    CHECK_HAS(read_text(buf, &err), "bad.xpcfg:5: expected PROC");
  }
  snprintf(buf, sizeof buf, "%sA 2 0 12 5\n", v4);
  buf[6] = '6'; /* not a version 6 record */
  CHECK_HAS(read_text(buf, &err), "bad.xpcfg:5: expected PROC");
  buf[6] = '7';
  CHECK_STR(read_text(buf, &err), "read");
}

/* A source STEM.c holding `text` in the temporary directory and its
 * object's table path, STEM.o.xpcov. */
static void table_paths(const char *stem, const char *text, char src[256], char table[256]) {
  snprintf(src, 256, "%s/%s.c", unit_tmpdir(), stem);
  unit_write_file(src, text, strlen(text));
  snprintf(table, 256, "%s/%s.o.xpcov", unit_tmpdir(), stem);
}

/* Procedure `name`, the diamond with its counters, declared at line
 * `decl` of src. */
static void diamond_proc(xprof_linetab *t, const char *name, uint64_t signature, int comdat,
                         const char *src, uint32_t decl) {
  uint32_t counter_of_edge[N_EDGES];
  int64_t nc = xprof_place_counters(N_NODES, diamond, N_EDGES, counter_of_edge);
  xprof_linetab_proc(t, name, signature, N_NODES, diamond, N_EDGES, counter_of_edge,
                     (uint32_t)nc, comdat, src, decl);
}

/* A coverage table written by the plugins' writer and read back: sources
 * made absolute and described, a block's repeated lines dropped. */
static void linetab_round_trip(void) {
  char src[256], table[256];
  table_paths("lt", "int x;\n", src, table);
  xprof_linetab *t = xprof_linetab_begin(1);
  CHECK(!xprof_linetab_has_lines(t));
  diamond_proc(t, "diamond", 0x42, 1, src, 3);
  xprof_linetab_line(t, 2, src, 3);
  xprof_linetab_line(t, 2, src, 4);
  xprof_linetab_line(t, 2, src, 3); /* again: dropped */
  xprof_linetab_line(t, 3, src, 4);
  xprof_linetab_line(t, 4, "other.h", 9);
  xprof_linetab_line(t, 5, src, 0); /* no line: dropped */
  xprof_linetab_call(t, 3, "callee");
  xprof_linetab_call(t, 3, "callee");
  xprof_linetab_call(t, 4, "bad name"); /* not a symbol: dropped */
  /* Code of g inlined at line 5, and of h inlined into that at g's line
   * 11; a frame without a name ends the chain. */
  xprof_inline_frame g[] = {{"g", src, 10, 5}};
  xprof_inline_frame chain[] = {{NULL, src, 1, 1}, {"h", "other.h", 2, 11}, {"g", src, 10, 5}};
  xprof_linetab_inlined_line(t, 3, src, 12, g, 1);
  xprof_linetab_inlined_line(t, 3, "other.h", 3, chain, 3);
  xprof_linetab_inlined_line(t, 4, src, 13, g, 1); /* the same context again */
  xprof_linetab_marker_line(t, 5, src, 15, g, 1);   /* debug statements only */
  /* Columns: line 4 (blocks 2 and 3) at 7 on both and at 12 on block 2
   * (7 again: dropped); block 3's inlined line 12 at 5, its only block
   * (left out: linetab_columns); column 0 is none. */
  xprof_linetab_column(t, 2, src, 4, 7, NULL, 0);
  xprof_linetab_column(t, 2, src, 4, 12, NULL, 0);
  xprof_linetab_column(t, 2, src, 4, 7, NULL, 0);
  xprof_linetab_column(t, 3, src, 4, 7, NULL, 0);
  xprof_linetab_column(t, 3, src, 12, 5, g, 1);
  xprof_linetab_column(t, 3, src, 12, 0, g, 1);
  /* Sites' places: an indirect call (site 1) in main's code, a division
   * (site 0) in g's. */
  xprof_linetab_site(t, 1, XPROF_SITE_CALL, src, 6, NULL, 0);
  xprof_linetab_site(t, 0, XPROF_SITE_DIVISOR, src, 14, g, 1);
  xprof_linetab_site(t, 2, XPROF_SITE_LENGTH, NULL, 7, NULL, 0); /* no file: dropped */
  CHECK(xprof_linetab_has_lines(t));
  xprof_error err;
  CHECK(xprof_linetab_end(t, table, &err) == 0);
  xprof_profile *owner = xprof_profile_new();
  xprof_cfgdump d;
  CHECK(xprof_cfgdump_read(table, owner, &d, &err) == 0);
  CHECK_U64(d.version, 7);
  CHECK_U64(d.n_procs, 1);
  CHECK_U64(d.procs[0].n_columns, 3); /* in order of line, column, block */
  CHECK_U64(d.procs[0].columns[1].column, 7);
  CHECK_U64(d.procs[0].columns[1].node, 3);
  CHECK_U64(d.procs[0].columns[2].column, 12);
  CHECK_U64(d.procs[0].columns[2].line, 4);
  CHECK_U64(d.procs[0].columns[2].node, 2);
  CHECK_U64(d.procs[0].columns[2].context, XPROF_NO_LINE);
  CHECK_U64(d.procs[0].n_lines, 8); /* columns are not lines */
  CHECK_U64(d.n_sources, 2);
  CHECK_STR(d.sources[0].path, src);
  CHECK_U64(d.sources[0].size, 7);
  CHECK_U64(d.sources[0].hash, xprof_hash64("int x;\n", 7));
  CHECK(d.sources[1].path[0] == '/'); /* other.h, under the working directory */
  CHECK_U64(d.sources[1].size, 0);    /* not there */
  CHECK_U64(d.procs[0].decl_file, 0);
  CHECK_U64(d.procs[0].decl_line, 3);
  CHECK(d.procs[0].comdat);
  CHECK_U64(d.procs[0].n_lines, 8);
  CHECK(!d.procs[0].lines[6].marker && d.procs[0].lines[7].marker);
  CHECK_U64(d.procs[0].lines[7].line, 15);
  CHECK_U64(d.procs[0].lines[7].context, 0);
  CHECK_U64(d.procs[0].lines[1].line, 4);
  CHECK_U64(d.procs[0].lines[1].context, XPROF_NO_LINE);
  CHECK_U64(d.procs[0].lines[3].file, 1);
  CHECK_U64(d.n_contexts, 2);
  CHECK_STR(d.contexts[0].name, "g");
  CHECK_U64(d.contexts[0].parent, XPROF_NO_LINE);
  CHECK_U64(d.contexts[0].call_line, 5);
  CHECK_U64(d.contexts[0].decl_line, 10);
  CHECK_STR(d.contexts[1].name, "h");
  CHECK_U64(d.contexts[1].parent, 0);
  CHECK_U64(d.contexts[1].call_line, 11);
  CHECK_U64(d.contexts[1].file, 1);
  CHECK_U64(d.procs[0].lines[4].context, 0);
  CHECK_U64(d.procs[0].lines[5].context, 1);
  CHECK_U64(d.procs[0].lines[6].context, 0);
  CHECK_U64(d.procs[0].n_calls, 2);
  CHECK_U64(d.procs[0].calls[1].node, 3);
  CHECK_STR(d.procs[0].calls[1].callee, "callee");
  CHECK_U64(d.procs[0].n_sites, 2);
  CHECK_U64(d.procs[0].sites[0].node, 1);
  CHECK_U64(d.procs[0].sites[0].line, 6);
  CHECK_U64(d.procs[0].sites[0].context, XPROF_NO_LINE);
  CHECK_U64(d.procs[0].sites[0].kind, XPROF_SITE_CALL);
  CHECK_U64(d.procs[0].sites[1].kind, XPROF_SITE_DIVISOR);
  CHECK_U64(d.procs[0].sites[1].node, 0);
  CHECK_U64(d.procs[0].sites[1].line, 14);
  CHECK_U64(d.procs[0].sites[1].context, 0);
  xprof_profile_free(owner);
  char *p = xprof_linetab_path("/b/c.o", "/d");
  CHECK_STR(p, "/d/#b#c.o.xpcov");
  xprof_free(p);
  p = xprof_linetab_path("/b/c.o", NULL);
  CHECK_STR(p, "/b/c.o.xpcov");
  xprof_free(p);
}

/* Which columns the writer keeps: those of a line with a column on other
 * blocks than the line's; each procedure's after its own records. */
static void linetab_columns(void) {
  char src[256], table[256];
  table_paths("ltc", "int y;\n", src, table);
  xprof_inline_frame g[] = {{"g", src, 10, 5}};
  xprof_linetab *t = xprof_linetab_begin(0);
  diamond_proc(t, "p", 0x42, 0, src, 3);
  for (uint32_t node = 1; node <= 2; node++) {
    xprof_linetab_line(t, node, src, 20); /* 3 and 9 on both blocks: left out */
    xprof_linetab_column(t, node, src, 20, 3, NULL, 0);
    xprof_linetab_column(t, node, src, 20, 9, NULL, 0);
    xprof_linetab_line(t, node, src, 21); /* 3 on one, 9 on the other: kept */
    xprof_linetab_column(t, node, src, 21, node == 1 ? 3 : 9, NULL, 0);
  }
  xprof_linetab_line(t, 3, src, 22); /* one block: left out */
  xprof_linetab_column(t, 3, src, 22, 8, NULL, 0);
  xprof_linetab_column(t, 3, src, 22, 4, NULL, 0);
  xprof_linetab_inlined_line(t, 3, src, 12, g, 1); /* a column off the line's block: kept */
  xprof_linetab_column(t, 4, src, 12, 5, g, 1);
  diamond_proc(t, "q", 0x43, 0, src, 30);
  xprof_linetab_line(t, 1, src, 30);
  xprof_linetab_line(t, 2, src, 30);
  xprof_linetab_column(t, 2, src, 30, 6, NULL, 0);
  xprof_linetab_column(t, 1, src, 30, 2, NULL, 0);
  xprof_error err;
  CHECK(xprof_linetab_end(t, table, &err) == 0);
  xprof_profile *owner = xprof_profile_new();
  xprof_cfgdump d;
  CHECK(xprof_cfgdump_read(table, owner, &d, &err) == 0);
  CHECK_U64(d.n_procs, 2);
  const xprof_cfgdump_entry *p = &d.procs[0], *q = &d.procs[1];
  CHECK_U64(p->n_lines, 6);
  CHECK_U64(p->n_columns, 3);
  CHECK_U64(p->columns[0].line, 12);
  CHECK_U64(p->columns[0].node, 4);
  CHECK_U64(p->columns[0].context, 0);
  CHECK_U64(p->columns[1].line, 21);
  CHECK_U64(p->columns[1].column, 3);
  CHECK_U64(p->columns[1].node, 1);
  CHECK_U64(p->columns[2].column, 9);
  CHECK_U64(p->columns[2].node, 2);
  CHECK_U64(q->n_columns, 2);
  CHECK_U64(q->columns[0].column, 2);
  CHECK_U64(q->columns[0].node, 1);
  CHECK_U64(q->columns[1].column, 6);
  xprof_profile_free(owner);
}

static const xprof_cov_line *cov_line(const xprof_proc_cov *cov, uint32_t line) {
  for (uint32_t i = 0; i < cov->n_lines; i++)
    if (cov->lines[i].line == line)
      return &cov->lines[i];
  return NULL;
}

/* The diamond with a line per block: each line counts its block; the
 * branch is at the line that ends the block. */
static void coverage_diamond(void) {
  xprof_cfg_line lines[] = {{2, 0, 10, 0, OWN}, {2, 0, 11, 0, OWN}, {3, 0, 12, 0, OWN},
                            {4, 0, 14, 0, OWN}, {5, 0, 15, 0, OWN}};
  xprof_cfgdump_entry c = {.n_nodes = N_NODES, .n_edges = N_EDGES,
                           .edges = (xprof_edge *)diamond, .lines = lines, .n_lines = 5};
  uint64_t edges[N_EDGES] = {10, 7, 3, 7, 3, 10}, nodes[N_NODES] = {10, 10, 10, 7, 3, 10};
  xprof_proc_cov cov;
  CHECK(xprof_proc_coverage(&c, edges, nodes, &cov) == 0);
  CHECK_U64(cov.entry_count, 10);
  CHECK_U64(cov.n_lines, 5);
  CHECK_U64(cov_line(&cov, 10)->count, 10); /* ends no block: its block's count */
  CHECK_U64(cov_line(&cov, 11)->count, 10);
  CHECK_U64(cov_line(&cov, 12)->count, 7);
  CHECK_U64(cov_line(&cov, 14)->count, 3);
  CHECK_U64(cov_line(&cov, 15)->count, 10);
  CHECK(cov_line(&cov, 10)->flags & XPROF_COV_BEGINS_BLOCK);
  CHECK(!(cov_line(&cov, 11)->flags & XPROF_COV_BEGINS_BLOCK));
  CHECK_U64(cov.n_blocks, 4);
  CHECK_U64(cov.n_branches, 2);
  CHECK_U64(cov.branches[0].line, 11);
  CHECK_U64(cov.branches[0].count, 7);
  CHECK_U64(cov.branches[1].count, 3);
  CHECK_U64(cov.branches[1].index, 1);
  xprof_proc_coverage_free(&cov);
}

/* for (i = 0; i < 10; i++) s += i; on one line (20), then line 21: the
 * line is entered once and goes round its loop ten times: 11, as gcov. */
static void coverage_loop_on_a_line(void) {
  static const xprof_edge loop[] = {{XPROF_ENTRY, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {3, 4, 0, 0, 0},
                                    {4, 3, 0, 0, 0},           {3, 5, 0, 0, 0}, {5, XPROF_EXIT, 0, 0, 0}};
  xprof_cfg_line lines[] = {{2, 0, 20, 0, OWN}, {3, 0, 20, 0, OWN}, {4, 0, 20, 0, OWN},
                            {5, 0, 21, 0, OWN}};
  xprof_cfgdump_entry c = {.n_nodes = 6, .n_edges = 6, .edges = (xprof_edge *)loop,
                           .lines = lines, .n_lines = 4};
  uint64_t edges[6] = {1, 1, 10, 10, 1, 1}, nodes[6] = {1, 1, 1, 11, 10, 1};
  xprof_proc_cov cov;
  CHECK(xprof_proc_coverage(&c, edges, nodes, &cov) == 0);
  CHECK_U64(cov_line(&cov, 20)->count, 11);
  CHECK_U64(cov_line(&cov, 21)->count, 1);
  CHECK_U64(cov.n_blocks, 4);
  CHECK_U64(cov.n_branches, 2); /* the condition's */
  CHECK_U64(cov.branches[0].node, 3);
  xprof_proc_coverage_free(&cov);
  /* Never run: every line 0. */
  uint64_t zero[6] = {0};
  CHECK(xprof_proc_coverage(&c, zero, zero, &cov) == 0);
  CHECK_U64(cov_line(&cov, 20)->count, 0);
  xprof_proc_coverage_free(&cov);
}

/* Two loops through the same block on one line (10): A -> B -> A six
 * times, A -> B -> C -> A four times, entered once; gcov's circuits give
 * the line 1 + 6 + 4. */
static void coverage_circuits(void) {
  static const xprof_edge g[] = {{XPROF_ENTRY, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {3, 2, 0, 0, 0},
                                 {3, 4, 0, 0, 0},           {4, 2, 0, 0, 0}, {2, XPROF_EXIT, 0, 0, 0}};
  xprof_cfg_line lines[] = {{2, 0, 10, 0, OWN}, {3, 0, 10, 0, OWN}, {4, 0, 10, 0, OWN}};
  xprof_cfgdump_entry c = {.n_nodes = 5, .n_edges = 6, .edges = (xprof_edge *)g,
                           .lines = lines, .n_lines = 3};
  uint64_t edges[6] = {1, 10, 6, 4, 4, 1}, nodes[5] = {1, 1, 11, 10, 4};
  xprof_proc_cov cov;
  CHECK(xprof_proc_coverage(&c, edges, nodes, &cov) == 0);
  CHECK_U64(cov_line(&cov, 10)->count, 11);
  CHECK_U64(cov_line(&cov, 10)->blocks, 25);
  CHECK(cov_line(&cov, 10)->flags & XPROF_COV_ENDS_BLOCK);
  xprof_proc_coverage_free(&cov);
}

/* while (f(a[j]) ...) with the call on line 7 and its argument on line 8,
 * as GCC's coverage sees it: the call ends a piece of its block (B), so
 * that line 8 ends the first piece and line 7 the second.  Line 7 is
 * entered from the block before the loop (49) and after each call (697):
 * 746, as gcov says; line 8 once per test (697).  An edge block (E) on
 * the loop's exit carries line 15's jump. */
static void coverage_pieces(void) {
  static const xprof_edge g[] = {{XPROF_ENTRY, 2, 0, 0, 0}, {2, 3, 0, 0, 0}, {3, 4, 0, 0, 0},
                                 {4, 3, 0, 0, 0},           {3, 5, 0, 0, 0}, {5, XPROF_EXIT, 0, 0, 0}};
  xprof_cfg_line lines[] = {{2, 0, 5, 0, OWN},  {2, 0, 6, 0, OWN},  {2, 0, 7, 0, OWN},  {3, 0, 8, 0, OWN},
                            {3, 0, 7, 0, OWN},  {3, 0, 7, 1, OWN},  {4, 0, 10, 0, OWN}, {4, 0, 13, 0, OWN},
                            {5, 0, 16, 0, OWN}};
  uint32_t pieces[6] = {1, 1, 1, 2, 1, 1};
  xprof_cfg_edge_block eb[] = {{4, 0, 15}};
  xprof_cfgdump_entry c = {.n_nodes = 6, .n_edges = 6, .edges = (xprof_edge *)g,
                           .lines = lines, .n_lines = 9, .n_pieces = pieces,
                           .edge_blocks = eb, .n_edge_blocks = 1, .gcc_rules = 1};
  uint64_t edges[6] = {49, 49, 648, 648, 49, 49}, nodes[6] = {49, 49, 49, 697, 648, 49};
  xprof_proc_cov cov;
  CHECK(xprof_proc_coverage(&c, edges, nodes, &cov) == 0);
  CHECK_U64(cov_line(&cov, 7)->count, 746);
  CHECK_U64(cov_line(&cov, 8)->count, 697);
  CHECK_U64(cov_line(&cov, 15)->count, 49);
  CHECK_U64(cov_line(&cov, 16)->count, 49);
  CHECK_U64(cov.n_blocks, 6); /* 2, both pieces of 3, 4, 5, the edge's */
  CHECK_U64(cov.n_branches, 2);
  xprof_proc_coverage_free(&cov);
}

UNIT_TABLE(cfgdump_tests) = {
    {"cfgdump/round_trip", round_trip},
    {"cfgdump/damaged", damaged},
    {"cfgdump/linetab_round_trip", linetab_round_trip},
    {"cfgdump/linetab_columns", linetab_columns},
    {"cfgdump/coverage_diamond", coverage_diamond},
    {"cfgdump/coverage_loop_on_a_line", coverage_loop_on_a_line},
    {"cfgdump/coverage_pieces", coverage_pieces},
    {"cfgdump/coverage_circuits", coverage_circuits},
    UNIT_END};
