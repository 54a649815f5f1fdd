/*
 * lineprof_samples.c - time samples as a line profile: PGO for a program
 * that was never built with instrumentation.
 *
 * The runtime's samples are program counters in bins of a few bytes per
 * image (samples.c).  Each bin's address goes through the sampled file's
 * line table (its line) and its debugging information (the inline stack
 * there: the function whose code it is and the calls it was inlined
 * through), and its samples are added to that line of that function in
 * that context.  A line's count is then the time spent on it, which is
 * what the compilers' sample-based PGO expects of a profile taken without
 * branch records: more instructions on a line weigh more, and the
 * compilers (and flow solving) make a consistent flow out of it.
 *
 * A function's head (its entry count) cannot be sampled; it is the
 * samples of the line its entry address is on (the prologue's, and often
 * the epilogue's: once a call each), in the same units as its other
 * lines, and at least 1 for a function that was sampled at all.  Zero
 * would tell the compilers that a function with a hot body is never
 * entered (clang takes head + 1 as its entry count and scales
 * its call sites' counts by it; GCC takes the head as the count of the
 * function, and zero as "never executed").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "xprof_views.h"

/* The debugging information and line table of an image: from its own
 * file, else from the separate debug file the system keeps by build-id
 * (Debian's -dbgsym packages). */
typedef struct image_debug {
  xprof_dwarf_info *info;
  xprof_line_table *lines;
} image_debug;

static int read_debug(const char *path, image_debug *d, xprof_error *err) {
  if (xprof_dwarf_info_read(path, &d->info, err) < 0)
    return -1;
  if (xprof_line_table_read(path, &d->lines, err) < 0) {
    xprof_dwarf_info_free(d->info);
    d->info = NULL;
    return -1;
  }
  return 0;
}

/* 0, or -1 with err saying why the image's lines cannot be had. */
static int open_debug(const xprof_image *img, image_debug *d, xprof_error *err) {
  xprof_elf *e = NULL;
  memset(d, 0, sizeof *d);
  if (xprof_elf_read(img->path, &e, err) < 0)
    return -1;
  if (!xprof_elf_matches_image(e, img)) {
    xprof_elf_free(e);
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: the file changed since the run (rebuilt?): its samples are left out",
                      img->path);
  }
  int rc = read_debug(img->path, d, err);
  if (rc < 0) {
    xprof_error second;
    char *other = xprof_elf_debug_path(e);
    if (other && read_debug(other, d, &second) == 0)
      rc = 0;
    xprof_free(other);
  }
  xprof_elf_free(e);
  return rc;
}

static void close_debug(image_debug *d) {
  xprof_dwarf_info_free(d->info);
  xprof_line_table_free(d->lines);
}

/* The function instance of an inline stack (stack[0] the subprogram,
 * whose row is *row, made on first use), or NULL when a call line lies
 * before its caller's declaration or a name is missing; *oom when out of
 * memory. */
static xprof_lp_func *instance(xprof_lineprof *lp, const xprof_dwarf_info *info,
                               const uint32_t *stack, uint32_t depth, uint32_t *row, int *oom) {
  const xprof_dwarf_scope *top = &info->scopes[stack[0]];
  if (!top->name || !top->decl_line)
    return NULL;
  if (*row == UINT32_MAX) {
    if (!xprof_lineprof_func(lp, top->name, NULL, top->decl_line)) {
      *oom = 1;
      return NULL;
    }
    *row = lp->n_funcs - 1;
  }
  xprof_lp_func *f = &lp->funcs[*row];
  for (uint32_t i = 1; i < depth && f; i++) {
    const xprof_dwarf_scope *s = &info->scopes[stack[i]];
    if (!s->name || !s->decl_line || s->call_line < f->decl_line)
      return NULL;
    f = xprof_lineprof_inlined(f, s->call_line - f->decl_line, s->name, NULL, s->decl_line);
    *oom |= !f;
  }
  return f;
}

/* The images without lines: how many, their samples, the busiest. */
typedef struct unlined {
  uint32_t n;
  uint64_t samples, most;
  const char *busiest;
  char *why; /* the busiest one's reason */
} unlined;

/* Each function row's head: the samples of its entry line (above). */
static void set_heads(xprof_lineprof *lp, const xprof_dwarf_info *info,
                      const xprof_line_table *lines, const uint32_t *rows) {
  for (uint32_t i = 0; i < info->n_scopes; i++) {
    if (rows[i] == UINT32_MAX)
      continue;
    xprof_lp_func *f = &lp->funcs[rows[i]];
    const xprof_line_row *r = xprof_line_at(lines, info->ranges[info->scopes[i].first_range].lo);
    if (!r || r->line < f->decl_line)
      continue;
    uint64_t entry = 0;
    for (uint32_t k = 0; k < f->n_lines; k++)
      if (f->lines[k].offset == r->line - f->decl_line && !f->lines[k].discr)
        entry = xprof_sat_add(entry, f->lines[k].count);
    if (entry > f->head)
      f->head = entry;
  }
  /* A function that was sampled ran: at least once (main and the like,
   * called once, have no samples on their entry line). */
  for (uint32_t i = 0; i < lp->n_funcs; i++)
    if (!lp->funcs[i].head && (lp->funcs[i].n_lines || lp->funcs[i].n_calls))
      lp->funcs[i].head = 1;
}

/* The samples of one image; 0, or -1 when out of memory. */
static int add_image(xprof_lineprof *lp, const xprof_image *img, unlined *u) {
  image_debug d;
  xprof_error err;
  if (open_debug(img, &d, &err) < 0) {
    u->n++;
    u->samples += img->samples;
    if (img->samples > u->most) {
      u->most = img->samples;
      u->busiest = img->path;
      xprof_free(u->why);
      u->why = xprof_format("%s", err.msg);
    }
    return 0;
  }
  /* The row of each subprogram in lp, once made. */
  uint32_t *rows = xprof_malloc(((size_t)d.info->n_scopes + 1) * sizeof *rows);
  if (!rows) {
    close_debug(&d);
    return -1;
  }
  for (uint32_t i = 0; i < d.info->n_scopes; i++)
    rows[i] = UINT32_MAX;
  int oom = 0;
  for (uint32_t b = 0; b < img->n_bins && !oom; b++) {
    uint64_t addr = img->text_off + img->bins[b].index * img->bin_width;
    uint32_t stack[64];
    uint32_t depth = xprof_dwarf_inline_stack(d.info, addr, stack, 64);
    const xprof_line_row *r = depth ? xprof_line_at(d.lines, addr) : NULL;
    xprof_lp_func *f = r && r->line ? instance(lp, d.info, stack, depth, &rows[stack[0]], &oom)
                                    : NULL;
    if (!f || r->line < f->decl_line)
      continue;
    oom = xprof_lineprof_add(f, r->line - f->decl_line, 0, img->bins[b].count) < 0;
    lp->placed += img->bins[b].count;
  }
  if (!oom)
    set_heads(lp, d.info, d.lines, rows);
  xprof_free(rows);
  close_debug(&d);
  return oom ? -1 : 0;
}

int xprof_lineprof_from_samples(const xprof_profile *p, xprof_lineprof **out, xprof_error *err) {
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  *out = NULL;
  if (!lp)
    return xprof_fail_nomem(err, "line profile");
  lp->from_samples = 1;
  int rc = 0;
  unlined u = {0, 0, 0, NULL, NULL};
  for (uint32_t i = 0; i < p->n_images && rc == 0; i++) {
    const xprof_image *img = &p->images[i];
    lp->samples += img->samples;
    if (!(img->flags & XPROF_IMAGE_OVERFLOW) && img->samples)
      rc = add_image(lp, img, &u);
  }
  /* One note for the images without lines (the C library, as a rule),
   * with the reason of the busiest. */
  if (rc == 0 && u.n == 1)
    rc = xprof_lineprof_note(lp, xprof_format("%s (%" PRIu64 " samples)", u.why, u.samples));
  else if (rc == 0 && u.n)
    rc = xprof_lineprof_note(lp, xprof_format("%u sampled files without lines, %" PRIu64
                                              " samples; the busiest: %s",
                                              u.n, u.samples, u.why));
  xprof_free(u.why);
  if (rc < 0 || xprof_lineprof_finish(lp) < 0) {
    xprof_lineprof_free(lp);
    return xprof_fail_nomem(err, "line profile");
  }
  *out = lp;
  return 0;
}
