/* test_cfgdump.c - the plugins' CFG dumps, written and read back, and the
 * reader's errors on damaged dumps (xprof_verify indexes counts with
 * what it reads). */
#include <stdlib.h>

#include "unit.h"
#include "xprof.h"

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
  xprof_cfgdump_entry *procs;
  uint32_t n;
  xprof_error err;
  CHECK(xprof_cfgdump_read(path, owner, &procs, &n, &err) == 0);
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
  xprof_cfgdump_entry *procs;
  uint32_t n;
  int rc = xprof_cfgdump_read(path, owner, &procs, &n, err);
  xprof_profile_free(owner);
  return rc == 0 ? "read" : err->msg;
}

static void damaged(void) {
  xprof_error err;
  CHECK_HAS(read_text("XPCFG 2\n", &err), "bad.xpcfg:1: not a CFG dump");
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
}

UNIT_TABLE(cfgdump_tests) = {
    {"cfgdump/round_trip", round_trip},
    {"cfgdump/damaged", damaged},
    UNIT_END};
