/*
 * samples.c - time samples by image: building, merging and checking them.
 *
 * The runtime samples the program counter over every executable text
 * segment of the process (runtime/sample.c); a profile keeps, per segment
 * (an xprof_image), the bins that got samples.  Images are keyed by path
 * and segment offset; an image rebuilt since (another id or segment)
 * cannot add up with the old one, and the newer replaces it.  Runs of one
 * build sampled with different bin widths add up at the wider width.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "internal.h"

xprof_image *xprof_find_image(const xprof_profile *p, const char *path, uint64_t text_off) {
  for (uint32_t i = 0; i < p->n_images; i++)
    if (p->images[i].text_off == text_off && strcmp(p->images[i].path, path) == 0)
      return &p->images[i];
  return NULL;
}

xprof_image *xprof_add_image(xprof_profile *p, const char *path, uint64_t text_off) {
  xprof_image *img = xprof_find_image(p, path, text_off);
  if (img)
    return img;
  const char *s = xprof_strdup(p, path);
  if (!s || xprof_grow((void **)&p->images, &p->cap_images, p->n_images, sizeof *p->images) < 0)
    return NULL;
  img = &p->images[p->n_images++];
  memset(img, 0, sizeof *img);
  img->path = s;
  img->text_off = text_off;
  return img;
}

int xprof_image_set_id(xprof_profile *p, xprof_image *img, const unsigned char *id,
                       uint32_t id_len) {
  if (id_len > XPROF_IMAGE_ID_MAX)
    id_len = XPROF_IMAGE_ID_MAX;
  unsigned char *d = NULL;
  if (id_len && !(d = xprof_alloc(p, id_len)))
    return -1;
  if (id_len)
    memcpy(d, id, id_len);
  img->id = d;
  img->id_len = id_len;
  return 0;
}

int xprof_image_set_bins(xprof_profile *p, xprof_image *img, const xprof_sample_bin *bins,
                         uint32_t n_bins) {
  xprof_sample_bin *d = NULL;
  if (n_bins && !(d = xprof_alloc(p, (size_t)n_bins * sizeof *d)))
    return -1;
  uint64_t sum = 0;
  for (uint32_t i = 0; i < n_bins; i++) {
    d[i] = bins[i];
    sum = xprof_sat_add(sum, bins[i].count);
  }
  img->bins = d;
  img->n_bins = n_bins;
  img->samples = sum;
  return 0;
}

/* The width at which the samples of a and b can add up: the wider of
 * their bin widths when it is a multiple of the other (powers of two, as
 * the runtime takes them), so that each narrow bin lies in one wide bin
 * (both count from the segment's start); 0 when none. */
static uint32_t common_width(const xprof_image *a, const xprof_image *b) {
  uint32_t wide = a->bin_width > b->bin_width ? a->bin_width : b->bin_width;
  uint32_t narrow = a->bin_width ^ b->bin_width ^ wide;
  return narrow && wide % narrow == 0 ? wide : 0;
}

static int same_build(const xprof_image *a, const xprof_image *b) {
  return a->flags == b->flags && a->text_size == b->text_size && common_width(a, b) &&
         a->id_len == b->id_len && (a->id_len == 0 || memcmp(a->id, b->id, a->id_len) == 0);
}

/* d's bins plus w times s's, by index, at the bins' common width. */
static int add_bins(xprof_profile *p, xprof_image *d, const xprof_image *s, uint64_t w) {
  uint64_t n = (uint64_t)d->n_bins + s->n_bins;
  xprof_sample_bin *out = xprof_malloc((size_t)(n ? n : 1) * sizeof *out);
  if (!out)
    return -1;
  uint32_t width = common_width(d, s);
  uint64_t fd = width / d->bin_width, fs = width / s->bin_width; /* narrow bins per bin */
  uint32_t i = 0, j = 0, k = 0;
  while (i < d->n_bins || j < s->n_bins) {
    xprof_sample_bin b;
    if (j == s->n_bins || (i < d->n_bins && d->bins[i].index / fd <= s->bins[j].index / fs)) {
      b.index = d->bins[i].index / fd;
      b.count = d->bins[i++].count;
    } else {
      b.index = s->bins[j].index / fs;
      b.count = xprof_sat_mul(s->bins[j++].count, w);
    }
    if (k && out[k - 1].index == b.index)
      out[k - 1].count = xprof_sat_add(out[k - 1].count, b.count);
    else
      out[k++] = b;
  }
  d->bin_width = width;
  int rc = xprof_image_set_bins(p, d, out, k);
  xprof_free(out);
  return rc;
}

/* Make d a copy of s's build, with no samples yet. */
static int take_build(xprof_profile *p, xprof_image *d, const xprof_image *s) {
  d->flags = s->flags;
  d->text_size = s->text_size;
  d->bin_width = s->bin_width;
  d->n_bins = 0;
  d->bins = NULL;
  d->samples = d->time_ns = 0;
  return xprof_image_set_id(p, d, s->id, s->id_len);
}

int xprof_merge_images(xprof_profile *dst, const xprof_profile *src, uint64_t weight) {
  for (uint32_t i = 0; i < src->n_images; i++) {
    const xprof_image *s = &src->images[i];
    int fresh = !xprof_find_image(dst, s->path, s->text_off);
    xprof_image *d = xprof_add_image(dst, s->path, s->text_off);
    if (!d)
      return -1;
    if ((fresh || !same_build(d, s)) && take_build(dst, d, s) < 0)
      return -1;
    if (add_bins(dst, d, s, weight) < 0)
      return -1;
    d->time_ns = xprof_sat_add(d->time_ns, xprof_sat_mul(s->time_ns, weight));
  }
  return 0;
}

int xprof_validate_image(const xprof_image *img, const char *file, xprof_error *err) {
  const char *name = img->flags & XPROF_IMAGE_OVERFLOW ? "the overflow bin" : img->path;
  if (img->flags & ~XPROF_IMAGE_OVERFLOW)
    return xprof_fail(err, XPROF_ERR_INVALID, "%s: samples of %s have unknown flags 0x%x",
                      file, name, img->flags);
  if ((img->flags & XPROF_IMAGE_OVERFLOW) ? img->path[0] != 0 : img->path[0] == 0)
    return xprof_fail(err, XPROF_ERR_INVALID,
                      "%s: samples of an image without a name, or an overflow bin with one",
                      file);
  if (!img->bin_width)
    return xprof_fail(err, XPROF_ERR_INVALID, "%s: samples of %s: bin width 0", file, name);
  uint64_t n_slots = (img->flags & XPROF_IMAGE_OVERFLOW)
                         ? 1
                         : img->text_size / img->bin_width + (img->text_size % img->bin_width != 0);
  uint64_t sum = 0;
  for (uint32_t i = 0; i < img->n_bins; i++) {
    const xprof_sample_bin *b = &img->bins[i];
    if (b->index >= n_slots || (i && b->index <= img->bins[i - 1].index) || !b->count)
      return xprof_fail(err, XPROF_ERR_INVALID,
                        "%s: samples of %s: bin %u (index %" PRIu64 ", count %" PRIu64
                        ") is out of order, empty or past the %" PRIu64 " bins of its text",
                        file, name, i, b->index, b->count, n_slots);
    sum = xprof_sat_add(sum, b->count);
  }
  if (sum != img->samples)
    return xprof_fail(err, XPROF_ERR_INVALID,
                      "%s: samples of %s: the bins add up to %" PRIu64 ", the total says %" PRIu64,
                      file, name, sum, img->samples);
  return 0;
}

static int image_cmp(const void *a, const void *b) {
  const xprof_image *x = a, *y = b;
  if (x->samples != y->samples)
    return x->samples > y->samples ? -1 : 1;
  int c = strcmp(x->path, y->path);
  if (c)
    return c;
  return x->text_off < y->text_off ? -1 : x->text_off > y->text_off;
}

void xprof_sort_images(xprof_image *images, uint32_t n) {
  if (n > 1)
    xprof_sort(images, n, sizeof *images, image_cmp);
}

double xprof_image_sample_ns(const xprof_image *img) {
  return img->samples ? (double)img->time_ns / (double)img->samples : 0.0;
}
