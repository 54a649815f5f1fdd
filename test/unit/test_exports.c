/* test_exports.c - what other profilers read: gmon.out (gprof), DCPI
 * profile files, aprof reports. */
#include <stdlib.h>

#include "../../libxprof/format/internal.h"
#include "xprof_plan.h"
#include "xprof_views.h"
#include "unit.h"

/* Counts past 16 bits (histogram) and 32 bits (arcs) are split into
 * records that add up again; nothing wraps. */
static void gmon_round_trip(void) {
  uint64_t hist[4] = {3, 70000, 0, 65535};
  xprof_gmon_arc arcs[2] = {{0x1010, 0x1100, 5000000000ull}, {0x1020, 0x1100, 7}};
  xprof_gmon_bb bbs[1] = {{0x1014, 1ull << 40}};
  xprof_gmon g = {0x1000, 0x1010, hist, 4, 250, "seconds", 's', arcs, 2, 2, bbs, 1, 1};
  unsigned char *buf;
  size_t len;
  xprof_error err;
  CHECK(xprof_gmon_serialize(&g, &buf, &len, &err) == 0);
  /* header, 2 histogram records, 2 + 1 arc records, 1 block record */
  CHECK_U64(len, 20 + 2 * (1 + 40 + 8) + 3 * 21 + (1 + 4 + 16));
  xprof_gmon r;
  CHECK(xprof_gmon_parse("g", buf, len, &r, &err) == 0);
  CHECK(r.n_hist == 4 && r.hist[1] == 70000 && r.hist[3] == 65535 && r.hist[0] == 3);
  CHECK(r.prof_rate == 250 && strcmp(r.dimen, "seconds") == 0 && r.dimen_abbrev == 's');
  CHECK(r.n_arcs == 2 && r.arcs[0].count == 5000000000ull && r.arcs[1].count == 7);
  CHECK(r.n_bbs == 1 && r.bbs[0].count == 1ull << 40);
  xprof_gmon_free(&r);
  /* Cut anywhere inside a record: an error naming the offset. */
  CHECK(xprof_gmon_parse("g", buf, len - 3, &r, &err) < 0);
  CHECK(strstr(err.msg, "g: offset") && strstr(err.msg, "ends inside"));
  buf[20] = 9;
  CHECK(xprof_gmon_parse("g", buf, len, &r, &err) < 0);
  CHECK(strstr(err.msg, "record tag 9"));
  free(buf);
}

static xprof_image *dcpi_image(xprof_profile *p) {
  xprof_image *img = xprof_add_image(p, "/bin/prog", 0x1000);
  xprof_sample_bin bins[] = {{0, 2}, {3, 5}, {100, 1}};
  img->text_size = 0x400;
  img->bin_width = 4;
  img->time_ns = 8 * 4000000ull;
  CHECK(xprof_image_set_id(p, img, (const unsigned char *)"\x12\xab", 2) == 0);
  CHECK(xprof_image_set_bins(p, img, bins, 3) == 0);
  return img;
}

/* An image's samples through a file and back; a rewrite keeps header
 * lines it does not know. */
static void dcpi_round_trip(void) {
  xprof_profile *p = xprof_profile_new(), *q = xprof_profile_new();
  const xprof_image *img = dcpi_image(p);
  xprof_dcpi d = {0}, r;
  xprof_error err;
  CHECK(xprof_dcpi_set(&d, "collector", "dcpid 3.1") == 0);
  CHECK(xprof_dcpi_from_image(img, "2611270300", "Linux x86_64", 2600, &d, &err) == 0);
  unsigned char *buf;
  size_t len;
  CHECK(xprof_dcpi_serialize(&d, &buf, &len, &err) == 0);
  const unsigned char *bin = (const unsigned char *)strstr((char *)buf, "samples");
  size_t header = (size_t)((const unsigned char *)memchr(bin, '\n', 32) + 1 - buf);
  CHECK_U64(header % 4, 0);
  CHECK_U64(len, header + 3 * 12 + 8);
  CHECK(xprof_dcpi_parse("f.dcpi", buf, len, &r, &err) == 0);
  CHECK_STR(xprof_dcpi_get(&r, "collector"), "dcpid 3.1");
  CHECK_STR(xprof_dcpi_get(&r, "tstart"), "1000");
  CHECK_STR(xprof_dcpi_get(&r, "image"), "12ab");
  CHECK_STR(xprof_dcpi_get(&r, "period"), "4000");
  CHECK(r.n_counts == 3 && r.counts[1].offset == 12 && r.counts[1].count == 5);
  xprof_image *back;
  CHECK(xprof_dcpi_to_image(&r, q, &back) == 0);
  CHECK(back->samples == 8 && back->bin_width == 1 && back->bins[2].index == 400);
  CHECK(back->id_len == 2 && memcmp(back->id, "\x12\xab", 2) == 0);
  CHECK_U64(back->time_ns, 8 * 4000000ull);
  xprof_dcpi_free(&r);
  xprof_dcpi_free(&d);
  free(buf);
  xprof_profile_free(p);
  xprof_profile_free(q);
}

static const char *dcpi_error(const char *text, size_t len) {
  static xprof_error err;
  xprof_dcpi d;
  if (xprof_dcpi_parse("bad.dcpi", (const unsigned char *)text, len, &d, &err) == 0) {
    xprof_dcpi_free(&d);
    return "";
  }
  return err.msg;
}

#define HEADER                                                                             \
  "version pdb-0.07\nimage 1f\nepoch 2611270300\nplatform Linux\nevent cycles\n"            \
  "period 62000\ntstart 400\ntsize 64\ncpuspeed 500\n"

/* Damaged files: each an error with the offset and what was expected. */
static void dcpi_damaged(void) {
  static const char ok[] = HEADER "samples\n"
                                  "\x04\0\0\0\x02\0\0\0\x01\0\0\0\x02\0\0\0"
                                  "\x02\0\0\0\x03\0\0\0";
  CHECK_STR(dcpi_error(ok, sizeof ok - 1), "");
  CHECK(strstr(dcpi_error(ok, sizeof ok - 5), "bad.dcpi: offset"));
  static const char order[] = HEADER "samples\n"
                                     "\x08\0\0\0\x01\0\0\0\x01\0\0\0"
                                     "\x04\0\0\0\x01\0\0\0\x01\0\0\0"
                                     "\x02\0\0\0\x02\0\0\0";
  CHECK(strstr(dcpi_error(order, sizeof order - 1), "expected offsets from 0x9 on"));
  static const char foot[] = HEADER "samples\n"
                                    "\x04\0\0\0\x01\0\0\0\x01\0\0\0"
                                    "\x01\0\0\0\x09\0\0\0";
  CHECK(strstr(dcpi_error(foot, sizeof foot - 1), "the footer says 1 addresses and 9 samples"));
  static const char twice[] = HEADER "tsize 64\nsamples\n\0\0\0\0\0\0\0\0";
  CHECK(strstr(dcpi_error(twice, sizeof twice - 1), "a second tsize line"));
  static const char none[] = "version pdb-0.07\nsamples\n\0\0\0\0\0\0\0\0";
  CHECK(strstr(dcpi_error(none, sizeof none - 1), "the header has no image line"));
  static const char v1[] = "version pdb-1.01\nsamples\n";
  CHECK(strstr(dcpi_error(v1, sizeof v1 - 1), "major version 0"));
  static const char hex[] = "version pdb-0.07\nimage xyz\nsamples\n";
  CHECK(strstr(dcpi_error(hex, sizeof hex - 1), "offset 17: the image line has a malformed"));
}

/* A hand-made call graph: main -> a (2 calls) -> b (4), and b <-> c
 * recursing; cumulative costs follow the calls. */
static void aprof_costs(void) {
  xprof_profile *p = xprof_profile_new();
  xprof_objfile *o = xprof_add_objfile(p, "/x/m.o");
  xprof_cg_proc procs[4] = {{"main", 1, o, NULL, 1, 1, 10, 0, 1},
                            {"a", 2, o, NULL, 2, 2, 20, 0, 1},
                            {"b", 3, o, NULL, 14, 14, 100, 0, 1},
                            {"c", 4, o, NULL, 10, 10, 50, 0, 1}};
  xprof_cg_arc arcs[4] = {{0, "a", 1, 2, 0, NULL}, {1, "b", 2, 4, 0, NULL},
                          {2, "c", 3, 10, 0, NULL}, {3, "b", 2, 10, 0, NULL}};
  xprof_callgraph g = {procs, 4, 4, arcs, 4, 4, NULL, 0, 0, p, NULL, 0, 0};
  char *text;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  xprof_aprof_options opt = {0};
  opt.now = 1;
  xprof_error err;
  CHECK(xprof_aprof_write(f, p, &g, &opt, &err) == 0);
  fclose(f);
  CHECK(strstr(text, "m bb-count\nk 180\n"));
  /* b and c recurse: 150 together, all of it b's (c has no outside calls) */
  CHECK(strstr(text, " 0 0 0 180 0 1 180 10 0 0 0\n")); /* main: all */
  CHECK(strstr(text, " 0 0 0 170 0 2 170 20 0 0 0\n")); /* a: itself and b, c */
  CHECK(strstr(text, " 0 0 0 150 0 14 150 100 0 0 0\n"));
  CHECK(strstr(text, " 0 0 0 50 0 10 50 50 0 0 0\n")); /* c: only its own */
  CHECK(strstr(text, "c rms is 0: xprof does not measure"));
  free(text);
  xprof_profile_free(p);
}

UNIT_TABLE(exports_tests) = {
    {"exports/gmon_round_trip", gmon_round_trip},
    {"exports/dcpi_round_trip", dcpi_round_trip},
    {"exports/dcpi_damaged", dcpi_damaged},
    {"exports/aprof_costs", aprof_costs},
    UNIT_END};
