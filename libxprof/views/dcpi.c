/*
 * dcpi.c - profile files of the DIGITAL Continuous Profiling
 * Infrastructure, format version 0.07 (dcpiformat(4)): written from an
 * image's time samples, and read back (ours or any valid one).
 *
 * A file is an ASCII header -- "key value" lines, each required key
 * exactly once, unknown keys kept -- ended by a "samples" line padded
 * with spaces so that the binary part starts at a multiple of 4; then
 * little-endian 32-bit chunks (offset from tstart, number of addresses,
 * one count per address), by increasing offset, and a footer: how many
 * addresses have samples, and the sum of the samples.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "xprof_views.h"

static const char *const required[] = {"version", "image", "epoch", "platform", "event",
                                       "period",  "tstart", "tsize", "cpuspeed"};
#define N_REQUIRED (sizeof required / sizeof *required)

/* ---- writing ------------------------------------------------------------ */

static int add_line(xprof_dcpi *d, const char *key, const char *value) {
  if (xprof_grow((void **)&d->lines, &d->cap_lines, d->n_lines, sizeof *d->lines) < 0)
    return -1;
  xprof_dcpi_line *l = &d->lines[d->n_lines];
  l->key = xprof_format("%s", key);
  l->value = xprof_format("%s", value);
  if (!l->key || !l->value) {
    xprof_free(l->key);
    xprof_free(l->value);
    return -1;
  }
  d->n_lines++;
  return 0;
}

int xprof_dcpi_set(xprof_dcpi *d, const char *key, const char *value) {
  for (uint32_t i = 0; i < d->n_lines; i++)
    if (strcmp(d->lines[i].key, key) == 0) {
      char *v = xprof_format("%s", value);
      if (!v)
        return -1;
      xprof_free(d->lines[i].value);
      d->lines[i].value = v;
      return 0;
    }
  return add_line(d, key, value);
}

const char *xprof_dcpi_get(const xprof_dcpi *d, const char *key) {
  for (uint32_t i = 0; i < d->n_lines; i++)
    if (strcmp(d->lines[i].key, key) == 0)
      return d->lines[i].value;
  return NULL;
}

int xprof_dcpi_serialize(const xprof_dcpi *d, unsigned char **out, size_t *len,
                         xprof_error *err) {
  char *text = NULL;
  size_t tlen = 0;
  FILE *f = open_memstream(&text, &tlen);
  if (!f)
    return xprof_fail_nomem(err, "DCPI profile");
  for (uint32_t i = 0; i < d->n_lines; i++)
    fprintf(f, "%s %s\n", d->lines[i].key, d->lines[i].value);
  fputs("samples", f);
  fflush(f);
  while ((tlen + 1) % 4) { /* the binary part 4-byte aligned */
    fputc(' ', f);
    fflush(f);
  }
  fputc('\n', f);
  for (uint32_t i = 0; i < d->n_counts; i++) {
    unsigned char c[12];
    xprof_put32(c, d->counts[i].offset);
    xprof_put32(c + 4, 1);
    xprof_put32(c + 8, d->counts[i].count);
    fwrite(c, 1, sizeof c, f);
  }
  unsigned char foot[8];
  uint64_t total = 0;
  for (uint32_t i = 0; i < d->n_counts; i++)
    total += d->counts[i].count;
  xprof_put32(foot, d->n_counts);
  xprof_put32(foot + 4, total > UINT32_MAX ? UINT32_MAX : (uint32_t)total);
  fwrite(foot, 1, sizeof foot, f);
  if (fclose(f) != 0 || !text) {
    free(text);
    return xprof_fail_nomem(err, "DCPI profile");
  }
  *out = (unsigned char *)text;
  *len = tlen;
  return 0;
}

/* The header of an image's profile: the required lines, then path. */
static int image_header(xprof_dcpi *d, const xprof_image *img, const char *epoch,
                        const char *platform, unsigned cpu_mhz) {
  char id[2 * XPROF_IMAGE_ID_MAX + 1] = "0", num[64];
  for (uint32_t i = 0; i < img->id_len; i++)
    snprintf(id + 2 * i, 3, "%02x", img->id[i]);
  int rc = xprof_dcpi_set(d, "version", "pdb-0.07") | xprof_dcpi_set(d, "image", id) |
           xprof_dcpi_set(d, "epoch", epoch) | xprof_dcpi_set(d, "platform", platform) |
           xprof_dcpi_set(d, "event", "cputime");
  snprintf(num, sizeof num, "%.0f", xprof_image_sample_ns(img) / 1000.0);
  rc |= xprof_dcpi_set(d, "period", num);
  snprintf(num, sizeof num, "%" PRIx64, img->text_off);
  rc |= xprof_dcpi_set(d, "tstart", num);
  snprintf(num, sizeof num, "%" PRIu64, img->text_size);
  rc |= xprof_dcpi_set(d, "tsize", num);
  snprintf(num, sizeof num, "%u", cpu_mhz);
  rc |= xprof_dcpi_set(d, "cpuspeed", num);
  rc |= xprof_dcpi_set(d, "path", img->path);
  return rc ? -1 : 0;
}

int xprof_dcpi_from_image(const xprof_image *img, const char *epoch, const char *platform,
                          unsigned cpu_mhz, xprof_dcpi *d, xprof_error *err) {
  if (img->text_size > UINT32_MAX)
    return xprof_fail(err, XPROF_ERR_INVALID,
                      "%s: %" PRIu64 " bytes of text do not fit a DCPI profile's offsets",
                      img->path, img->text_size);
  if (image_header(d, img, epoch, platform, cpu_mhz) < 0)
    return xprof_fail_nomem(err, img->path);
  d->counts = xprof_calloc((size_t)img->n_bins + 1, sizeof *d->counts);
  if (!d->counts)
    return xprof_fail_nomem(err, img->path);
  /* A bin's samples go to its first address (DCPI counts by address). */
  for (uint32_t i = 0; i < img->n_bins; i++) {
    uint64_t c = img->bins[i].count;
    d->counts[i].offset = (uint32_t)(img->bins[i].index * img->bin_width);
    d->counts[i].count = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
  }
  d->n_counts = img->n_bins;
  return 0;
}

void xprof_dcpi_free(xprof_dcpi *d) {
  for (uint32_t i = 0; i < d->n_lines; i++) {
    xprof_free(d->lines[i].key);
    xprof_free(d->lines[i].value);
  }
  xprof_free(d->lines);
  xprof_free(d->counts);
  memset(d, 0, sizeof *d);
}

/* ---- reading ------------------------------------------------------------ */

static int is_all(const char *s, int (*ok)(int)) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (!ok((unsigned char)*s))
      return 0;
  return 1;
}

/* Check a required line's value. */
static int check_value(const char *name, size_t at, const char *key, const char *v,
                       xprof_error *err) {
  int ok = 1;
  if (strcmp(key, "version") == 0) {
    unsigned ma, mi;
    char tail;
    ok = sscanf(v, "pdb-%u.%u%c", &ma, &mi, &tail) == 2;
    if (ok && ma != 0)
      return xprof_fail(err, XPROF_ERR_VERSION,
                        "%s: offset %zu: DCPI profile version %s; this reader knows the "
                        "binary data of major version 0 (0.06, 0.07)",
                        name, at, v);
  } else if (strcmp(key, "image") == 0 || strcmp(key, "tstart") == 0) {
    ok = is_all(v, isxdigit);
  } else if (strcmp(key, "epoch") == 0) {
    ok = is_all(v, isdigit) && (strlen(v) == 10 || strlen(v) == 14);
  } else if (strcmp(key, "period") == 0 || strcmp(key, "tsize") == 0 ||
             strcmp(key, "cpuspeed") == 0) {
    ok = is_all(v, isdigit);
  }
  if (!ok)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset %zu: the %s line has a malformed value '%s'", name, at, key, v);
  return 0;
}

/* The ASCII header up to and with the "samples" line; *pos after it. */
static int read_header(const char *name, const unsigned char *p, size_t len, xprof_dcpi *d,
                       size_t *pos, xprof_error *err) {
  unsigned seen[N_REQUIRED] = {0};
  size_t at = 0;
  for (;;) {
    const unsigned char *nl = at < len ? memchr(p + at, '\n', len - at) : NULL;
    if (!nl)
      return xprof_fail(err, XPROF_ERR_FORMAT,
                        "%s: offset %zu: the header ends without a \"samples\" line", name, at);
    size_t n = (size_t)(nl - (p + at));
    char *line = xprof_format("%.*s", (int)n, (const char *)p + at);
    if (!line)
      return xprof_fail_nomem(err, name);
    if (strlen(line) != n) {
      xprof_free(line);
      return xprof_fail(err, XPROF_ERR_FORMAT, "%s: offset %zu: a NUL byte in the header",
                        name, at);
    }
    size_t k = strcspn(line, " \t");
    if (k == strlen("samples") && strncmp(line, "samples", k) == 0 &&
        line[k + strspn(line + k, " \t")] == 0) {
      xprof_free(line);
      *pos = at + n + 1;
      break;
    }
    size_t v = k + strspn(line + k, " \t");
    int rc = 0;
    if (!k || v == k || !line[v])
      rc = xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset %zu: expected a header line \"key value\" or \"samples\"",
                      name, at);
    line[k] = 0;
    for (size_t r = 0; rc == 0 && r < N_REQUIRED; r++)
      if (strcmp(line, required[r]) == 0 && seen[r]++)
        rc = xprof_fail(err, XPROF_ERR_FORMAT, "%s: offset %zu: a second %s line", name, at,
                        line);
    if (rc == 0)
      rc = check_value(name, at, line, line + v, err);
    if (rc == 0 && add_line(d, line, line + v) < 0)
      rc = xprof_fail_nomem(err, name);
    xprof_free(line);
    if (rc < 0)
      return -1;
    at += n + 1;
  }
  for (size_t r = 0; r < N_REQUIRED; r++)
    if (!seen[r])
      return xprof_fail(err, XPROF_ERR_FORMAT, "%s: offset %zu: the header has no %s line",
                        name, *pos, required[r]);
  return 0;
}

/* The chunks and the footer, from pos. */
static int read_samples(const char *name, const unsigned char *p, size_t len, size_t pos,
                        xprof_dcpi *d, xprof_error *err) {
  uint64_t tsize = strtoull(xprof_dcpi_get(d, "tsize"), NULL, 10);
  uint64_t next = 0, addresses = 0, total = 0; /* the first offset a chunk may start at */
  while (len - pos != 8) {
    if (len - pos < 8 + 8)
      return xprof_fail(err, XPROF_ERR_FORMAT,
                        "%s: offset %zu: %zu bytes where a chunk (offset, number) or the "
                        "8-byte footer was expected",
                        name, pos, len - pos);
    uint32_t off = xprof_get32(p + pos), n = xprof_get32(p + pos + 4);
    if (off < next || !n || (uint64_t)off + n > tsize)
      return xprof_fail(err, XPROF_ERR_FORMAT,
                        "%s: offset %zu: a chunk of %u addresses at offset 0x%x (expected "
                        "offsets from 0x%" PRIx64 " on, inside the %" PRIu64 " bytes of text)",
                        name, pos, n, off, next, tsize);
    if ((len - pos - 8 - 8) / 4 < n)
      return xprof_fail(err, XPROF_ERR_FORMAT,
                        "%s: offset %zu: a chunk of %u counts runs past the end of the file",
                        name, pos, n);
    pos += 8;
    for (uint32_t i = 0; i < n; i++, pos += 4) {
      uint32_t c = xprof_get32(p + pos);
      if (!c)
        continue;
      if (xprof_grow((void **)&d->counts, &d->cap_counts, d->n_counts, sizeof *d->counts) < 0)
        return xprof_fail_nomem(err, name);
      d->counts[d->n_counts++] = (xprof_dcpi_count){off + i, c};
      addresses++;
      total += c;
    }
    next = (uint64_t)off + n;
  }
  uint32_t f_addr = xprof_get32(p + pos), f_total = xprof_get32(p + pos + 4);
  if (f_addr != addresses || f_total != (total > UINT32_MAX ? UINT32_MAX : total))
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: offset %zu: the footer says %u addresses and %u samples, the "
                      "chunks hold %" PRIu64 " and %" PRIu64,
                      name, pos, f_addr, f_total, addresses, total);
  return 0;
}

int xprof_dcpi_parse(const char *name, const unsigned char *p, size_t len, xprof_dcpi *d,
                     xprof_error *err) {
  memset(d, 0, sizeof *d);
  size_t pos = 0;
  if (read_header(name, p, len, d, &pos, err) < 0 || read_samples(name, p, len, pos, d, err) < 0) {
    xprof_dcpi_free(d);
    return -1;
  }
  return 0;
}

int xprof_dcpi_to_image(const xprof_dcpi *d, xprof_profile *p, xprof_image **out) {
  const char *path = xprof_dcpi_get(d, "path");
  const char *image = xprof_dcpi_get(d, "image");
  uint64_t tstart = strtoull(xprof_dcpi_get(d, "tstart"), NULL, 16);
  xprof_image *img = xprof_add_image(p, path ? path : image, tstart);
  if (!img)
    return -1;
  unsigned char id[XPROF_IMAGE_ID_MAX];
  uint32_t n = 0;
  size_t hex = strlen(image);
  if (hex % 2 == 0 && hex / 2 <= XPROF_IMAGE_ID_MAX)
    for (; n < hex / 2; n++)
      sscanf(image + 2 * n, "%2hhx", &id[n]);
  xprof_sample_bin *bins = xprof_calloc((size_t)d->n_counts + 1, sizeof *bins);
  if (!bins)
    return -1;
  for (uint32_t i = 0; i < d->n_counts; i++)
    bins[i] = (xprof_sample_bin){d->counts[i].offset, d->counts[i].count};
  int rc = xprof_image_set_id(p, img, id, n) | xprof_image_set_bins(p, img, bins, d->n_counts);
  xprof_free(bins);
  img->bin_width = 1;
  img->text_size = strtoull(xprof_dcpi_get(d, "tsize"), NULL, 10);
  /* Our period is in microseconds of CPU time; other events' are not time. */
  const char *event = xprof_dcpi_get(d, "event");
  if (strcmp(event, "cputime") == 0)
    img->time_ns = img->samples * strtoull(xprof_dcpi_get(d, "period"), NULL, 10) * 1000;
  *out = img;
  return rc ? -1 : 0;
}
