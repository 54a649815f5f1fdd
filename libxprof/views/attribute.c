/*
 * attribute.c - time samples by function: each image's bins given to the
 * functions of the image's file (elf.c), as xprof_show, xprof_dcpi and
 * xprof_aprof report them.
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "xprof_views.h"

/* Add a sample count to the row of (image, function). */
static int add_row(xprof_time_table *t, const xprof_image *img, const char *name, uint64_t addr,
                   uint64_t samples, double ns) {
  for (uint32_t i = t->n_rows; i-- > 0 && t->rows[i].image == img;)
    if (t->rows[i].addr == addr && strcmp(t->rows[i].name, name) == 0) {
      t->rows[i].samples += samples;
      t->rows[i].ns += ns;
      return 0;
    }
  if (xprof_grow((void **)&t->rows, &t->cap_rows, t->n_rows, sizeof *t->rows) < 0)
    return -1;
  t->rows[t->n_rows++] = (xprof_func_time){img, name, addr, samples, ns};
  return 0;
}

/* A note on img; msg names the image itself when img is NULL. */
static int note(xprof_time_table *t, const xprof_image *img, const char *msg) {
  if (xprof_grow((void **)&t->notes, &t->cap_notes, t->n_notes, sizeof *t->notes) < 0)
    return -1;
  t->notes[t->n_notes] = img ? xprof_format("%s: %s", img->path, msg) : xprof_format("%s", msg);
  return t->notes[t->n_notes++] ? 0 : -1;
}

/* The functions of a stripped image from its separate debug file, where
 * the system keeps one by build-id (Debian's -dbg packages): e gives way
 * to it when it has the full symbol table. */
static xprof_elf *with_debug_symbols(xprof_elf *e) {
  if (e->full_symbols)
    return e;
  char *path = xprof_elf_debug_path(e);
  xprof_error err;
  xprof_elf *d = NULL;
  if (path && xprof_elf_read(path, &d, &err) == 0 && d->full_symbols) {
    xprof_elf_free(e);
    e = d;
  } else {
    xprof_elf_free(d);
  }
  xprof_free(path);
  return e;
}

/* The rows of one image: by function when its file is there and the
 * same build, else one row for the whole image. */
static int attribute_image(xprof_time_table *t, const xprof_image *img, unsigned flags) {
  double each = xprof_image_sample_ns(img);
  if (img->flags & XPROF_IMAGE_OVERFLOW)
    return add_row(t, img, XPROF_NO_FUNCTION, 0, img->samples, (double)img->time_ns);
  xprof_error err;
  xprof_elf *e = NULL;
  int rc = 0;
  if (xprof_elf_read(img->path, &e, &err) < 0)
    rc = note(t, NULL, err.msg);
  else if (!xprof_elf_matches_image(e, img))
    rc = note(t, img,
              flags & XPROF_TIME_ANY_BUILD
                  ? "the file is not the build sampled (rebuilt since?); its functions may "
                    "be wrong"
                  : "the file changed since the run; its time is not given to its functions");
  if (!e || (!(flags & XPROF_TIME_ANY_BUILD) && !xprof_elf_matches_image(e, img))) {
    xprof_elf_free(e);
    return rc < 0 ? -1 : add_row(t, img, XPROF_NO_FUNCTION, 0, img->samples, (double)img->time_ns);
  }
  e = with_debug_symbols(e);
  /* The rows point to its names: it lives as long as the table. */
  if (xprof_grow((void **)&t->elfs, &t->cap_elfs, t->n_elfs, sizeof *t->elfs) < 0) {
    xprof_elf_free(e);
    return -1;
  }
  t->elfs[t->n_elfs++] = e;
  for (uint32_t i = 0; i < img->n_bins && rc == 0; i++) {
    uint64_t addr = img->text_off + img->bins[i].index * img->bin_width;
    const xprof_elf_func *fn = xprof_elf_func_at(e, addr);
    rc = add_row(t, img, fn ? fn->name : XPROF_NO_FUNCTION, fn ? fn->addr : 0,
                 img->bins[i].count, each * (double)img->bins[i].count);
  }
  return rc;
}

static int by_samples(const void *a, const void *b) {
  const xprof_func_time *x = a, *y = b;
  if (x->samples != y->samples)
    return x->samples > y->samples ? -1 : 1;
  int c = strcmp(x->name, y->name);
  return c ? c : strcmp(x->image->path, y->image->path);
}

int xprof_time_by_function(const xprof_profile *p, unsigned flags, xprof_time_table **out,
                           xprof_error *err) {
  xprof_time_table *t = xprof_calloc(1, sizeof *t);
  *out = NULL;
  if (!t)
    return xprof_fail_nomem(err, "time by function");
  for (uint32_t i = 0; i < p->n_images; i++) {
    t->samples += p->images[i].samples;
    t->ns += (double)p->images[i].time_ns;
    if (attribute_image(t, &p->images[i], flags) < 0) {
      xprof_time_table_free(t);
      return xprof_fail_nomem(err, "time by function");
    }
  }
  if (t->n_rows > 1)
    xprof_sort(t->rows, t->n_rows, sizeof *t->rows, by_samples);
  *out = t;
  return 0;
}

void xprof_time_table_free(xprof_time_table *t) {
  if (!t)
    return;
  for (uint32_t i = 0; i < t->n_notes; i++)
    xprof_free(t->notes[i]);
  xprof_free(t->notes);
  xprof_free(t->rows);
  for (uint32_t i = 0; i < t->n_elfs; i++)
    xprof_elf_free(t->elfs[i]);
  xprof_free(t->elfs);
  xprof_free(t);
}

const xprof_func_time *xprof_time_of(const xprof_time_table *t, const char *name) {
  for (uint32_t i = 0; i < t->n_rows; i++)
    if (strcmp(t->rows[i].name, name) == 0)
      return &t->rows[i];
  return NULL;
}
