/*
 * lineprof_samples.c - time samples as a line profile: PGO for a program
 * that was never built with instrumentation.
 *
 * The runtime's samples are program counters in bins of a few bytes per
 * image (samples.c).  Each bin's address goes through the sampled file's
 * line table (its line) and its debugging information (the inline stack
 * there: the function whose code it is and the calls it was inlined
 * through), and its samples go to that line of that function in that
 * context.  With bins of a byte (the runtime's default) a sample's time
 * goes to the instruction before its program counter, the one that was
 * in flight when the timer fired (sampled_at).
 *
 * A line's samples are the time spent on it: how often it ran times how
 * much code it has there.  A use build wants how often: a block of ten
 * instructions and one of two that ran as often would otherwise read as
 * a branch taken five times in six, and a function's busiest lines would
 * be its longest.  So the functions with samples are walked bin by bin,
 * and a line's count is its samples per bin of its code in that context
 * (its density), all scaled so that they add up to the samples placed:
 * the units stay samples.  (Without branch records, AutoFDO takes a
 * line's busiest instruction instead; with a few thousand samples, one
 * bin's are mostly 0 or 1, and the density's average over the line is
 * the steadier estimate.)  Lines without samples stay out: unknown, not
 * zero, to the flow solving of a use build.
 *
 * Both compilers' line tables give each instruction its source column
 * too, and where a line's code is of several columns (a condition and
 * its arms on one line, a loop's test and its step), each column gets a
 * count of its own the same way, which a use build gives the blocks of
 * that column: without it they all had their line's, and the branch
 * between them was split evenly.
 *
 * A function's head (its entry count) cannot be sampled; it is the
 * count of the line its entry address is on (the prologue's, and often
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

/* Both from one read of the file at path (its compressed sections
 * inflated once); the function instances keep the bytes. */
static int read_debug(const char *path, image_debug *d, xprof_error *err) {
  unsigned char *buf;
  size_t len;
  if (xprof_elf_slurp(path, &buf, &len, err) < 0)
    return -1;
  if (xprof_dwarf_info_parse(path, buf, len, &d->info, err) < 0) {
    xprof_free(buf);
    return -1;
  }
  d->info->owned = buf;
  if (xprof_line_table_parse(path, buf, len, &d->lines, err) < 0) {
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

/* The source file of function instance s: its declaration's, else, for
 * a subprogram, that of the first row at its entry in the line table
 * (its opening line, which both compilers put first at a function's
 * first address, before any row of code inlined there); NULL when
 * neither is known. */
static const char *source_of(const image_debug *d, const xprof_dwarf_scope *top) {
  if (top->decl_file != XPROF_DWARF_NO_FILE) {
    const char *file = xprof_line_unit_file(d->lines, top->decl_unit, top->decl_file);
    if (file)
      return file;
  }
  if (!top->n_ranges || top->parent != UINT32_MAX)
    return NULL;
  uint64_t entry = d->info->ranges[top->first_range].lo;
  const xprof_line_row *r = xprof_line_at(d->lines, entry);
  if (!r || r->addr != entry)
    return NULL;
  while (r > d->lines->rows && r[-1].addr == entry)
    r--;
  if (r->line < top->decl_line || r->file >= d->lines->n_files)
    return NULL;
  return d->lines->files[r->file];
}

/* The function instance of an inline stack (stack[0] the subprogram,
 * whose row is *row, made on first use), or NULL when a call line lies
 * before its caller's declaration or a name is missing; *oom when out of
 * memory. */
static xprof_lp_func *instance(xprof_lineprof *lp, const image_debug *d, const uint32_t *stack,
                               uint32_t depth, uint32_t *row, int *oom) {
  const xprof_dwarf_info *info = d->info;
  const xprof_dwarf_scope *top = &info->scopes[stack[0]];
  if (!top->name || !top->decl_line)
    return NULL;
  if (*row == UINT32_MAX) {
    if (!xprof_lineprof_func(lp, top->name, source_of(d, top), top->decl_line)) {
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
    f = xprof_lineprof_inlined(f, s->call_line - f->decl_line, 0, s->name, source_of(d, s),
                               s->decl_line);
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

/* A run of consecutive bins of a sampled function whose code is of one
 * line and column in one inline context (leaf: the innermost scope
 * there). */
typedef struct piece {
  uint32_t top, leaf, line, column, bins;
  uint64_t addr, samples; /* its first bin's place (sampled_at); the samples in it */
} piece;

typedef struct pieces {
  piece *v;
  uint32_t n, cap;
} pieces;

static int same_place(const piece *a, const piece *b) {
  return a->leaf == b->leaf && a->line == b->line;
}

static int piece_cmp(const void *a, const void *b) {
  const piece *x = a, *y = b;
  if (x->leaf != y->leaf)
    return x->leaf < y->leaf ? -1 : 1;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->column != y->column)
    return x->column < y->column ? -1 : 1;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The samples of the bin at index `index` of img (bins sorted by index;
 * *at a cursor that only moves forward within one range). */
static uint64_t bin_samples(const xprof_image *img, uint64_t index, uint32_t *at) {
  while (*at < img->n_bins && img->bins[*at].index < index)
    (*at)++;
  return *at < img->n_bins && img->bins[*at].index == index ? img->bins[*at].count : 0;
}

/* The first bin at or after addr: the runtime gives a bin's samples to
 * the address it starts at, and so does this walk. */
static uint32_t first_bin_at(const xprof_image *img, uint64_t addr) {
  uint32_t lo = 0, hi = img->n_bins;
  uint64_t index = addr <= img->text_off ? 0 : (addr - img->text_off) / img->bin_width;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (img->bins[mid].index < index)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The address whose line and inline context the samples of the bin at
 * addr (in a range of a function that starts at range_lo) go to.  A
 * timer's interrupt is taken once the instruction in flight retires, so
 * the program counter it records is the next instruction's: the time was
 * spent on the one before (a load that missed the cache shows on the
 * instruction after it, which may be on another line: the next
 * statement, a loop's latch).  With bins of one byte (the runtime's
 * default) that instruction ends at the bin, and the byte before the bin
 * is its last.  At the start of a range (a function's entry, reached by a
 * call) the byte before is not the function's, and the bin is taken for
 * itself.  At a jump target the instruction before in memory is not the
 * one that ran; over whole programs the rule still gives branches closer
 * to the exact counts' (bench/bench_sample_accuracy.sh).  A wider bin
 * holds the samples of several instructions and is taken at its start. */
static uint64_t sampled_at(const xprof_image *img, uint64_t addr, uint64_t range_lo) {
  return img->bin_width == 1 && addr > range_lo ? addr - 1 : addr;
}

/* The pieces of the code of subprogram `top`: every bin whose address is
 * in its ranges, with its samples.  0, or -1 when out of memory. */
static int walk_function(const xprof_image *img, const image_debug *d, uint32_t top, pieces *ps) {
  const xprof_dwarf_scope *sc = &d->info->scopes[top];
  uint64_t w = img->bin_width;
  for (uint32_t r = 0; r < sc->n_ranges; r++) {
    const xprof_dwarf_range *rg = &d->info->ranges[sc->first_range + r];
    uint64_t end = img->text_off + img->text_size;
    if (rg->hi <= img->text_off || rg->lo >= end)
      continue;
    if (end > rg->hi)
      end = rg->hi; /* and no further than the text, whatever the DWARF says */
    uint64_t k = rg->lo <= img->text_off ? 0 : (rg->lo - img->text_off + w - 1) / w;
    uint32_t at = first_bin_at(img, img->text_off + k * w);
    piece *last = NULL;
    for (uint64_t addr = img->text_off + k * w; addr < end; addr += w, k++) {
      uint32_t stack[64];
      uint64_t place = sampled_at(img, addr, rg->lo);
      uint32_t depth = xprof_dwarf_inline_stack_in(d->info, top, place, stack, 64);
      const xprof_line_row *row = depth ? xprof_line_at(d->lines, place) : NULL;
      if (!row || !row->line) {
        last = NULL;
        continue;
      }
      uint64_t n = bin_samples(img, k, &at);
      if (last && last->leaf == stack[depth - 1] && last->line == row->line &&
          last->column == row->column) {
        last->bins++;
        last->samples += n;
        continue;
      }
      if (xprof_grow((void **)&ps->v, &ps->cap, ps->n, sizeof *ps->v) < 0)
        return -1;
      last = &ps->v[ps->n++];
      *last = (piece){top, stack[depth - 1], row->line, row->column, 1, place, n};
    }
  }
  return 0;
}

/* The end of the group of pieces of one place that starts at ps[a] (one
 * leaf and line, consecutive once sorted; with `by_column`, one column of
 * it), with their samples and bins added up in *samples and *bins. */
static uint32_t group(const piece *ps, uint32_t n, uint32_t a, int by_column, uint64_t *samples,
                      uint64_t *bins) {
  uint32_t b = a;
  *samples = *bins = 0;
  for (; b < n && same_place(&ps[a], &ps[b]) && (!by_column || ps[a].column == ps[b].column);
       b++) {
    *samples += ps[b].samples;
    *bins += ps[b].bins;
  }
  return b;
}

/* The count of a place of `per_bin` samples per bin of its code: times
 * `scale`, at least 1 (it has samples, or its line has). */
static uint64_t count_of(double per_bin, double scale) {
  uint64_t c = (uint64_t)(per_bin * scale + 0.5);
  return c ? c : 1;
}

/* Give the columns of the place ps[a..b) (sorted; in f at line offset
 * `offset`; line_density its samples per bin) their counts.  A column of
 * a bin or two has a sample or none where its line has a few: its density
 * is taken as if it had one bin more at its line's, which leaves a large
 * column its own and gives one without samples less than its line, not
 * nothing.  Every column is given, that of a line of one column too (the
 * writer leaves out a line's columns where all have its count, which a
 * line without columns means). */
static int place_columns(xprof_lp_func *f, uint32_t offset, const piece *ps, uint32_t a,
                         uint32_t b, double line_density, double scale) {
  uint64_t samples, bins;
  for (uint32_t c = a, e; c < b; c = e) {
    e = group(ps, b, c, 1, &samples, &bins);
    uint64_t count = count_of(((double)samples + line_density) / (double)(bins + 1), scale);
    if (ps[c].column && xprof_lineprof_column(f, offset, ps[c].column, count) < 0)
      return -1;
  }
  return 0;
}

/* Give each place of ps (sorted) its line in lp: its samples per bin,
 * scaled by the same factor for all so that the counts add up to the
 * samples; and its columns theirs, in the same units.  A place with
 * samples counts at least 1.  0, or -1 when out of memory. */
static int place_densities(xprof_lineprof *lp, const image_debug *d, uint32_t *rows,
                           const pieces *ps) {
  uint64_t samples, bins, total = 0;
  double sum = 0;
  for (uint32_t a = 0; a < ps->n;) {
    a = group(ps->v, ps->n, a, 0, &samples, &bins);
    sum += (double)samples / (double)bins;
    total += samples;
  }
  double scale = sum > 0 ? (double)total / sum : 1;
  for (uint32_t a = 0, b; a < ps->n; a = b) {
    b = group(ps->v, ps->n, a, 0, &samples, &bins);
    if (!samples)
      continue;
    const piece *first = &ps->v[a];
    uint32_t stack[64];
    uint32_t depth = xprof_dwarf_inline_stack_in(d->info, first->top, first->addr, stack, 64);
    int oom = 0;
    xprof_lp_func *f = depth ? instance(lp, d, stack, depth, &rows[stack[0]], &oom) : NULL;
    if (oom)
      return -1;
    if (!f || first->line < f->decl_line)
      continue;
    uint32_t offset = first->line - f->decl_line;
    double line_density = (double)samples / (double)bins;
    if (xprof_lineprof_add(f, offset, 0, count_of(line_density, scale)) < 0 ||
        place_columns(f, offset, ps->v, a, b, line_density, scale) < 0)
      return -1;
    lp->placed += samples;
  }
  return 0;
}

/* The samples of one image, each line's count its density (see the top);
 * 0, or -1 when out of memory. */
static int add_image(xprof_lineprof *lp, const xprof_image *img, unlined *u) {
  image_debug d;
  xprof_error err;
  int rc = open_debug(img, &d, &err);
  if (rc == 0 && !d.info->n_scopes && d.info->n_split) {
    rc = xprof_fail(&err, XPROF_ERR_FORMAT,
                    "%s: built with -gsplit-dwarf, and its functions' split DWARF files "
                    "were not read (%s); xprof reads the .dwo files of DWARF 5 where the "
                    "build left them or beside the program, not .dwp packages",
                    img->path, d.info->split_missing ? d.info->split_missing : "a .dwp?");
    close_debug(&d);
  } else if (rc == 0 && d.info->n_split &&
             xprof_lineprof_note(lp, xprof_format("%s: %u of its units' split DWARF files "
                                                  "not read (%s): their samples are left out",
                                                  img->path, d.info->n_split,
                                                  d.info->split_missing
                                                      ? d.info->split_missing
                                                      : "a .dwp?")) < 0) {
    close_debug(&d);
    return -1;
  }
  if (rc < 0) {
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
  /* The row of each subprogram in lp, once made; which have samples. */
  uint32_t n_scopes = d.info->n_scopes;
  uint32_t *rows = xprof_malloc(((size_t)n_scopes + 1) * sizeof *rows);
  unsigned char *sampled = xprof_calloc((size_t)n_scopes + 1, 1);
  pieces ps = {NULL, 0, 0};
  rc = rows && sampled ? 0 : -1;
  for (uint32_t i = 0; rc == 0 && i < n_scopes; i++)
    rows[i] = UINT32_MAX;
  for (uint32_t b = 0; rc == 0 && b < img->n_bins; b++) {
    uint32_t stack[1];
    if (xprof_dwarf_inline_stack(d.info, img->text_off + img->bins[b].index * img->bin_width,
                                 stack, 1))
      sampled[stack[0]] = 1;
  }
  for (uint32_t i = 0; rc == 0 && i < n_scopes; i++)
    if (sampled[i])
      rc = walk_function(img, &d, i, &ps);
  if (rc == 0 && ps.n > 1)
    xprof_sort(ps.v, ps.n, sizeof *ps.v, piece_cmp);
  if (rc == 0)
    rc = place_densities(lp, &d, rows, &ps);
  if (rc == 0)
    set_heads(lp, d.info, d.lines, rows);
  xprof_free(ps.v);
  xprof_free(sampled);
  xprof_free(rows);
  close_debug(&d);
  return rc;
}

/* Whether img is the runtime that xprof_collect preloads: its time is
 * the collection's, and its lines (it is built with -g) are xprof's
 * sources, which no use build of the program compiles. */
static int is_preloaded_runtime(const xprof_image *img) {
  const char *slash = strrchr(img->path, '/');
  return strcmp(slash ? slash + 1 : img->path, XPROF_COLLECT_LIBRARY) == 0;
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
    if (is_preloaded_runtime(img))
      continue;
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
