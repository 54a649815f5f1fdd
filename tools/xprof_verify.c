/*
 * xprof_verify - check that spanning-tree counters reconstruct every edge
 * count exactly.
 *
 *   xprof_verify [-v] profile_directory OBJECT.xpcfg...
 *
 * The objects must have been compiled with the plugins' debug options
 * all-edges and cfg-dump: each real edge then has a counter of its own,
 * and OBJECT.xpcfg says which.  For every procedure in the profile the
 * flow solver derives all edges from the spanning-tree counters alone;
 * each result must equal the edge's own counter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_verify [-v] profile_directory OBJECT.xpcfg...\n"
    "\n"
    "Solve every procedure's edge counts from its spanning-tree counters and\n"
    "compare them with the per-edge debug counters (objects compiled with\n"
    "the plugin options all-edges and cfg-dump).  Exit status 1 on any\n"
    "difference.\n";

/* What the checks found, over every dump. */
struct tally {
  uint64_t procs, edges, bad, unrun;
  int verbose;
};

/* Check one procedure's edges: the counts the flow solver derives from
 * its counters against its debug counters. */
static void verify_proc(const char *dump, const xprof_objfile *o, const xprof_proc *f,
                        const xprof_cfgdump_entry *c, struct tally *t) {
  uint64_t *solved = calloc((size_t)c->n_edges + 1, sizeof *solved);
  if (!solved)
    exit(tool_error("out of memory"));
  int rc = xprof_solve_proc(o, f, c, solved, NULL);
  if (rc != 0) {
    printf("%s: %s: the flow solver %s\n", dump, c->name,
           rc > 0 ? "found inconsistent counts" : "failed");
    t->bad++;
  }
  for (uint32_t e = 0; e < c->n_edges; e++) {
    if (c->debug_of_edge[e] == XPROF_ON_TREE)
      continue;
    t->edges++;
    uint64_t truth = xprof_proc_counter(f, c->debug_of_edge[e]);
    if (solved[e] != truth) {
      printf("%s: %s: edge %u (%u -> %u) solved %llu, counted %llu\n", dump, c->name, e,
             c->edges[e].src, c->edges[e].dst, (unsigned long long)solved[e],
             (unsigned long long)truth);
      t->bad++;
    } else if (t->verbose) {
      printf("%s: %s: edge %u (%u -> %u) %llu\n", dump, c->name, e, c->edges[e].src,
             c->edges[e].dst, (unsigned long long)truth);
    }
  }
  free(solved);
}

/* Check the procedures of one OBJECT.xpcfg.  Returns 1 when the object is
 * in the profile, 0 when it is not (skipped, with a message), -1 after an
 * error message. */
static int verify_dump(const char *dump, xprof_profile *prof, struct tally *t) {
  size_t len = strlen(dump);
  if (len < 7 || strcmp(dump + len - 6, ".xpcfg") != 0)
    return -tool_error("%s: expected a file named OBJECT.xpcfg", dump);
  xprof_error err;
  xprof_cfgdump dumped;
  if (xprof_cfgdump_read(dump, prof, &dumped, &err) < 0)
    return -tool_fail(&err);
  xprof_cfgdump_entry *cfgs = dumped.procs;
  uint32_t n = dumped.n_procs;
  if (n == 0) /* an object without code (a header test): it has no
               * counters, so no run puts it into the profile */
    return 0;
  char real[8192];
  const xprof_objfile *o = tool_dump_object(prof, dump, real);
  if (!o) { /* linked into no program that ran, as libtool's non-PIC twins
             * of the objects in a shared library often are */
    fprintf(stderr, "xprof_verify: %s: the profile has no data for %s (in no program "
            "that ran?); skipped\n", dump, real);
    return 0;
  }
  for (uint32_t i = 0; i < n; i++) {
    const xprof_cfgdump_entry *c = &cfgs[i];
    const xprof_proc *f = xprof_find_proc(o, c->name);
    if (!f)
      return -tool_error("%s: procedure %s is not in the profile", dump, c->name);
    if (f->signature != c->signature)
      return -tool_error("%s: procedure %s has signature 0x%llx in the profile, 0x%llx in "
                          "the dump",
                          dump, c->name, (unsigned long long)f->signature,
                          (unsigned long long)c->signature);
    if (c->n_debug == 0)
      return -tool_error("%s: procedure %s has no debug counters (compile with the "
                          "all-edges option)",
                          dump, c->name);
    t->procs++;
    if (f->n_counters == 0 && f->n_vp_records == 0) /* never ran */
      t->unrun++;
    else
      verify_proc(dump, o, f, c, t);
  }
  return 1;
}

int main(int argc, char **argv) {
  tool_init("xprof_verify");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  struct tally t = {0, 0, 0, 0, 0};
  int first = 1;
  if (first < argc && strcmp(argv[first], "-v") == 0) {
    t.verbose = 1;
    first++;
  }
  if (argc - first < 2) {
    fputs(usage, stderr);
    return 1;
  }
  xprof_error err;
  xprof_profile *prof;
  if (xprof_read_input(argv[first], &prof, &err) < 0)
    return tool_fail(&err);
  uint32_t found = 0, skipped = 0;
  for (int a = first + 1; a < argc; a++) {
    int rc = verify_dump(argv[a], prof, &t);
    if (rc < 0)
      return 1;
    found += rc == 1;
    skipped += rc == 0;
  }
  if (skipped && !found)
    return tool_error("%s: holds none of the objects", argv[first]);
  /* No edge checked is no evidence: not "all exact". */
  const char *verdict = t.bad ? "MISMATCHES" : t.edges ? "all exact" : "nothing to check";
  printf("%llu procedure%s (%llu never run), %llu edge%s checked: %s\n",
         (unsigned long long)t.procs, xprof_plural(t.procs), (unsigned long long)t.unrun,
         (unsigned long long)t.edges, xprof_plural(t.edges), verdict);
  xprof_profile_free(prof);
  return t.bad || !t.edges ? 1 : 0;
}
