/* test_model.c - validation, statistics, checksums. */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "xprof_plan.h"
#include "xprof_views.h"

static void validation(void) {
  xprof_error err;
  xprof_profile *p = xprof_profile_new();
  xprof_objfile *o = xprof_add_objfile(p, "a.o");
  xprof_add_proc(p, o, "f");
  xprof_add_proc(p, o, "f");
  CHECK(xprof_validate(p, "v", &err) == -1);
  CHECK_STR(err.msg, "v: procedure f appears twice in object file a.o");
  o->procs[1].name = "g";
  CHECK(xprof_validate(p, "v", &err) == 0);

  xprof_proc *f = &o->procs[1];
  xprof_proc_alloc_counters(p, f, 2);
  f->counter_ids = xprof_alloc(p, 8);
  f->counter_ids[0] = 4;
  f->counter_ids[1] = 4;
  CHECK(xprof_validate(p, "v", &err) == -1);
  CHECK_STR(err.msg, "v: procedure g in a.o: counter ids not strictly "
                     "increasing (4 after 4)");
  f->counter_ids[1] = 5;

  o->n_values_per_vp = 1;
  xprof_proc_alloc_vp(p, o, f, 1);
  f->vp[0].values[0].bits = 3; /* value with a zero count */
  CHECK(xprof_validate(p, "v", &err) == -1);
  CHECK_HAS(err.msg, "a zero count with a value");
  f->vp[0].values[0].count = 1;
  CHECK(xprof_validate(p, "v", &err) == 0);

  xprof_program *g = xprof_add_program(p, "prog");
  xprof_program_add_objref(p, g, "a.o");
  xprof_program_add_objref(p, g, "a.o");
  CHECK(xprof_validate(p, "v", &err) == -1);
  CHECK_STR(err.msg, "v: program prog lists object file a.o twice");
  xprof_profile_free(p);
}

/* Doubles among many names that share a long prefix (as a program's
 * procedures do), wherever they are; programs and their object lists. */
static void validation_names(void) {
  xprof_error err;
  char name[64];
  xprof_profile *p = xprof_profile_new();
  xprof_objfile *o = xprof_add_objfile(p, "b.o");
  for (int i = 0; i < 3000; i++) {
    snprintf(name, sizeof name, "sqlite3VdbeSomethingLong_%d", i % 2999);
    xprof_add_proc(p, o, name);
  }
  CHECK(xprof_validate(p, "v", &err) == -1);
  CHECK_STR(err.msg, "v: procedure sqlite3VdbeSomethingLong_0 appears twice in "
                     "object file b.o");
  o->procs[2999].name = "other";
  CHECK(xprof_validate(p, "v", &err) == 0);

  xprof_add_objfile(p, "a.o");
  xprof_program *g = xprof_add_program(p, "prog");
  xprof_program_add_objref(p, g, "a.o");
  xprof_program_add_objref(p, g, "c.o");
  CHECK(xprof_validate(p, "v", &err) == -1);
  CHECK_STR(err.msg, "v: program prog refers to object file c.o, which the "
                     "profile does not define");
  g->objrefs[1] = "b.o";
  CHECK(xprof_validate(p, "v", &err) == 0);
  xprof_program *h = xprof_add_program(p, "prog2");
  h->path = "prog";
  CHECK(xprof_validate(p, "v", &err) == -1);
  CHECK_STR(err.msg, "v: program prog appears twice");
  h->path = "prog2";
  p->objfiles[1].path = "b.o";
  CHECK(xprof_validate(p, "v", &err) == -1);
  CHECK_STR(err.msg, "v: object file b.o appears twice");
  xprof_profile_free(p);
}

static void stats(void) {
  xprof_profile *p = xprof_profile_new();
  xprof_objfile *o = xprof_add_objfile(p, "a.o");
  for (int i = 0; i < 2; i++) {
    xprof_proc *f = xprof_add_proc(p, o, i ? "g" : "f");
    xprof_proc_alloc_counters(p, f, 2);
    f->counters[0] = 10 * (uint64_t)(i + 1);
    f->counters[1] = UINT64_MAX - 1;
  }
  xprof_program *g = xprof_add_program(p, "prog");
  xprof_program_add_objref(p, g, "a.o");
  xprof_update_stats(p, 0);
  CHECK(!o->stats.has_max && !o->stats.has_sum);
  xprof_update_stats(p, 1);
  CHECK_U64(o->procs[0].stats.max, UINT64_MAX - 1);
  CHECK_U64(o->procs[1].stats.sum, UINT64_MAX); /* saturates */
  CHECK_U64(o->stats.sum, UINT64_MAX);
  CHECK_U64(g->stats.max, UINT64_MAX - 1);
  xprof_profile_free(p);
}

static void checksums(void) {
  /* CRC-32C check value from the standard: "123456789" -> 0xe3069283 */
  CHECK_U64(xprof_crc32c(0, "123456789", 9), 0xe3069283u);
  /* incremental equals one-shot, at every split and alignment */
  char buf[300];
  for (int i = 0; i < 300; i++)
    buf[i] = (char)(i * 7 + 1);
  uint32_t whole = xprof_crc32c(0, buf + 1, 299);
  for (int k = 0; k < 299; k += 13)
    CHECK_U64(xprof_crc32c(xprof_crc32c(0, buf + 1, (size_t)k), buf + 1 + k,
                           (size_t)(299 - k)),
              whole);
  CHECK_U64(xprof_hash64("", 0), 0xcbf29ce484222325ull);
  CHECK_U64(xprof_hash64("a", 1), 0xaf63dc4c8601ec8cull);
}

static void replace_names(void) {
  xprof_replace r;
  CHECK(xprof_replace_parse("program", &r) == 0 && r == XPROF_REPLACE_PROGRAM);
  CHECK(xprof_replace_parse("all", &r) == 0 && r == XPROF_REPLACE_ALL);
  CHECK(xprof_replace_parse("objfile", &r) == 0 && r == XPROF_REPLACE_OBJFILE);
  CHECK(xprof_replace_parse("everything", &r) == -1);
}

/* The summary's cutoffs against the definition (LLVM's
 * ProfileSummaryBuilder): every nonzero count, largest first, until the
 * cutoff's share of the sum; the threshold is the count reached there,
 * and every count of its value is counted.  Over counts of many
 * magnitudes, repeated values and zeros, from a fixed generator. */
static int count_desc(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

static void summary_cutoffs(void) {
  xprof_profile *p = xprof_profile_new();
  uint64_t all[3000], seed = 12345, sum = 0;
  uint32_t n = 0;
  for (int i = 0; i < 3; i++) {
    char name[8] = {(char)('a' + i), '.', 'o', 0};
    xprof_objfile *o = xprof_add_objfile(p, name);
    for (int j = 0; j < 10; j++) {
      char fn[8] = {'f', (char)('0' + j), 0};
      xprof_proc *f = xprof_add_proc(p, o, fn);
      xprof_proc_alloc_counters(p, f, 100);
      for (int k = 0; k < 100; k++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r = (unsigned)(seed >> 33);
        uint64_t v = r % 5 == 0 ? 0 : r % 7 == 0 ? 1000 : ((uint64_t)1 << (r % 30)) + r % 97;
        f->counters[k] = v;
        if (v)
          all[n++] = v, sum += v;
      }
    }
  }
  xprof_summary s;
  xprof_compute_summary(p, &s);
  CHECK_U64(s.n_counts, n);
  CHECK_U64(s.total_sum, sum);
  CHECK_U64(s.n_procs, 30);
  qsort(all, n, sizeof *all, count_desc);
  CHECK_U64(s.total_max, all[0]);
  for (unsigned c = 0; c < XPROF_SUMMARY_CUTOFFS; c++) {
    uint64_t want = (uint64_t)((unsigned __int128)sum * s.entry[c].cutoff / 1000000u), acc = 0;
    uint32_t i = 0;
    while (i < n && acc < want)
      acc += all[i++];
    uint64_t min = i ? all[i - 1] : all[0];
    while (i < n && all[i] == min)
      i++;
    CHECK_U64(s.entry[c].min_count, min);
    CHECK_U64(s.entry[c].num_counts, i);
  }
  xprof_profile_free(p);
}

UNIT_TABLE(model_tests) = {
    {"model/validation", validation},
    {"model/validation_names", validation_names},
    {"model/stats", stats},
    {"model/checksums", checksums},
    {"model/replace_names", replace_names},
    {"model/summary_cutoffs", summary_cutoffs},
    UNIT_END};
