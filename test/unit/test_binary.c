/* test_binary.c - the binary format: round trips, corruption, the index. */
#include <stdlib.h>

#include "../../libxprof/format/binary_format.h"
#include "../../libxprof/format/internal.h"
#include "xprof_plan.h"
#include "xprof_views.h"
#include "unit.h"

static xprof_profile *sample(void) {
  xprof_profile *p = NULL;
  xprof_error err;
  if (xprof_text_parse("sample", unit_sample_text, strlen(unit_sample_text),
                       &p, &err) < 0)
    fprintf(stderr, "sample: %s\n", err.msg);
  return p;
}

static unsigned char *serialize(const xprof_profile *p, size_t *len) {
  unsigned char *buf = NULL;
  xprof_error err;
  if (xprof_binary_serialize(p, &buf, len, &err) < 0)
    fprintf(stderr, "serialize: %s\n", err.msg);
  return buf;
}

/* parse takes the buffer, so give it a copy */
static int parse_copy(const unsigned char *b, size_t n, xprof_profile **out,
                      xprof_error *err) {
  unsigned char *c = malloc(n ? n : 1);
  memcpy(c, b, n);
  return xprof_binary_parse("bin", c, n, out, err);
}

static void round_trip(void) {
  xprof_profile *p = sample(), *q;
  size_t n1, n2;
  xprof_error err;
  unsigned char *b1 = serialize(p, &n1);
  CHECK(b1 && n1 % 8 == 0);
  CHECK(memcmp(b1, "xprof binary data 4.8\n", 22) == 0);
  CHECK(parse_copy(b1, n1, &q, &err) == 0);
  unsigned char *b2 = serialize(q, &n2);
  CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0);
  CHECK_U64(q->objfiles[0].procs[0].counters[1], 1000);
  CHECK_STR(q->objfiles[0].procs[0].vp[0].values[0].proc,
            "hot_path:/build/demo/ops.o");
  CHECK_U64(q->programs[1].n_objrefs, 1);
  free(b1);
  free(b2);
  xprof_profile_free(p);
  xprof_profile_free(q);
}

/* Every single-bit flip anywhere in the file is detected. */
static void bit_flips(void) {
  xprof_profile *p = sample();
  size_t n;
  unsigned char *b = serialize(p, &n);
  int undetected = 0;
  for (size_t i = 0; i < n; i++)
    for (int bit = 0; bit < 8; bit++) {
      b[i] ^= (unsigned char)(1 << bit);
      xprof_profile *q = NULL;
      xprof_error err;
      if (parse_copy(b, n, &q, &err) == 0) {
        if (undetected++ < 3)
          fprintf(stderr, "flip of bit %d at %zu not detected\n", bit, i);
        xprof_profile_free(q);
      } else {
        CHECK(strncmp(err.msg, "bin: ", 5) == 0);
      }
      b[i] ^= (unsigned char)(1 << bit);
    }
  CHECK(undetected == 0);
  free(b);
  xprof_profile_free(p);
}

static void truncations(void) {
  xprof_profile *p = sample();
  size_t n;
  unsigned char *b = serialize(p, &n);
  for (size_t k = 0; k < n; k++) {
    xprof_profile *q = NULL;
    xprof_error err;
    CHECK(parse_copy(b, k, &q, &err) == -1);
    if (k >= 64)
      CHECK_HAS(err.msg, "truncated");
  }
  free(b);
  xprof_profile_free(p);
}

/* Rewrite the header's checksum after editing it. */
static void reseal_header(unsigned char *b) {
  xprof_put32(b + 60, xprof_crc32c(0, b, 60));
}

static void header_errors(void) {
  xprof_profile *p = sample(), *q;
  size_t n;
  xprof_error err;
  unsigned char *b = serialize(p, &n);

  unsigned char *c = malloc(n);
  memcpy(c, b, n);
  c[24] = 'Y';
  CHECK(parse_copy(c, n, &q, &err) == -1);
  CHECK_STR(err.msg, "bin: offset 0: not xprof binary data (wrong magic)");

  memcpy(c, b, n);
  c[32] = 5;
  reseal_header(c);
  CHECK(parse_copy(c, n, &q, &err) == -1);
  CHECK(err.code == XPROF_ERR_VERSION);
  char want[96];
  snprintf(want, sizeof want,
           "bin: binary data version 5.%d is not supported (this reader knows 4.%d)",
           XPROF_BINARY_MINOR, XPROF_BINARY_MINOR);
  CHECK_STR(err.msg, want);

  memcpy(c, b, n);
  xprof_put32(c + 24, 0x58505246u);
  CHECK(parse_copy(c, n, &q, &err) == -1);
  CHECK_HAS(err.msg, "other byte order");

  memcpy(c, b, n);
  c[70] ^= 1; /* first record header */
  CHECK(parse_copy(c, n, &q, &err) == -1);
  CHECK_STR(err.msg, "bin: offset 64: record header checksum mismatch "
                     "(corrupt record header)");

  memcpy(c, b, n);
  c[200] ^= 0x10; /* inside the first payload */
  CHECK(parse_copy(c, n, &q, &err) == -1);
  CHECK_STR(err.msg, "bin: offset 64: OBJF record checksum mismatch (the "
                     "data is corrupt)");

  CHECK(parse_copy((const unsigned char *)"PROFILE", 7, &q, &err) == -1);
  CHECK_HAS(err.msg, "7 bytes is too short for xprof binary data");
  free(c);
  free(b);
  xprof_profile_free(p);
}

/* Rewrite a record's checksums after editing its payload. */
static void reseal_record(unsigned char *h, const unsigned char *payload,
                          uint64_t len) {
  xprof_put32(h + 16, xprof_crc32c(0, payload, len));
  xprof_put32(h + 20, xprof_crc32c(0, h, 20));
}

/* Build a file whose payload makes claims the record cannot hold. */
static void lying_counts(void) {
  xprof_profile *p = xprof_profile_new(), *q;
  xprof_error err;
  xprof_objfile *o = xprof_add_objfile(p, "a.o");
  xprof_proc *f = xprof_add_proc(p, o, "f");
  xprof_proc_alloc_counters(p, f, 2);
  size_t n;
  unsigned char *b = serialize(p, &n);
  /* OBJF payload at 64 + 24; the procedure's n_counters follows the
   * fixed part, the path "a.o" (8 bytes) and an empty string table. */
  unsigned char *payload = b + 64 + 24;
  size_t proc = XB_OBJF_FIXED + 8;
  xprof_put32(payload + proc + 20, 0x40000000u);
  uint64_t plen = xprof_get64(b + 64 + 8);
  reseal_record(b + 64, payload, plen);
  CHECK(parse_copy(b, n, &q, &err) == -1);
  CHECK_HAS(err.msg, "counter array needs 8589934592 bytes");

  /* Same with the number of procedures. */
  free(b);
  b = serialize(p, &n);
  payload = b + 64 + 24;
  xprof_put32(payload + 24, 1000000);
  reseal_record(b + 64, payload, plen);
  CHECK(parse_copy(b, n, &q, &err) == -1);
  CHECK_HAS(err.msg, "1000000 procedures cannot fit in the record");
  free(b);
  xprof_profile_free(p);
}

/* Records of unknown kinds are kept on rewrite; critical ones refused. */
static void foreign_records(void) {
  xprof_profile *p = sample(), *q, *r;
  xprof_error err;
  static const unsigned char data[] = "future data";
  p->foreign = malloc(sizeof *p->foreign);
  p->n_foreign = p->cap_foreign = 1;
  p->foreign[0].tag = XB_TAG('F', 'U', 'T', 'R');
  p->foreign[0].flags = 0;
  p->foreign[0].size = sizeof data;
  p->foreign[0].data = data;
  size_t n1, n2;
  unsigned char *b1 = serialize(p, &n1);
  CHECK(parse_copy(b1, n1, &q, &err) == 0);
  CHECK_U64(q->n_foreign, 1);
  unsigned char *b2 = serialize(q, &n2);
  CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0);
  p->foreign[0].flags = XB_FLAG_CRITICAL;
  free(b2);
  b2 = serialize(p, &n2);
  CHECK(parse_copy(b2, n2, &r, &err) == -1);
  CHECK_HAS(err.msg, "record kind 'FUTR' is required to read this file but "
                     "unknown to this reader");
  free(b1);
  free(b2);
  xprof_profile_free(p);
  xprof_profile_free(q);
}

static void lookup(void) {
  xprof_profile *p = sample(), *q;
  xprof_error err;
  char path[256];
  snprintf(path, sizeof path, "%s/lookup.feedback", unit_tmpdir());
  CHECK(xprof_binary_write_file(p, path, &err) == 0);
  for (uint32_t i = 0; i < p->n_objfiles; i++) {
    CHECK(xprof_binary_lookup(path, p->objfiles[i].path, &q, &err) == 0);
    CHECK_U64(q->n_objfiles, 1);
    CHECK_STR(q->objfiles[0].path, p->objfiles[i].path);
    CHECK_U64(q->objfiles[0].n_procs, p->objfiles[i].n_procs);
    CHECK_U64(q->objfiles[0].signature, p->objfiles[i].signature);
    xprof_profile_free(q);
  }
  CHECK(xprof_binary_lookup(path, "/no/such.o", &q, &err) == -1);
  CHECK(err.code == XPROF_ERR_NOTFOUND);
  CHECK_HAS(err.msg, "no data for object file /no/such.o");

  /* A corrupt record found through the index is reported. */
  size_t n;
  unsigned char *b = (unsigned char *)unit_read_file(path, &n);
  b[64 + 24 + 100] ^= 4;
  unit_write_file(path, b, n);
  CHECK(xprof_binary_lookup(path, "/build/demo/main.o", &q, &err) == -1);
  CHECK_HAS(err.msg, "OBJF record checksum mismatch");
  free(b);
  xprof_profile_free(p);
}

/* The training runs: kept by a round trip, found by a lookup through the
 * index (the RUNS record sits directly before it), added up by merges
 * with their weight, dropped with an older profile that a rebuild
 * resets; a second RUNS record, or one of the wrong size, is refused. */
static void runs(void) {
  xprof_profile *p = sample(), *q, *r;
  xprof_error err;
  size_t n;
  CHECK_U64(p->runs, 0); /* text keeps none */
  unsigned char *b = serialize(p, &n);
  for (size_t off = 64; off < n; off += XB_RECORD_HEADER + xprof_align8(xprof_get64(b + off + 8)))
    CHECK(xprof_get32(b + off) != XB_TAG_RUNS); /* none written for none known */
  free(b);
  p->runs = 3;
  p->run_max_sum = 4500;
  b = serialize(p, &n);
  CHECK(parse_copy(b, n, &q, &err) == 0);
  CHECK_U64(q->runs, 3);
  CHECK_U64(q->run_max_sum, 4500);

  char path[256];
  snprintf(path, sizeof path, "%s/runs.feedback", unit_tmpdir());
  CHECK(xprof_binary_write_file(p, path, &err) == 0);
  CHECK(xprof_binary_lookup(path, "/build/demo/ops.o", &r, &err) == 0);
  CHECK_U64(r->runs, 3);
  CHECK_U64(r->run_max_sum, 4500);
  xprof_profile_free(r);

  CHECK(xprof_merge(q, p, 2, XPROF_REPLACE_OBJFILE, &err) == 0);
  CHECK_U64(q->runs, 9);
  CHECK_U64(q->run_max_sum, 13500);
  xprof_profile_free(q);

  /* Data that does not know its runs (text) counts as one run whose
   * largest counter is its own. */
  CHECK(parse_copy(b, n, &q, &err) == 0);
  r = sample();
  uint64_t max = xprof_max_counter(r);
  CHECK_U64(max, 1000); /* the sample's largest counter */
  CHECK(xprof_merge(q, r, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  CHECK_U64(q->runs, 4);
  CHECK_U64(q->run_max_sum, 4500 + max);
  xprof_profile_free(q);
  xprof_profile_free(r);

  /* Every object file rebuilt, the newer side winning: the runs are its. */
  CHECK(parse_copy(b, n, &q, &err) == 0);
  r = sample();
  r->runs = 1;
  r->run_max_sum = 70;
  for (uint32_t i = 0; i < r->n_objfiles; i++) {
    r->objfiles[i].tv_sec += 100;
    r->objfiles[i].signature ^= 1;
  }
  CHECK(xprof_merge(q, r, 1, XPROF_REPLACE_ALL, &err) == 0);
  CHECK_U64(q->runs, 1);
  CHECK_U64(q->run_max_sum, 70);
  xprof_profile_free(q);
  xprof_profile_free(r);

  /* The RUNS record (payload 16 bytes) directly before the index. */
  size_t at = (size_t)xprof_get64(b + 48) - XB_RECORD_HEADER - XB_RUNS_SIZE;
  CHECK(xprof_get32(b + at) == XB_TAG_RUNS);
  unsigned char *c = malloc(n + XB_RECORD_HEADER + XB_RUNS_SIZE);
  size_t m = at + XB_RECORD_HEADER + XB_RUNS_SIZE;
  memcpy(c, b, m); /* the record twice, then the index */
  memcpy(c + m, b + at, n - at);
  xprof_put64(c + 40, n + XB_RECORD_HEADER + XB_RUNS_SIZE);
  xprof_put64(c + 48, xprof_get64(b + 48) + XB_RECORD_HEADER + XB_RUNS_SIZE);
  xprof_put32(c + 56, xprof_get32(b + 56) + 1);
  xprof_put32(c + 60, xprof_crc32c(0, c, 60));
  CHECK(parse_copy(c, n + XB_RECORD_HEADER + XB_RUNS_SIZE, &q, &err) == -1);
  CHECK_HAS(err.msg, "second runs record");
  free(c);

  /* A damaged RUNS record: the full read refuses the file, a lookup
   * through the index leaves the runs unknown. */
  b[at + XB_RECORD_HEADER] ^= 1;
  unit_write_file(path, b, n);
  CHECK(parse_copy(b, n, &q, &err) == -1);
  CHECK_HAS(err.msg, "RUNS record checksum mismatch");
  CHECK(xprof_binary_lookup(path, "/build/demo/ops.o", &r, &err) == 0);
  CHECK_U64(r->runs, 0);
  xprof_profile_free(r);
  free(b);
  xprof_profile_free(p);
}

/* Lookups in a profile of 20000 object files find each one (the cost
 * side is measured by bench/bench_formats). */
static void lookup_many(void) {
  enum { N = 20000 };
  xprof_profile *p = xprof_profile_new(), *q;
  xprof_error err;
  char name[64];
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "/obj/dir%d/file%d.o", i % 97, i);
    xprof_objfile *o = xprof_add_objfile(p, name);
    o->signature = (uint64_t)i * 2654435761u;
    xprof_proc *f = xprof_add_proc(p, o, "f");
    xprof_proc_alloc_counters(p, f, 3);
    f->counters[1] = (uint64_t)i;
  }
  char path[256];
  snprintf(path, sizeof path, "%s/many.feedback", unit_tmpdir());
  CHECK(xprof_binary_write_file(p, path, &err) == 0);
  for (int i = 0; i < N; i += 997) {
    snprintf(name, sizeof name, "/obj/dir%d/file%d.o", i % 97, i);
    CHECK(xprof_binary_lookup(path, name, &q, &err) == 0);
    CHECK_U64(q->objfiles[0].procs[0].counters[1], (uint64_t)i);
    xprof_profile_free(q);
  }
  xprof_profile_free(p);
}

/* Offset of the first record with this tag, or 0. */
static size_t find_record(const unsigned char *b, size_t n, uint32_t tag) {
  for (size_t off = XB_HEADER_SIZE; off + XB_RECORD_HEADER <= n;
       off += XB_RECORD_HEADER + xprof_align8(xprof_get64(b + off + 8)))
    if (xprof_get32(b + off) == tag)
      return off;
  return 0;
}

/* First-run ranks: a TIME record after their object file's OBJF record,
 * read back by a full read and by a lookup, merged as the smallest. */
static void first_runs(void) {
  xprof_profile *p = sample(), *q, *r;
  xprof_error err;
  xprof_objfile *o = &p->objfiles[1];
  CHECK(o->n_procs >= 2);
  o->procs[0].first_run = 7;
  o->procs[o->n_procs - 1].first_run = 2;
  size_t n;
  unsigned char *b = serialize(p, &n);
  size_t t = find_record(b, n, XB_TAG_TIME);
  CHECK(t != 0);
  CHECK_U64(xprof_get32(b + t + XB_RECORD_HEADER + 8), 2); /* entries */
  CHECK(parse_copy(b, n, &q, &err) == 0);
  CHECK_U64(q->objfiles[1].procs[0].first_run, 7);
  CHECK_U64(q->objfiles[1].procs[o->n_procs - 1].first_run, 2);
  CHECK_U64(q->objfiles[0].procs[0].first_run, 0);

  char path[256];
  snprintf(path, sizeof path, "%s/time.feedback", unit_tmpdir());
  CHECK(xprof_binary_write_file(p, path, &err) == 0);
  CHECK(xprof_binary_lookup(path, o->path, &r, &err) == 0);
  CHECK_U64(r->objfiles[0].procs[0].first_run, 7);
  xprof_profile_free(r);
  CHECK(xprof_binary_lookup(path, p->objfiles[0].path, &r, &err) == 0);
  CHECK_U64(r->objfiles[0].procs[0].first_run, 0);
  xprof_profile_free(r);

  /* Merged: the earlier rank wins, a procedure without one takes the
   * other run's. */
  q->objfiles[1].procs[0].first_run = 3;
  q->objfiles[1].procs[o->n_procs - 1].first_run = 9;
  q->objfiles[0].procs[0].first_run = 4;
  CHECK(xprof_merge(p, q, 1, XPROF_REPLACE_OBJFILE, &err) == 0);
  CHECK_U64(o->procs[0].first_run, 3);
  CHECK_U64(o->procs[o->n_procs - 1].first_run, 2);
  CHECK_U64(p->objfiles[0].procs[0].first_run, 4);
  xprof_profile_free(q);

  /* A malformed entry (a procedure the object file does not have) is
   * reported; the record with its checksums made right again. */
  uint32_t n_procs = o->n_procs;
  unsigned char *c = malloc(n);
  memcpy(c, b, n);
  xprof_put32(c + t + XB_RECORD_HEADER + XB_TIME_FIXED, n_procs);
  reseal_record(c + t, c + t + XB_RECORD_HEADER,
                xprof_get64(c + t + 8));
  CHECK(parse_copy(c, n, &q, &err) == -1);
  CHECK_HAS(err.msg, "first-run record of /build/demo/ops.o: entry 0 is malformed");

  /* A TIME record away from its OBJF record (an older tool moved it) is
   * ignored: swap it with the OBJF record after it, which is another
   * object file's. */
  size_t tlen = XB_RECORD_HEADER + xprof_align8(xprof_get64(b + t + 8));
  size_t next = t + tlen;
  CHECK(xprof_get32(b + next) == XB_TAG_OBJF || xprof_get32(b + next) == XB_TAG_PROG);
  size_t nlen = XB_RECORD_HEADER + xprof_align8(xprof_get64(b + next + 8));
  memcpy(c, b, n);
  memcpy(c + t, b + next, nlen);
  memcpy(c + t + nlen, b + t, tlen);
  CHECK(parse_copy(c, n, &q, &err) == 0);
  CHECK_U64(q->objfiles[1].procs[0].first_run, 0);
  xprof_profile_free(q);
  free(c);
  free(b);
  xprof_profile_free(p);
}

UNIT_TABLE(binary_tests) = {
    {"binary/round_trip", round_trip},
    {"binary/bit_flips", bit_flips},
    {"binary/truncations", truncations},
    {"binary/header_errors", header_errors},
    {"binary/lying_counts", lying_counts},
    {"binary/foreign_records", foreign_records},
    {"binary/lookup", lookup},
    {"binary/lookup_many", lookup_many},
    {"binary/first_runs", first_runs},
    {"binary/runs", runs},
    UNIT_END};
