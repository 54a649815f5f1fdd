/* test_text.c - the text format: round trips, escapes, floats, errors. */
#include <math.h>
#include <stdlib.h>

#include "unit.h"
#include "xprof_plan.h"
#include "xprof_views.h"

static char *to_text(const xprof_profile *p) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  xprof_error err;
  if (xprof_text_write_stream(p, f, "mem", &err) < 0)
    fprintf(stderr, "write: %s\n", err.msg);
  fclose(f);
  return buf;
}

static void sample_round_trip(void) {
  xprof_profile *p;
  xprof_error err;
  CHECK(xprof_text_parse("sample", unit_sample_text, strlen(unit_sample_text),
                         &p, &err) == 0);
  char *out = to_text(p);
  CHECK_STR(out, unit_sample_text);
  CHECK_U64(p->n_objfiles, 3);
  CHECK_U64(p->n_programs, 2);
  CHECK_U64(xprof_count_proc_names(p), 2);
  xprof_objfile *o = xprof_find_objfile(p, "/build/lib dir/libplug.o");
  CHECK(o != NULL);
  xprof_proc *f = xprof_find_proc(&p->objfiles[1], "hot_path");
  CHECK(f && f->counter_ids && f->counter_ids[1] == 5);
  CHECK_U64(xprof_proc_counter(f, 5), 12);
  CHECK_U64(xprof_proc_counter(f, 4), 0);
  CHECK_U64((uint64_t)(int64_t)f->vp[0].values[1].bits, (uint64_t)-17);
  free(out);
  xprof_profile_free(p);
}

/* One procedure's canonical text, which the inputs below spell otherwise. */
static const char canonical_f[] = "PROFILE-FEEDBACK-DATA: 3.1 1 0 0\n"
                                  "OBJFILE: a.o 1 0 0 1\n"
                                  "0xa\n"
                                  "PROC: f 0x1 2 0 0 0\n"
                                  "0 7\n"
                                  "1 5\n";

/* Counters out of order are sorted: the canonical form differs. */
static void canonical_order(void) {
  const char *in = "PROFILE-FEEDBACK-DATA: 3.1 1 0 0\n"
                   "# a comment\n\n"
                   "OBJFILE:   a.o 1 0 0 1\n"
                   "0xA\n"
                   "PROC: f 0x1 2 0 0 0\n"
                   "1 5\n"
                   "0\t7\r\n";
  const char *want = canonical_f;
  xprof_profile *p;
  xprof_error err;
  CHECK(xprof_text_parse("t", in, strlen(in), &p, &err) == 0);
  char *out = to_text(p);
  CHECK_STR(out, want);
  free(out);
  xprof_profile_free(p);
}

static void escapes(void) {
  static const char *const names[] = {"a b", "tab\there", "back\\slash",
                                      "new\nline", "del\x7f", "x\\x41",
                                      "utf8-\xc3\xa9"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    xprof_profile *p = xprof_profile_new(), *q;
    xprof_error err;
    xprof_objfile *o = xprof_add_objfile(p, names[i]);
    o->n_values_per_vp = 1;
    xprof_proc *f = xprof_add_proc(p, o, names[i]);
    xprof_proc_alloc_vp(p, o, f, 1);
    f->vp[0].type = XPROF_VP_PROC;
    f->vp[0].values[0].count = 1;
    f->vp[0].values[0].proc = names[i];
    xprof_program *g = xprof_add_program(p, names[i]);
    xprof_program_add_objref(p, g, names[i]);
    char *t = to_text(p);
    CHECK(xprof_text_parse("t", t, strlen(t), &q, &err) == 0);
    if (q) {
      CHECK_STR(q->objfiles[0].path, names[i]);
      CHECK_STR(q->objfiles[0].procs[0].name, names[i]);
      CHECK_STR(q->objfiles[0].procs[0].vp[0].values[0].proc, names[i]);
      CHECK_STR(q->programs[0].path, names[i]);
      xprof_profile_free(q);
    }
    free(t);
    xprof_profile_free(p);
  }
}

static void empty_names_refused(void) {
  xprof_profile *p = xprof_profile_new();
  xprof_error err;
  xprof_add_objfile(p, "");
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  CHECK(xprof_text_write_stream(p, f, "out", &err) < 0);
  fclose(f);
  CHECK_HAS(err.msg, "empty object file pathname");
  free(buf);
  xprof_profile_free(p);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Random bit patterns (NaNs with payloads, -0, inf, subnormals) survive. */
static void floats_bit_exact(void) {
  enum { N = 4000 };
  xprof_profile *p = xprof_profile_new(), *q;
  xprof_error err;
  xprof_objfile *o = xprof_add_objfile(p, "f.o");
  o->n_values_per_vp = 1;
  xprof_proc *f = xprof_add_proc(p, o, "f");
  xprof_proc_alloc_vp(p, o, f, N);
  static const uint64_t dspecial[] = {
      0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
      0x7ff8000000000001ull, 0xfff4000000000000ull, 0x0000000000000001ull,
      0x000fffffffffffffull, 0x7fefffffffffffffull};
  static const uint32_t fspecial[] = {0x80000000, 0x7f800000, 0xff800000,
                                      0x7fc00001, 0xffa00000, 0x00000001,
                                      0x007fffff, 0x7f7fffff};
  for (uint32_t i = 0; i < N; i++) {
    int is_double = i % 2;
    uint64_t bits = rng();
    if (!is_double)
      bits &= 0xffffffff;
    if (i / 2 < 8)
      bits = is_double ? dspecial[i / 2] : fspecial[i / 2];
    f->vp[i].type = is_double ? XPROF_VP_DOUBLE : XPROF_VP_FLOAT;
    f->vp[i].expr_id = i;
    f->vp[i].values[0].count = 1;
    f->vp[i].values[0].bits = bits;
  }
  char *t = to_text(p);
  CHECK(xprof_text_parse("t", t, strlen(t), &q, &err) == 0);
  int bad = 0;
  for (uint32_t i = 0; q && i < N; i++)
    if (q->objfiles[0].procs[0].vp[i].values[0].bits != f->vp[i].values[0].bits) {
      if (bad++ < 5)
        fprintf(stderr, "value %u: %016" PRIx64 " read back as %016" PRIx64 "\n",
                i, f->vp[i].values[0].bits,
                q->objfiles[0].procs[0].vp[i].values[0].bits);
    }
  CHECK(bad == 0);
  free(t);
  xprof_profile_free(q);
  xprof_profile_free(p);
}

/* Every error names the line and what was expected. */
static void parse_errors(void) {
  static const struct {
    const char *text, *msg;
  } cases[] = {
      {"", "t:0: empty file: expected 'PROFILE-FEEDBACK-DATA: 3.1 ...'"},
      {"HELLO 1\n", "t:1: not an xprof text profile: expected "
                    "'PROFILE-FEEDBACK-DATA:', found 'HELLO'"},
      {"PROFILE-FEEDBACK-DATA: 3.2 0 0 0\n",
       "t:1: text format version '3.2' is not supported (this reader knows "
       "3.1)"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\n",
       "t:1: header declares 1 object file, found 0 (expected OBJFILE:, "
       "found end of file)"},
      {"PROFILE-FEEDBACK-DATA: 3.1 0 0 0\nOBJFILE: a.o 0 0 0 0\n0x1\n",
       "t:2: unexpected 'OBJFILE:' after the last record (header declares 0 "
       "object files and 0 programs)"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 2 0 0 0\n0x1\n"
       "PROC: f 0x1 0 0 0 0\n",
       "t:4: object file a.o declares 2 procedures, found 1 (expected PROC:, "
       "found end of file)"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 1 0 0 0\n0x1\n"
       "PROC: f 0x1 2 0 0 0\n0 1\nPROC: g 0x1 0 0 0 0\n",
       "t:6: expected counter record '<id> <value>' (2 of 2 in procedure f), "
       "found 'PROC:'"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 1 0 0 0\n0x1\n"
       "PROC: f 0x1 1 0 0 0\n0 18446744073709551616\n",
       "t:5: counter value '18446744073709551616' does not fit in 64 bits"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 1 0 0 0\n0x1\n"
       "PROC: f 0x1 2 0 0 0\n3 1\n3 2\n",
       "t:6: procedure f: counter id 3 appears twice"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 1 0 0 0\nzz\n",
       "t:3: expected object file signature (0x and up to 16 hex digits), "
       "found 'zz'"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 1 0 0 0\n0x1\n"
       "PROC: f 0x1 5000000000 0 0 0\n",
       "t:4: n_counters '5000000000' does not fit in 32 bits"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 1 0 0 0\n0x1\n"
       "PROC: f 0x1 4000000 0 0 0\n",
       "procedure f declares 4000000 counters, more than the rest of the file "
       "holds"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 1 0 0 1\n0x1\n"
       "PROC: f 0x1 0 1 1 0\nVP_INT 0 0 5\n",
       "t:5: a value is given for a zero count (the value field must be "
       "empty)"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 1 0 0 1\n0x1\n"
       "PROC: f 0x1 0 1 1 0\nVP_INT 0 1 3000000000\n",
       "t:5: value '3000000000' is not a 32-bit int"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 1 0 0 2\n0x1\n"
       "PROC: f 0x1 0 1 1 0\nVP_INT 0 1 3\nVP_LLONG 0 1 3\n",
       "t:6: value-profile record 1 of procedure f: line 2 of 2 has VP_LLONG 0, "
       "expected VP_INT 0"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 1 0 0 1\n0x1\n"
       "PROC: f 0x1 0 1 1 0\nVP_BOOL 0 1 3\n",
       "t:5: expected a value-profile record (VP_INT, VP_LLONG, VP_FLOAT, "
       "VP_DOUBLE or VP_PROC), found 'VP_BOOL'"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 1 0\nOBJFILE: a.o 0 0 0 0\n0x1\n"
       "PROGRAM: p 1\nOBJREF: b.o\n",
       "t: program p refers to object file b.o, which the profile does not "
       "define"},
      {"PROFILE-FEEDBACK-DATA: 3.1 2 0 0\nOBJFILE: a.o 0 0 0 0\n0x1\n"
       "OBJFILE: a.o 0 0 0 0\n0x2\n",
       "t: object file a.o appears twice"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 5\nOBJFILE: a.o 0 0 0 0\n0x1\n",
       "t:1: header declares 5 indirectly called procedure names, the value "
       "profiles name 0"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a\\q.o 0 0 0 0\n0x1\n",
       "t:2: bad escape in object file pathname: only \\xHH (not \\x00) is "
       "allowed"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 0 0 1000000 0\n0x1\n",
       "t:2: tv_usec 1000000 is not below 1000000"},
      {"PROFILE-FEEDBACK-DATA: 3.1 1 0 0\nOBJFILE: a.o 0 0 0 0\n0x1\nmax 1\n"
       "max 2\n",
       "t:5: max statistic given twice"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    xprof_profile *p = NULL;
    xprof_error err = {0};
    int rc = xprof_text_parse("t", cases[i].text, strlen(cases[i].text), &p,
                              &err);
    CHECK(rc == -1);
    CHECK(p == NULL);
    if (rc == -1)
      CHECK_HAS(err.msg, cases[i].msg);
    if (rc == 0)
      xprof_profile_free(p);
  }
}

/* Truncating the sample at any byte gives an error (every cut loses a
 * declared record), except the cut of the final newline; never a crash. */
static void truncations(void) {
  size_t n = strlen(unit_sample_text);
  int ok = 0;
  for (size_t k = 0; k < n; k++) {
    xprof_profile *p = NULL;
    xprof_error err;
    if (xprof_text_parse("t", unit_sample_text, k, &p, &err) == 0) {
      ok++;
      xprof_profile_free(p);
    } else {
      CHECK(err.msg[0] != 0);
    }
  }
  CHECK(ok == 1); /* only the cut of the final newline keeps all records */
}


/* ---- xprof's extension lines ------------------------------------------- */

/* The sample, with everything binary data holds beyond 3.1: training
 * runs, first-run ranks, shapes, time samples (an image and the overflow
 * bin), a record of a kind this library does not know. */
static xprof_profile *everything(void) {
  xprof_profile *p;
  xprof_error err;
  if (xprof_text_parse("sample", unit_sample_text, strlen(unit_sample_text), &p, &err) < 0)
    return NULL;
  p->runs = 3;
  p->run_max_sum = 123456789012ull;
  xprof_objfile *o = &p->objfiles[1];
  o->procs[0].first_run = 2;
  o->procs[o->n_procs - 1].first_run = 1;
  static const unsigned char shape[] = {1, 0, 0x80, 0xff, 7, 0, 0, 9, 1}; /* not a multiple of 3 */
  xprof_proc_set_shape(p, &o->procs[0], shape, sizeof shape);
  xprof_proc_set_shape(p, &p->objfiles[0].procs[0], shape, 2);
  static const unsigned char id[] = {0xde, 0xad, 0xbe, 0xef, 0x01};
  static const xprof_sample_bin bins[] = {{3, 10}, {900, 1}};
  xprof_image *img = xprof_add_image(p, "/usr/lib/lib with space.so", 0x1000);
  xprof_image_set_id(p, img, id, sizeof id);
  xprof_image_set_bins(p, img, bins, 2);
  img->text_size = 0x4000;
  img->bin_width = 4;
  img->time_ns = 55000000;
  xprof_image *over = xprof_add_image(p, "", 0);
  static const xprof_sample_bin one[] = {{0, 6}};
  xprof_image_set_bins(p, over, one, 1);
  over->flags = XPROF_IMAGE_OVERFLOW;
  over->text_size = 1;
  over->bin_width = 1;
  over->time_ns = 30000000;
  p->foreign = xprof_malloc(sizeof *p->foreign);
  p->n_foreign = p->cap_foreign = 1;
  static const unsigned char blob[] = "future data";
  p->foreign[0] = (xprof_foreign){0x5a5a4e45u, 0, sizeof blob, blob};
  return p;
}

static int count_lines(const char *text, const char *prefix) {
  int n = 0;
  for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    n += strncmp(l, prefix, strlen(prefix)) == 0;
  return n;
}

/* Binary -> text -> binary gives the same bytes, and text -> binary ->
 * text the same text: text is binary data's lossless twin. */
static void extension_lossless(void) {
  xprof_profile *p = everything(), *q = NULL, *r = NULL;
  xprof_error err;
  CHECK(p != NULL);
  if (!p)
    return;
  unsigned char *b1 = NULL, *b2 = NULL, *copy = NULL;
  size_t n1 = 0, n2 = 0;
  CHECK(xprof_binary_serialize(p, &b1, &n1, &err) == 0);
  if (b1 && (copy = xprof_malloc(n1)))
    memcpy(copy, b1, n1);
  CHECK(copy && xprof_binary_parse("b1", copy, n1, &q, &err) == 0); /* q owns copy */
  char *t1 = q ? to_text(q) : NULL;
  CHECK(t1 != NULL);
  CHECK(count_lines(t1, "#+ ") == 1 + 2 + 2 + 2 + 2 + 1 + 1);
  CHECK(count_lines(t1, "#+ RUNS 3 123456789012\n") == 1);
  CHECK(count_lines(t1, "#+ IMAGE /usr/lib/lib\\x20with\\x20space.so 3q2+7wE= 0 0x1000 0x4000 4 11 "
                        "55000000 2\n") == 1);
  CHECK(count_lines(t1, "#+ IMAGE - - 1 0x0 0x1 1 6 30000000 1\n") == 1);
  CHECK(count_lines(t1, "#+ RECORD 0x5a5a4e45 0 ZnV0dXJlIGRhdGEA\n") == 1);
  CHECK(t1 && xprof_text_parse("t1", t1, strlen(t1), &r, &err) == 0);
  if (r) {
    CHECK_U64(r->runs, 3);
    CHECK_U64(r->objfiles[1].procs[0].first_run, 2);
    CHECK_U64(r->objfiles[1].procs[0].shape_size, 9);
    CHECK_U64(r->n_images, 2);
    CHECK(xprof_binary_serialize(r, &b2, &n2, &err) == 0);
    CHECK(b1 && b2 && n1 == n2 && memcmp(b1, b2, n1) == 0);
    char *t2 = to_text(r);
    CHECK_STR(t2, t1);
    free(t2);
  }
  xprof_free(b1);
  xprof_free(b2);
  free(t1);
  xprof_profile_free(r);
  xprof_profile_free(q);
  xprof_profile_free(p);
}

/* To a reader of plain 3.1 text the extension lines are comments: the
 * text without them is the same profile less what they carry. */
static void extension_is_a_comment(void) {
  xprof_profile *p = everything(), *q = NULL;
  xprof_error err;
  char *t = p ? to_text(p) : NULL;
  CHECK(t != NULL);
  if (!t) {
    xprof_profile_free(p);
    return;
  }
  char *plain = malloc(strlen(t) + 1), *o = plain;
  for (const char *l = t; *l;) {
    const char *e = strchr(l, '\n');
    size_t n = e ? (size_t)(e - l) + 1 : strlen(l);
    if (strncmp(l, "#+ ", 3) != 0) {
      memcpy(o, l, n);
      o += n;
    }
    l += n;
  }
  *o = 0;
  CHECK(xprof_text_parse("plain", plain, strlen(plain), &q, &err) == 0);
  char *back = q ? to_text(q) : NULL;
  CHECK_STR(back, unit_sample_text);
  free(back);
  free(plain);
  free(t);
  xprof_profile_free(q);
  xprof_profile_free(p);
}

/* Where extension lines may stand, what this reader does not know is a
 * comment; a known line with bad fields is an error naming its line. */
static void extension_errors(void) {
  static const struct {
    const char *ext_head, *ext_proc, *ext_tail, *msg; /* msg NULL: accepted */
  } cases[] = {
      {"#+ FUTURE 1 2 3\n", "#+ SOMETHING new\n", "#+ LATER x\n", NULL},
      {"#+ RUNS 1\n", "", "", "t:2: #+ RUNS line has 3 fields, expected 4"},
      {"#+ RUNS x 1\n", "", "", "t:2: expected training runs (an unsigned decimal number), found 'x'"},
      {"", "#+ FIRST-RUN -1\n", "", "t:5: expected first-run rank (an unsigned decimal number)"},
      {"", "#+ SHAPE AB$=\n", "", "t:5: shape 'AB$=' is not base64"},
      {"", "#+ SHAPE ABC\n", "", "t:5: shape 'ABC' is not base64"},
      {"", "", "#+ IMAGE /a - 0 0x0 0x10 4 3 1 2\n#+ BIN 1 1\n#+ BIN 2 1\n",
       "t:8: IMAGE /a: its bins add up to 2, its total says 3"},
      {"", "", "#+ IMAGE /a - 0 0x0 0x10 4 3 1 2\n#+ BIN 1 3\n",
       "t:7: IMAGE /a declares 2 bins, found 1 (expected #+ BIN)"},
      {"", "", "#+ IMAGE /a - 0 0x0 0x10 4 2 1 2\n#+ BIN 2 1\n#+ BIN 1 1\n", "out of order"},
      {"", "", "#+ RECORD 0x41424344 1 QUJD\n", "t:6: record kind 0x41424344 is required"},
      {"", "", "#+ RECORD 0x41424344 0 QUJD\n", NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *text = xprof_format("PROFILE-FEEDBACK-DATA: 3.1 1 0 0\n%s"
                              "OBJFILE: a.o 1 0 0 0\n0x1\nPROC: f 0x2 1 0 0 0\n%s0 5\n%s",
                              cases[i].ext_head, cases[i].ext_proc, cases[i].ext_tail);
    xprof_profile *p = NULL;
    xprof_error err = {0};
    int rc = xprof_text_parse("t", text, strlen(text), &p, &err);
    if (!cases[i].msg) {
      CHECK(rc == 0);
      CHECK(p && p->objfiles[0].procs[0].counters[0] == 5);
    } else {
      CHECK(rc < 0);
      CHECK_HAS(err.msg, cases[i].msg);
    }
    xprof_profile_free(p);
    xprof_free(text);
  }
}

/* Text saved by a Windows editor: a UTF-8 byte order mark, CRLF line
 * ends.  Parsed as the same profile, and a file of it is taken for text
 * (before, the mark made it "not xprof binary data"). */
static void windows_text(void) {
  const char *in = "\xEF\xBB\xBFPROFILE-FEEDBACK-DATA: 3.1 1 0 0\r\n"
                   "OBJFILE: a.o 1 0 0 1\r\n"
                   "0xa\r\n"
                   "PROC: f 0x1 2 0 0 0\r\n"
                   "0 7\r\n"
                   "1 5\r\n";
  const char *want = canonical_f;
  xprof_profile *p;
  xprof_error err;
  int rc = xprof_text_parse("t", in, strlen(in), &p, &err);
  CHECK(rc == 0);
  if (rc < 0)
    return;
  char *out = to_text(p);
  CHECK_STR(out, want);
  free(out);
  xprof_profile_free(p);
  char path[4096];
  snprintf(path, sizeof path, "%s/windows.text", unit_tmpdir());
  FILE *f = fopen(path, "wb");
  CHECK(f && fputs(in, f) >= 0 && fclose(f) == 0);
  rc = xprof_read_file(path, &p, &err);
  CHECK(rc == 0);
  if (rc < 0)
    return;
  CHECK(p->n_objfiles == 1);
  CHECK_U64(xprof_proc_counter(&p->objfiles[0].procs[0], 1), 5);
  xprof_profile_free(p);
  /* With a comment first, the way hand-edited profiles often open. */
  char *commented = xprof_format("\xEF\xBB\xBF# edited\r\n%s", in + 3);
  f = fopen(path, "wb");
  CHECK(f && fputs(commented, f) >= 0 && fclose(f) == 0);
  xprof_free(commented);
  rc = xprof_read_file(path, &p, &err);
  CHECK(rc == 0);
  if (rc == 0)
    CHECK_U64(xprof_proc_counter(&p->objfiles[0].procs[0], 0), 7);
  if (rc == 0)
    xprof_profile_free(p);
}

UNIT_TABLE(text_tests) = {
    {"text/sample_round_trip", sample_round_trip},
    {"text/canonical_order", canonical_order},
    {"text/escapes", escapes},
    {"text/empty_names_refused", empty_names_refused},
    {"text/floats_bit_exact", floats_bit_exact},
    {"text/parse_errors", parse_errors},
    {"text/truncations", truncations},
    {"text/extension_lossless", extension_lossless},
    {"text/extension_is_a_comment", extension_is_a_comment},
    {"text/extension_errors", extension_errors},
    {"text/windows_text", windows_text},
    UNIT_END};
