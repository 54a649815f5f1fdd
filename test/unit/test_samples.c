/* test_samples.c - time samples (merging, checking, binary round trip)
 * and the ELF reader that gives them to functions. */
#include <stdlib.h>

#include "../../libxprof/format/internal.h"
#include "xprof_plan.h"
#include "xprof_views.h"
#include "unit.h"

/* An image of 64 bytes of text at 0x1000 with 4-byte bins. */
static xprof_image *image(xprof_profile *p, const char *path, const char *id,
                          const xprof_sample_bin *bins, uint32_t n) {
  xprof_image *img = xprof_add_image(p, path, 0x1000);
  CHECK(img != NULL);
  img->text_size = 64;
  img->bin_width = 4;
  img->time_ns = 4000000 * (uint64_t)n;
  CHECK(xprof_image_set_id(p, img, (const unsigned char *)id, (uint32_t)strlen(id)) == 0);
  CHECK(xprof_image_set_bins(p, img, bins, n) == 0);
  return img;
}

/* The same build adds up bin by bin; weights multiply. */
static void merge_same_build(void) {
  xprof_profile *a = xprof_profile_new(), *b = xprof_profile_new();
  xprof_sample_bin x[] = {{1, 5}, {7, 2}}, y[] = {{0, 1}, {7, 3}, {15, 4}};
  image(a, "/bin/prog", "id-1", x, 2);
  image(b, "/bin/prog", "id-1", y, 3);
  CHECK(xprof_merge(a, b, 2, XPROF_REPLACE_OBJFILE, NULL) == 0);
  CHECK_U64(a->n_images, 1);
  const xprof_image *m = &a->images[0];
  CHECK_U64(m->n_bins, 4);
  CHECK_U64(m->bins[0].index, 0);
  CHECK_U64(m->bins[0].count, 2);
  CHECK_U64(m->bins[2].count, 2 + 6);
  CHECK_U64(m->bins[3].count, 8);
  CHECK_U64(m->samples, 5 + 2 + 2 * 8);
  CHECK_U64(m->time_ns, 8000000 + 2 * 12000000);
  xprof_error err;
  CHECK(xprof_validate_image(m, "t", &err) == 0);
  xprof_profile_free(a);
  xprof_profile_free(b);
}

/* A rebuilt image (another id) replaces the old samples. */
static void merge_rebuilt(void) {
  xprof_profile *a = xprof_profile_new(), *b = xprof_profile_new();
  xprof_sample_bin x[] = {{1, 5}}, y[] = {{2, 3}};
  image(a, "/bin/prog", "old", x, 1);
  image(a, "/lib/libc.so.6", "libc", x, 1);
  image(b, "/bin/prog", "new", y, 1);
  CHECK(xprof_merge(a, b, 1, XPROF_REPLACE_OBJFILE, NULL) == 0);
  CHECK_U64(a->n_images, 2);
  const xprof_image *m = xprof_find_image(a, "/bin/prog", 0x1000);
  CHECK(m && m->n_bins == 1 && m->bins[0].index == 2 && m->samples == 3);
  CHECK(m->id_len == 3 && memcmp(m->id, "new", 3) == 0);
  CHECK_U64(xprof_find_image(a, "/lib/libc.so.6", 0x1000)->samples, 5);
  xprof_profile_free(a);
  xprof_profile_free(b);
}

/* Runs of one build with other bin widths add up at the wider width
 * (a byte's bin in the bin of four that holds it, both ways round); widths
 * of which neither is a multiple of the other cannot, and the newer run
 * replaces the older. */
static void merge_bin_widths(void) {
  xprof_profile *a = xprof_profile_new(), *b = xprof_profile_new(), *c = xprof_profile_new();
  xprof_sample_bin x[] = {{1, 5}, {7, 2}}, y[] = {{3, 1}, {4, 2}, {7, 3}, {30, 4}}, z[] = {{2, 1}};
  image(a, "/bin/prog", "id-1", x, 2);
  xprof_image *bytes = image(b, "/bin/prog", "id-1", y, 4);
  bytes->bin_width = 1; /* bytes 3, 4, 7, 30: bins of four 0, 1, 1, 7 */
  CHECK(xprof_merge(a, b, 1, XPROF_REPLACE_OBJFILE, NULL) == 0);
  const xprof_image *m = &a->images[0];
  CHECK_U64(m->bin_width, 4);
  CHECK_U64(m->n_bins, 3);
  CHECK(m->bins[0].index == 0 && m->bins[0].count == 1);
  CHECK(m->bins[1].index == 1 && m->bins[1].count == 5 + 2 + 3);
  CHECK(m->bins[2].index == 7 && m->bins[2].count == 2 + 4);
  CHECK_U64(m->samples, 17);
  xprof_error err;
  CHECK(xprof_validate_image(m, "t", &err) == 0);
  /* The narrow run first, the wide one added to it: the same. */
  xprof_profile *d = xprof_profile_new(), *e = xprof_profile_new();
  image(d, "/bin/prog", "id-1", y, 4)->bin_width = 1;
  image(e, "/bin/prog", "id-1", x, 2);
  CHECK(xprof_merge(d, e, 1, XPROF_REPLACE_OBJFILE, NULL) == 0);
  const xprof_image *n = &d->images[0];
  CHECK(n->bin_width == 4 && n->n_bins == 3 && n->samples == 17);
  CHECK(n->bins[1].count == 10 && n->bins[2].count == 6);
  xprof_profile_free(d);
  xprof_profile_free(e);
  xprof_image *odd = image(c, "/bin/prog", "id-1", z, 1);
  odd->bin_width = 6;
  CHECK(xprof_merge(a, c, 1, XPROF_REPLACE_OBJFILE, NULL) == 0);
  CHECK(m->bin_width == 6 && m->n_bins == 1 && m->samples == 1);
  xprof_profile_free(a);
  xprof_profile_free(b);
  xprof_profile_free(c);
}

/* Bins out of order, past the text, or not adding up are refused with
 * the image's name. */
static void validation(void) {
  xprof_profile *p = xprof_profile_new();
  xprof_sample_bin past[] = {{16, 1}}, order[] = {{3, 1}, {3, 1}};
  xprof_image *img = image(p, "/bin/past", "x", past, 1);
  xprof_error err;
  CHECK(xprof_validate_image(img, "f", &err) < 0);
  CHECK(strstr(err.msg, "/bin/past") && strstr(err.msg, "past the 16 bins"));
  img = image(p, "/bin/order", "x", order, 2);
  CHECK(xprof_validate_image(img, "f", &err) < 0);
  img->n_bins = 1;
  CHECK(xprof_validate_image(img, "f", &err) < 0);
  CHECK(strstr(err.msg, "add up to 1, the total says 2"));
  xprof_profile_free(p);
}

/* SMPL records survive a binary round trip, the overflow bin too; text
 * (xprof_text 3.1) has no place for them. */
static void binary_round_trip(void) {
  xprof_profile *p = xprof_profile_new(), *q = NULL;
  xprof_sample_bin x[] = {{1, 5}, {9, 1}}, o[] = {{0, 7}};
  image(p, "/bin/prog", "0123456789abcdef0123", x, 2);
  xprof_image *ov = image(p, "", "", o, 1);
  ov->flags = XPROF_IMAGE_OVERFLOW;
  ov->text_off = 0;
  unsigned char *buf;
  size_t len;
  xprof_error err;
  CHECK(xprof_binary_serialize(p, &buf, &len, &err) == 0);
  CHECK(xprof_binary_parse("bin", buf, len, &q, &err) == 0);
  CHECK_U64(q->n_images, 2);
  const xprof_image *a = xprof_find_image(q, "/bin/prog", 0x1000);
  const xprof_image *b = xprof_find_image(q, "", 0);
  CHECK(a && a->samples == 6 && a->n_bins == 2 && a->bins[1].index == 9 && a->id_len == 20);
  CHECK(a->time_ns == 8000000 && a->bin_width == 4 && a->text_size == 64);
  CHECK(b && (b->flags & XPROF_IMAGE_OVERFLOW) && b->samples == 7);
  xprof_profile_free(p);
  xprof_profile_free(q);
}

/* The test program itself: this function is found by name and by an
 * address inside it, and a damaged header is an error naming the file. */
static void elf_self(void) {
  xprof_elf *e = NULL;
  xprof_error err;
  CHECK(xprof_elf_read("/proc/self/exe", &e, &err) == 0);
  if (!e)
    return;
  const xprof_elf_func *f = xprof_elf_func_named(e, "elf_self");
  CHECK(f != NULL && f->size > 0);
  if (f)
    CHECK(xprof_elf_func_at(e, f->addr + f->size / 2) == f);
  CHECK(e->n_segs >= 1 && e->full_symbols);
  xprof_elf_free(e);
  unsigned char junk[64] = {0x7f, 'E', 'L', 'F', 1, 1};
  CHECK(xprof_elf_parse("junk.so", junk, sizeof junk, &e, &err) < 0);
  CHECK(strstr(err.msg, "junk.so") && strstr(err.msg, "64-bit little-endian"));
}

/* A function at a known line; the test program is built with -g. */
int __attribute__((noipa)) line_probe(int x);
int __attribute__((noipa)) line_probe(int x) {
  return x * 3 + 1; /* LINE_PROBE */
}
enum { LINE_PROBE_LINE = __LINE__ - 2 };

/* The line table of the test program gives an address inside line_probe
 * for its body's line, and none for a line of another function. */
static void line_table_self(void) {
  xprof_line_table *t;
  xprof_elf *e;
  xprof_error err;
  CHECK(line_probe(1) == 4);
  CHECK(xprof_line_table_read("/proc/self/exe", &t, &err) == 0);
  CHECK(xprof_elf_read("/proc/self/exe", &e, &err) == 0);
  if (!t || !e)
    return;
  const xprof_elf_func *f = xprof_elf_func_named(e, "line_probe");
  uint64_t addr = 0;
  CHECK(f != NULL);
  if (f) {
    CHECK(xprof_line_address(t, f->addr, f->addr + f->size, __FILE__, LINE_PROBE_LINE, &addr) == 0);
    CHECK(addr >= f->addr && addr < f->addr + f->size);
    CHECK(xprof_line_address(t, f->addr, f->addr + f->size, __FILE__, LINE_PROBE_LINE + 20,
                             &addr) < 0);
  }
  CHECK(t->n_rows > 100 && t->n_files > 1);
  xprof_line_table_free(t);
  xprof_elf_free(e);
  unsigned char junk[64] = {0x7f, 'E', 'L', 'F', 2, 1};
  CHECK(xprof_line_table_parse("junk", junk, sizeof junk, &t, &err) < 0);
  CHECK(strstr(err.msg, "junk: no usable line table"));
}

/* The preloaded runtime's samples are the collection's, not the
 * program's: a line profile leaves them out, with no note, and counts
 * only the program's (here a file that is gone: a note). */
static void runtime_left_out(void) {
  xprof_profile *p = xprof_profile_new();
  xprof_sample_bin x[] = {{1, 5}}, y[] = {{2, 3}};
  image(p, "/usr/lib/x86_64-linux-gnu/xprof/" XPROF_COLLECT_LIBRARY, "id-rt", x, 1);
  image(p, "/nonexistent/prog", "id-prog", y, 1);
  xprof_lineprof *lp = NULL;
  xprof_error err;
  CHECK(xprof_lineprof_from_samples(p, &lp, &err) == 0);
  if (lp) {
    CHECK_U64(lp->samples, 3);
    CHECK_U64(lp->placed, 0);
    for (uint32_t k = 0; k < lp->n_notes; k++)
      CHECK(!strstr(lp->notes[k], XPROF_COLLECT_LIBRARY));
    CHECK_U64(lp->n_notes, 1);
  }
  xprof_lineprof_free(lp);
  xprof_profile_free(p);
}

UNIT_TABLE(samples_tests) = {
    {"samples/line_table_self", line_table_self},
    {"samples/merge_same_build", merge_same_build},
    {"samples/merge_rebuilt", merge_rebuilt},
    {"samples/merge_bin_widths", merge_bin_widths},
    {"samples/validation", validation},
    {"samples/binary_round_trip", binary_round_trip},
    {"samples/elf_self", elf_self},
    {"samples/runtime_left_out", runtime_left_out},
    UNIT_END};
