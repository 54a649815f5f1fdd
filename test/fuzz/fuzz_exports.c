/*
 * fuzz_exports.c - libFuzzer target for the readers of other profilers'
 * files: gmon.out, DCPI profile files, ELF symbol tables, DWARF line
 * tables and function instances (.debug_info), and clang's sample-profile
 * text (xprof_afdo's input, a profile directory's lines).  The first
 * byte picks the reader (0xff: the sample text).  What a reader accepts
 * must survive a round trip through its writer (gmon.out, DCPI, the
 * sample text) or answer lookups within bounds (ELF, DWARF).
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xprof_plan.h"
#include "xprof_views.h"

static void gmon(const uint8_t *data, size_t size) {
  xprof_gmon g, r;
  xprof_error err;
  if (xprof_gmon_parse("fuzz", data, size, &g, &err) < 0)
    return;
  unsigned char *buf;
  size_t len;
  if (xprof_gmon_serialize(&g, &buf, &len, &err) == 0) {
    if (xprof_gmon_parse("again", buf, len, &r, &err) < 0 || r.n_hist != g.n_hist ||
        r.n_arcs != g.n_arcs || r.n_bbs != g.n_bbs)
      abort();
    for (uint32_t i = 0; i < g.n_hist; i++)
      if (r.hist[i] != g.hist[i])
        abort();
    for (uint32_t i = 0; i < g.n_arcs; i++)
      if (r.arcs[i].count != g.arcs[i].count)
        abort();
    xprof_gmon_free(&r);
    free(buf);
  }
  xprof_gmon_free(&g);
}

static void dcpi(const uint8_t *data, size_t size) {
  xprof_dcpi d, r;
  xprof_error err;
  if (xprof_dcpi_parse("fuzz", data, size, &d, &err) < 0)
    return;
  unsigned char *buf;
  size_t len;
  if (xprof_dcpi_serialize(&d, &buf, &len, &err) == 0) {
    if (xprof_dcpi_parse("again", buf, len, &r, &err) < 0 || r.n_counts != d.n_counts ||
        r.n_lines != d.n_lines)
      abort();
    for (uint32_t i = 0; i < d.n_counts; i++)
      if (r.counts[i].offset != d.counts[i].offset || r.counts[i].count != d.counts[i].count)
        abort();
    xprof_dcpi_free(&r);
    free(buf);
  }
  /* A file's offsets need not fit its tsize line: validation may refuse
   * the image, but must not crash on it. */
  xprof_profile *p = xprof_profile_new();
  xprof_image *img;
  if (p && xprof_dcpi_to_image(&d, p, &img) == 0)
    (void)xprof_validate(p, "fuzz", &err);
  xprof_profile_free(p);
  xprof_dcpi_free(&d);
}

/* Function instances: a tree in order, ranges in bounds, and an inline
 * stack at each range's start that begins with a subprogram and follows
 * parents. */
static void dwarf_info(const uint8_t *data, size_t size) {
  xprof_dwarf_info *d;
  xprof_error err;
  if (xprof_dwarf_info_parse("fuzz", data, size, &d, &err) < 0)
    return;
  for (uint32_t i = 0; i < d->n_scopes; i++) {
    const xprof_dwarf_scope *s = &d->scopes[i];
    if ((s->parent != UINT32_MAX && s->parent >= i) || s->end <= i || s->end > d->n_scopes ||
        s->first_range + s->n_ranges > d->n_ranges || !s->n_ranges)
      abort();
    uint32_t stack[16];
    uint32_t n = xprof_dwarf_inline_stack(d, d->ranges[s->first_range].lo, stack, 16);
    for (uint32_t k = 0; k < n; k++)
      if (stack[k] >= d->n_scopes || (k == 0) != (d->scopes[stack[k]].parent == UINT32_MAX) ||
          (k && d->scopes[stack[k]].parent != stack[k - 1]))
        abort();
  }
  xprof_dwarf_info_free(d);
}

/* Compressed sections: inflated, the file reads as if it had none (its
 * sections in bounds), then as a file of the readers below. */
static void inflated(const uint8_t *data, size_t size) {
  unsigned char *buf = malloc(size ? size : 1);
  size_t len = size;
  xprof_error err;
  if (!buf)
    return;
  memcpy(buf, data, size);
  if (xprof_elf_inflate("fuzz", &buf, &len, &err) == 0 &&
      (len != size || memcmp(buf, data, size) != 0)) {
    unsigned char *again = buf;
    size_t n = len;
    buf = malloc(len);
    memcpy(buf, again, len);
    if (xprof_elf_inflate("again", &buf, &len, &err) < 0 || len != n || memcmp(buf, again, n))
      abort(); /* nothing left to inflate */
    uint64_t off, sz;
    if (xprof_elf_section(buf, len, ".debug_info", &off, &sz) == 0 && off + sz > len)
      abort();
    free(again);
    dwarf_info(buf, len);
  }
  free(buf);
}

static void elf(const uint8_t *data, size_t size) {
  xprof_elf *e;
  xprof_error err;
  inflated(data, size);
  if (xprof_elf_parse("fuzz", data, size, &e, &err) < 0)
    return;
  for (uint32_t i = 0; i < e->n_funcs; i++) {
    const xprof_elf_func *f = xprof_elf_func_at(e, e->funcs[i].addr);
    if (!f || f->addr != e->funcs[i].addr || !xprof_elf_func_named(e, e->funcs[i].name))
      abort();
  }
  xprof_elf_free(e);
  xprof_line_table *t;
  if (xprof_line_table_parse("fuzz", data, size, &t, &err) == 0) {
    for (uint32_t i = 0; i < t->n_rows; i++) {
      uint64_t addr;
      if (t->rows[i].file >= t->n_files)
        abort();
      if (xprof_line_address(t, t->rows[i].addr, t->rows[i].addr + 1, t->files[t->rows[i].file],
                             t->rows[i].line, &addr) == 0 &&
          addr != t->rows[i].addr)
        abort();
    }
    /* Each unit's files, in section order, are the table's. */
    for (uint32_t u = 0; u < t->n_units; u++) {
      const xprof_line_unit *un = &t->units[u];
      if (un->first + un->n > t->n_unit_files || (u && un->off <= t->units[u - 1].off) ||
          xprof_line_unit_file(t, un->off, un->n) != NULL)
        abort();
      for (uint32_t k = 0; k < un->n; k++)
        if (t->unit_files[un->first + k] >= t->n_files ||
            xprof_line_unit_file(t, un->off, k) != t->files[t->unit_files[un->first + k]])
          abort();
    }
    xprof_line_table_free(t);
  }
  dwarf_info(data, size);
}

static char *llvm_text(const xprof_lineprof *lp, size_t *len) {
  char *out = NULL;
  FILE *f = open_memstream(&out, len);
  if (!f || xprof_lineprof_write_llvm(f, lp) < 0)
    abort();
  fclose(f);
  return out;
}

/* Sample text: what is read is written as it reads back (once its
 * repeats are merged), GCC's data can be made of it, and each function's
 * callees are sorted, each on a line of its instance. */
static void sample_text(const uint8_t *data, size_t size) {
  xprof_lineprof *lp, *again;
  xprof_error err;
  if (xprof_lineprof_read_llvm("fuzz", (const char *)data, size, &lp, &err) < 0)
    return;
  size_t len, len2;
  char *text = llvm_text(lp, &len);
  if (xprof_lineprof_read_llvm("again", text, len, &again, &err) < 0)
    abort();
  char *text2 = llvm_text(again, &len2);
  if (len2 != len || memcmp(text, text2, len) != 0)
    abort();
  for (uint32_t i = 0; i < lp->n_funcs; i++) {
    const xprof_lp_func *f = &lp->funcs[i];
    for (uint32_t k = 1; k < f->n_targets; k++)
      if (f->targets[k - 1].offset > f->targets[k].offset)
        abort();
  }
  FILE *null = fopen("/dev/null", "w");
  if (null) {
    if (xprof_lineprof_write_gcc(null, lp) < 0)
      abort();
    fclose(null);
  }
  if (xprof_lineprof_fold_inlined(lp, 1) < 0)
    abort();
  free(text);
  free(text2);
  xprof_lineprof_free(again);
  xprof_lineprof_free(lp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size)
    return 0;
  if (data[0] == 0xff) {
    sample_text(data + 1, size - 1);
    return 0;
  }
  switch (data[0] % 3) {
  case 0:
    gmon(data + 1, size - 1);
    break;
  case 1:
    dcpi(data + 1, size - 1);
    break;
  default:
    elf(data + 1, size - 1);
  }
  return 0;
}
