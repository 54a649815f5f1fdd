/*
 * sample_formats.c - a line profile in the compilers' own sample-profile
 * formats, so that a build without xprof's plugin can use it and so that
 * xprof's use path can be compared with the compilers' sample-based PGO
 * on the same data.
 *
 * clang (-fprofile-sample-use) reads a text format (SampleProfReader.h):
 *
 *   NAME:TOTAL:HEAD
 *    OFFSET[.DISCRIMINATOR]: COUNT [CALLEE:COUNT ...]
 *    OFFSET[.DISCRIMINATOR]: CALLEE:TOTAL   (inlined; its lines one further in)
 *
 * the callees after a line's count those of its indirect calls.  The
 * values that other value-profile sites on the line measured follow it,
 * as far in, in comment lines of xprof's (clang's reader passes over a
 * line whose first character after the spaces is '#'):
 *
 *    #xprof-values OFFSET[.DISCRIMINATOR] divisor|length|quotient VALUE:COUNT ...
 *
 * and so do its counts by source column, where it has them and some
 * column's count is not the line's:
 *
 *    #xprof-columns OFFSET COLUMN:COUNT ...
 *
 * and, from exact counts, where the code of several blocks is on the line
 * (or on a column written), how many and the count of the least busy:
 *
 *    #xprof-blocks OFFSET N:LEAST [COLUMN:N:LEAST ...]
 *
 * and, from exact counts, which block of the training's each line's count
 * is (numbered from 1 in each function), and its columns' where another,
 * where another place ran in that block too:
 *
 *    #xprof-busiest OFFSET BLOCK [COLUMN:BLOCK ...]
 *
 * and, first after a function's head (top-level or inlined), the line of
 * its name and its source file, where they are known, so that static
 * functions of one name in different files stay apart (the formats name
 * functions only):
 *
 *    #xprof-source DECL_LINE [PATH]
 *
 * and, after it, for a top-level function of exact counts, the hash of
 * that source as the collect build compiled it (xprof_lp_func's
 * source_hash):
 *
 *    #xprof-file-hash 0xHEX
 *
 * GCC (-fauto-profile) reads AutoFDO data in the gcov container, whose
 * layout GCC 12 fixes (auto-profile.cc, gcov-io.h): little-endian 32-bit
 * words, a 64-bit value as its low word then its high word, strings as a
 * length in bytes (NUL included), the bytes and the NUL, unpadded:
 *
 *   "gcda" magic, version 2, 0
 *   0xaa000000 length n  then n names            (the string table)
 *   0xac000000 length n  then n functions:       (the function section)
 *       u64 head, then an instance:
 *       u32 name index, u32 positions, u32 inlined call sites,
 *       per position: u32 (offset << 16 | discriminator), u32 targets,
 *       u64 count, and per target u32 7 (the indirect-call histogram,
 *       the only kind there is), u64 name index, u64 count;
 *       per call site: u32 (offset << 16 | discriminator), then the
 *       callee's instance (no head)
 *   0xae000000 length 0                          (the module section: none)
 *
 * The lengths are not checked by GCC 12's reader; they are written as
 * the section's bytes after the length word.  The first name is empty and
 * named by no function: GCC 12 asserts that an index it looks a name up
 * by is above 0 (string_table::get_name), and stops with an internal
 * compiler error on a function whose name is the first.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "text.h"
#include "xprof.h"

#define AFDO_MAGIC 0x67636461u /* "gcda" read as a word */
#define AFDO_VERSION 2u
#define AFDO_TAG_NAMES 0xaa000000u
#define AFDO_TAG_FUNCTIONS 0xac000000u
#define AFDO_TAG_MODULES 0xae000000u
/* The kind of a position's target histogram: the indirect calls'
 * (HIST_TYPE_INDIR_CALL_TOPN of the GCC that AutoFDO's format comes
 * from; GCC 12 reads past it, LLVM's reader of the format and AutoFDO's
 * tools refuse any other). */
#define AFDO_HIST_INDIR_CALL 7u

/* A function the formats can carry: one that ran. */
static int exported(const xprof_lp_func *f) { return f->total > 0; }

/* clang keeps 16 bits of a line offset (GCC: the word's high half):
 * further ones would land on the wrong line. */
static int fits(uint64_t offset) { return offset <= 0xffff; }

/* The first of f's targets at line l (from *k on; both sorted; NULL:
 * none), and in *end the one after them: the callees first (kind
 * XPROF_SITE_CALL sorts first), then the values (n_callees). */
static const xprof_lp_target *targets_of(const xprof_lp_func *f, const xprof_lp_line *l,
                                         uint32_t *k, uint32_t *end) {
  while (*k < f->n_targets && (f->targets[*k].offset < l->offset ||
                               (f->targets[*k].offset == l->offset &&
                                f->targets[*k].discr < l->discr)))
    (*k)++;
  for (*end = *k; *end < f->n_targets && f->targets[*end].offset == l->offset &&
                  f->targets[*end].discr == l->discr;)
    (*end)++;
  return *end > *k ? &f->targets[*k] : NULL;
}

/* How many of the n targets x are callees. */
static uint32_t n_callees(const xprof_lp_target *x, uint32_t n) {
  uint32_t i = 0;
  while (i < n && x[i].kind == XPROF_SITE_CALL)
    i++;
  return i;
}

/* The word for each kind of value in xprof's comment lines. */
static const char *const kind_word[XPROF_SITE_KINDS] = {"callee", "divisor", "length", "quotient"};

/* The values x[0..n) of line l (sorted by kind) as xprof's comment
 * lines, one per kind, `depth` spaces in (clang and llvm-profdata pass
 * them over):
 *   #xprof-values OFFSET[.DISCR] KIND VALUE:COUNT ... */
static void llvm_values(FILE *out, const xprof_lp_line *l, const xprof_lp_target *x, uint32_t n,
                        int depth) {
  for (uint32_t i = 0; i < n; i++) {
    if (i == 0 || x[i].kind != x[i - 1].kind) {
      fprintf(out, "%*s" XPROF_LP_VALUES " %u", depth, "", l->offset);
      if (l->discr)
        fprintf(out, ".%u", l->discr);
      fprintf(out, " %s", kind_word[x[i].kind < XPROF_SITE_KINDS ? x[i].kind : 0]);
    }
    fprintf(out, " %" PRIu64 ":%" PRIu64, x[i].value, x[i].count);
    if (i + 1 == n || x[i + 1].kind != x[i].kind)
      fputc('\n', out);
  }
}

/* The columns of f at line l (from *k on, both sorted) as xprof's
 * comment line, `depth` spaces in, unless every one has the line's count
 * (a line without columns means that):
 *   #xprof-columns OFFSET COLUMN:COUNT ...
 * Returns the number written, those from *k on entry. */
static uint32_t llvm_columns(FILE *out, const xprof_lp_func *f, const xprof_lp_line *l,
                             uint32_t *k, int depth) {
  while (*k < f->n_columns && f->columns[*k].offset < l->offset)
    (*k)++;
  if (l->discr || *k == f->n_columns || f->columns[*k].offset != l->offset)
    return 0;
  uint32_t end = *k;
  int informative = 0; /* a column whose count is not its line's */
  for (; end < f->n_columns && f->columns[end].offset == l->offset; end++)
    informative |= f->columns[end].count != l->count;
  if (!informative) { /* what a reader takes for a line without columns */
    *k = end;
    return 0;
  }
  fprintf(out, "%*s" XPROF_LP_COLUMNS " %u", depth, "", l->offset);
  for (uint32_t i = *k; i < end; i++)
    fprintf(out, " %u:%" PRIu64, f->columns[i].discr, f->columns[i].count);
  fputc('\n', out);
  uint32_t n = end - *k;
  *k = end;
  return n;
}

/* The blocks of line l and of its n columns written, c[0..n), as
 * xprof's comment line, `depth` spaces in, where the line is the code of
 * several blocks (and those of the columns that are):
 *   #xprof-blocks OFFSET N:LEAST [COLUMN:N:LEAST ...] */
static void llvm_blocks(FILE *out, const xprof_lp_line *l, const xprof_lp_line *c, uint32_t n,
                       int depth) {
  if (l->discr || l->blocks < 2)
    return;
  fprintf(out, "%*s" XPROF_LP_BLOCKS " %u %u:%" PRIu64, depth, "", l->offset, l->blocks,
          l->least);
  for (uint32_t i = 0; i < n; i++)
    if (c[i].blocks > 1)
      fprintf(out, " %u:%u:%" PRIu64, c[i].discr, c[i].blocks, c[i].least);
  fputc('\n', out);
}

/* The training blocks that more than one source place ran in, sorted,
 * each once: only their places' blocks are written.  A place alone in its
 * block shares it with none, as a reader takes a place without one.  The
 * places are those a reader sees (so that a profile read and written
 * again is the same text): each column of a line whose columns are
 * written, else the line, where its block is known.  NULL (n 0) when out
 * of memory: every block is written. */
typedef struct block_set {
  uint32_t *v;
  uint32_t n;
} block_set;

static int u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* f's columns from the i-th on (NULL when f has none: no pointer
 * arithmetic on a null pointer). */
static const xprof_lp_line *columns_from(const xprof_lp_func *f, uint32_t i) {
  return f->columns ? f->columns + i : NULL;
}

/* The columns of line l of f: from *col on (advanced past them) to *end,
 * *first the first; *informative: written, as llvm_columns decides. */
static void line_columns(const xprof_lp_func *f, const xprof_lp_line *l, uint32_t *col,
                         uint32_t *first, int *informative) {
  while (*col < f->n_columns && f->columns[*col].offset < l->offset)
    (*col)++;
  *first = *col;
  *informative = 0;
  for (; *col < f->n_columns && f->columns[*col].offset == l->offset; (*col)++)
    *informative |= f->columns[*col].count != l->count;
}

/* Append to v (room enough) the block of each place of f and of its
 * inlined instances, as block_set counts them. */
static void place_blocks(const xprof_lp_func *f, uint32_t *v, size_t *n) {
  uint32_t col = 0, first;
  int informative;
  for (uint32_t k = 0; k < f->n_lines; k++) {
    const xprof_lp_line *l = &f->lines[k];
    line_columns(f, l, &col, &first, &informative);
    if (l->discr || !fits(l->offset))
      continue;
    int differs = 0;
    for (uint32_t i = first; i < col; i++)
      differs |= f->columns[i].block != l->block;
    if (l->block && !informative && !differs)
      v[(*n)++] = l->block;
    for (uint32_t i = first; informative && i < col; i++)
      if (f->columns[i].block)
        v[(*n)++] = f->columns[i].block;
  }
  for (uint32_t k = 0; k < f->n_calls; k++)
    if (fits(f->calls[k].offset) && exported(f->calls[k].callee))
      place_blocks(f->calls[k].callee, v, n);
}

static size_t n_places(const xprof_lp_func *f) {
  size_t n = (size_t)f->n_lines + f->n_columns;
  for (uint32_t k = 0; k < f->n_calls; k++)
    n += n_places(f->calls[k].callee);
  return n;
}

static block_set shared_blocks(const xprof_lineprof *lp) {
  block_set s = {NULL, 0};
  size_t cap = 1, n = 0;
  for (uint32_t i = 0; i < lp->n_funcs; i++)
    cap += n_places(&lp->funcs[i]);
  uint32_t *v = xprof_malloc(cap * sizeof *v);
  if (!v)
    return s;
  for (uint32_t i = 0; i < lp->n_funcs; i++)
    if (exported(&lp->funcs[i]))
      place_blocks(&lp->funcs[i], v, &n);
  if (n > 1)
    qsort(v, n, sizeof *v, u32_cmp);
  for (size_t i = 0; i + 1 < n; i++)
    if (v[i] == v[i + 1] && (s.n == 0 || v[s.n - 1] != v[i]))
      v[s.n++] = v[i];
  s.v = v;
  return s;
}

static int shared(const block_set *s, uint32_t block) {
  return block && (!s->v || bsearch(&block, s->v, s->n, sizeof block, u32_cmp) != NULL);
}

/* Is line l's training block written, with its n columns c[0..n)
 * (`written`: as llvm_columns wrote them)?  Where some place shares it or
 * a column's (s).  Where no columns were written (all had the line's
 * count), a reader gives each column the line's block: unless they all
 * have it, none is written (not known). */
static int busiest_written(const xprof_lp_line *l, const xprof_lp_line *c, uint32_t n,
                           int written, const block_set *s) {
  int differs = 0, any = shared(s, l->block);
  for (uint32_t i = 0; i < n; i++) {
    differs |= c[i].block != l->block;
    any |= shared(s, c[i].block);
  }
  return !l->discr && l->block && any && (written || !differs);
}

/* The least block written in f and its inlined instances, below *least
 * (UINT32_MAX: none yet): a function's blocks are written from it on,
 * numbered from 1, short numbers that a reader places after those of the
 * functions before. */
static void least_written(const xprof_lp_func *f, const block_set *s, uint32_t *least) {
  uint32_t col = 0, first;
  int informative;
  for (uint32_t k = 0; k < f->n_lines; k++) {
    const xprof_lp_line *l = &f->lines[k];
    line_columns(f, l, &col, &first, &informative);
    if (!fits(l->offset) || !busiest_written(l, columns_from(f, first), col - first, informative, s))
      continue;
    *least = l->block < *least ? l->block : *least;
    for (uint32_t i = first; i < col; i++)
      if (f->columns[i].block && f->columns[i].block < *least)
        *least = f->columns[i].block;
  }
  for (uint32_t k = 0; k < f->n_calls; k++)
    if (fits(f->calls[k].offset) && exported(f->calls[k].callee))
      least_written(f->calls[k].callee, s, least);
}

/* The training blocks of line l and of its n columns c[0..n) as xprof's
 * comment line, `depth` spaces in, where busiest_written says, numbered
 * from `least`:
 *   #xprof-busiest OFFSET BLOCK [COLUMN:BLOCK ...]
 * with the columns written whose block is not the line's. */
static void llvm_busiest(FILE *out, const xprof_lp_line *l, const xprof_lp_line *c, uint32_t n,
                         int written, int depth, const block_set *s, uint32_t least) {
  if (!busiest_written(l, c, n, written, s))
    return;
  fprintf(out, "%*s" XPROF_LP_BUSIEST " %u %u", depth, "", l->offset, l->block - least + 1);
  for (uint32_t i = 0; i < n; i++)
    if (c[i].block != l->block && c[i].block)
      fprintf(out, " %u:%u", c[i].discr, c[i].block - least + 1);
  fputc('\n', out);
}

/* f's declaration, where known, `depth` spaces in: "#xprof-source
 * DECL_LINE [PATH]", the path to the end of the line as it is (a reader
 * keeps its spaces), but for a line break in it, written '?'; then its
 * source's hash, where known. */
static void llvm_source(FILE *out, const xprof_lp_func *f, int depth) {
  if (!f->decl_line && !f->file)
    return;
  fprintf(out, "%*s" XPROF_LP_SOURCE " %u", depth, "", f->decl_line);
  if (f->file && *f->file) {
    fputc(' ', out);
    for (const char *c = f->file; *c; c++)
      fputc(*c == '\n' || *c == '\r' ? '?' : *c, out);
  }
  fputc('\n', out);
  if (f->source_hash)
    fprintf(out, "%*s" XPROF_LP_SOURCE_HASH " 0x%" PRIx64 "\n", depth, "", f->source_hash);
}

/* f's lines and calls, `depth` spaces in. */
static void llvm_body(FILE *out, const xprof_lp_func *f, int depth, const block_set *s,
                      uint32_t least) {
  uint32_t t = 0, t_end, col = 0;
  for (uint32_t k = 0; k < f->n_lines; k++) {
    const xprof_lp_line *l = &f->lines[k];
    if (!fits(l->offset))
      continue;
    fprintf(out, "%*s%u", depth, "", l->offset);
    if (l->discr)
      fprintf(out, ".%u", l->discr);
    fprintf(out, ": %" PRIu64, l->count);
    const xprof_lp_target *x = targets_of(f, l, &t, &t_end);
    uint32_t calls = n_callees(x, t_end - t);
    for (uint32_t i = 0; i < calls; i++)
      fprintf(out, " %s:%" PRIu64, x[i].name, x[i].count);
    fputc('\n', out);
    if (x)
      llvm_values(out, l, x + calls, t_end - t - calls, depth);
    uint32_t first = col;
    while (first < f->n_columns && f->columns[first].offset < l->offset)
      first++;
    uint32_t n_columns = llvm_columns(out, f, l, &col, depth);
    llvm_blocks(out, l, n_columns ? f->columns + col - n_columns : NULL, n_columns, depth);
    llvm_busiest(out, l, columns_from(f, first), col > first ? col - first : 0, n_columns != 0,
                 depth, s, least);
  }
  for (uint32_t k = 0; k < f->n_calls; k++) {
    const xprof_lp_call *c = &f->calls[k];
    if (!fits(c->offset) || !exported(c->callee))
      continue;
    fprintf(out, "%*s%u", depth, "", c->offset);
    if (c->discr)
      fprintf(out, ".%u", c->discr);
    fprintf(out, ": %s:%" PRIu64 "\n", c->callee->name, c->callee->total);
    llvm_source(out, c->callee, depth + 1);
    llvm_body(out, c->callee, depth + 1, s, least);
  }
}

int xprof_lineprof_write_llvm(FILE *out, const xprof_lineprof *lp) {
  static const char *const by[] = {"", " from gcc", " from llvm", " from gcc and llvm"};
  if (!lp->from_samples)
    fprintf(out, XPROF_LP_EXACT_MARK "%s\n", by[lp->made_by & 3]);
  block_set s = shared_blocks(lp);
  for (uint32_t i = 0; i < lp->n_funcs; i++) {
    const xprof_lp_func *f = &lp->funcs[i];
    if (!exported(f))
      continue;
    fprintf(out, "%s:%" PRIu64 ":%" PRIu64 "\n", f->name, f->total, f->head);
    llvm_source(out, f, 1);
    uint32_t least = UINT32_MAX;
    least_written(f, &s, &least);
    llvm_body(out, f, 1, &s, least);
  }
  xprof_free(s.v);
  return ferror(out) ? -1 : 0;
}

/* ---- reading clang's text ---------------------------------------------------- */

/* The decimal number at p (digits only: no sign, no space; the text is
 * not NUL-terminated, so the C library's strtoull could read past end):
 * 0 with *v and *after set, -1 when there is none or it overflows. */
static int decimal(const char *p, const char *end, uint64_t *v, const char **after) {
  uint64_t n = 0;
  const char *q = p;
  for (; q < end && *q >= '0' && *q <= '9'; q++) {
    unsigned d = (unsigned)(*q - '0');
    if (n > (UINT64_MAX - d) / 10)
      return -1;
    n = n * 10 + d;
  }
  if (q == p)
    return -1;
  *v = n;
  *after = q;
  return 0;
}

/* The line offset at p (as "OFFSET" in every line of a body), *after
 * past it: 0, -1 when it is not a number, -3 when it is beyond what
 * clang's format carries (clang's reader refuses such a file too). */
static int line_offset(const char *p, const char *end, uint32_t *offset, const char **after) {
  uint64_t v;
  if (decimal(p, end, &v, after) < 0)
    return -1;
  if (!fits(v))
    return -3;
  *offset = (uint32_t)v;
  return 0;
}

/* The offset that opens an xprof comment line's fields, at p (past the
 * tag, a space first): as line_offset. */
static int tag_offset(const char *p, const char *end, uint32_t *offset, const char **after) {
  if (p >= end || *p != ' ')
    return -1;
  return line_offset(p + 1, end, offset, after);
}

/* The fields of a body line: "OFFSET[.DISCR]: COUNT [TARGET:COUNT...]"
 * (*targets set to the first target, NULL: none) or "OFFSET[.DISCR]:
 * CALLEE:TOTAL" (an inlined call site; *callee set, *callee_len its
 * length).  0, -1 when it is neither, -3 when its offset is too far. */
static int body_line(const char *p, const char *end, uint32_t *offset, uint32_t *discr,
                     uint64_t *count, const char **callee, size_t *callee_len,
                     const char **targets) {
  const char *q;
  uint64_t v;
  int rc = line_offset(p, end, offset, &q);
  if (rc < 0)
    return rc;
  *discr = 0;
  if (q < end && *q == '.') {
    if (decimal(q + 1, end, &v, &q) < 0 || v > 0xffffffffu)
      return -1;
    *discr = (uint32_t)v;
  }
  if (end - q < 2 || q[0] != ':' || q[1] != ' ')
    return -1;
  p = q + 2;
  *callee = NULL;
  *targets = NULL;
  if (p < end && *p >= '0' && *p <= '9') {
    if (decimal(p, end, count, &q) < 0 || (q < end && *q != ' '))
      return -1;
    *targets = q < end ? q + 1 : NULL;
    return 0;
  }
  const char *colon = NULL; /* the last ':' on the line */
  for (const char *c = p; c < end; c++)
    if (*c == ':')
      colon = c;
  if (!colon || colon == p)
    return -1;
  *callee = p;
  *callee_len = (size_t)(colon - p);
  return decimal(colon + 1, end, count, &q) < 0 || q != end ? -1 : 0;
}

/* The "NAME:COUNT" targets from p to end (separated by spaces; a name
 * holds no space, as clang's reader takes them) as f's at line
 * offset.discr; 0, -1 when one is malformed, -2 when out of memory. */
static int target_list(xprof_lp_func *f, uint32_t offset, uint32_t discr, const char *p,
                       const char *end) {
  while (p < end) {
    const char *sp = memchr(p, ' ', (size_t)(end - p));
    const char *e = sp ? sp : end, *colon = NULL;
    for (const char *c = p; c < e; c++)
      if (*c == ':')
        colon = c;
    const char *q;
    uint64_t count;
    if (!colon || colon == p || decimal(colon + 1, e, &count, &q) < 0 || q != e)
      return -1;
    char *name = xprof_format("%.*s", (int)(colon - p), p);
    int rc = name ? xprof_lineprof_target(f, offset, discr, name, count) : -1;
    xprof_free(name);
    if (rc < 0)
      return -2;
    p = sp ? sp + 1 : end;
  }
  return 0;
}

/* An xprof comment line "#xprof-values OFFSET[.DISCR] KIND VALUE:COUNT
 * ..." from p (past the tag) to end, as f's values; 0, -1 when
 * malformed, -2 when out of memory, -3 when the offset is too far. */
static int value_list(xprof_lp_func *f, const char *p, const char *end) {
  uint64_t discr = 0, value, count;
  uint32_t offset;
  const char *q;
  int rc = tag_offset(p, end, &offset, &q);
  if (rc < 0)
    return rc;
  if (q < end && *q == '.' && (decimal(q + 1, end, &discr, &q) < 0 || discr > 0xffffffffu))
    return -1;
  if (q >= end || *q++ != ' ')
    return -1;
  uint32_t kind = 1;
  while (kind < XPROF_SITE_KINDS && !(end - q >= (ptrdiff_t)strlen(kind_word[kind]) &&
                                      memcmp(q, kind_word[kind], strlen(kind_word[kind])) == 0))
    kind++;
  if (kind == XPROF_SITE_KINDS)
    return -1;
  q += strlen(kind_word[kind]);
  if (q == end)
    return -1;
  while (q < end) {
    if (*q != ' ' || decimal(q + 1, end, &value, &q) < 0 || q >= end || *q != ':' ||
        decimal(q + 1, end, &count, &q) < 0)
      return -1;
    if (xprof_lineprof_value(f, offset, (uint32_t)discr, kind, value, count) < 0)
      return -2;
  }
  return 0;
}

/* An xprof comment line "#xprof-columns OFFSET COLUMN:COUNT ..." from p
 * (past the tag) to end, as f's columns; 0, -1 when malformed, -2 when
 * out of memory, -3 when the offset is too far. */
static int column_list(xprof_lp_func *f, const char *p, const char *end) {
  uint64_t column, count;
  uint32_t offset;
  const char *q;
  int rc = tag_offset(p, end, &offset, &q);
  if (rc < 0 || q == end)
    return rc < 0 ? rc : -1;
  while (q < end) {
    if (*q != ' ' || decimal(q + 1, end, &column, &q) < 0 || !column || column > 0xffffffffu ||
        q >= end || *q != ':' || decimal(q + 1, end, &count, &q) < 0)
      return -1;
    if (xprof_lineprof_column(f, offset, (uint32_t)column, count) < 0)
      return -2;
  }
  return 0;
}

/* The entry of v[0..n) (lines or columns of one function as read so
 * far) at offset.discr given last; NULL when there is none. */
static xprof_lp_line *given(xprof_lp_line *v, uint32_t n, uint64_t offset, uint64_t discr) {
  while (n-- > 0)
    if (v[n].offset == offset && v[n].discr == discr)
      return &v[n];
  return NULL;
}

/* "N:LEAST" from q to end (N at least 2, LEAST at most l's count) as
 * l's blocks and least count, *next past it; 0, or -1 when malformed. */
static int block_pair(const char *q, const char *end, xprof_lp_line *l, const char **next) {
  uint64_t n, least;
  if (!l || decimal(q, end, &n, &q) < 0 || n < 2 || n > 0xffffffffu || q >= end || *q != ':' ||
      decimal(q + 1, end, &least, &q) < 0 || least > l->count)
    return -1;
  l->blocks = (uint32_t)n;
  l->least = least;
  *next = q;
  return 0;
}

/* An xprof comment line "#xprof-blocks OFFSET N:LEAST
 * [COLUMN:N:LEAST ...]" from p (past the tag) to end: f's line and
 * columns given before it are the code of N blocks, the least busy run
 * LEAST times; 0, -1 when malformed (a line or column not given, a
 * least above its count, fewer than 2 blocks), -3 when the offset is too
 * far. */
static int block_list(xprof_lp_func *f, const char *p, const char *end) {
  uint64_t column;
  uint32_t offset;
  const char *q;
  int rc = tag_offset(p, end, &offset, &q);
  if (rc < 0)
    return rc;
  if (q == end || *q != ' ' || block_pair(q + 1, end, given(f->lines, f->n_lines, offset, 0), &q) < 0)
    return -1;
  while (q < end)
    if (*q != ' ' || decimal(q + 1, end, &column, &q) < 0 || q >= end || *q != ':' ||
        block_pair(q + 1, end, given(f->columns, f->n_columns, offset, column), &q) < 0)
      return -1;
  return 0;
}

/* A block number of "#xprof-busiest" at q: numbered from 1 within its
 * top-level function, placed after `base`, the blocks of the functions
 * before (so that two copies of a function do not share numbers); *top:
 * the highest so far.  0, -1 when there is none, it is 0 or too far. */
static int block_number(const char *q, const char *end, uint32_t base, uint32_t *top,
                        uint32_t *block, const char **after) {
  uint64_t b;
  if (decimal(q, end, &b, after) < 0 || !b || b > 0xffffffffu - (uint64_t)base)
    return -1;
  *block = base + (uint32_t)b;
  *top = *block > *top ? *block : *top;
  return 0;
}

/* An xprof comment line "#xprof-busiest OFFSET BLOCK [COLUMN:BLOCK ...]"
 * from p (past the tag) to end: the training block of f's line given
 * before it, and of its columns given before it (block_number); a column
 * not listed has the line's.  0, -1 when malformed (no such line or
 * column, a block 0), -3 when the offset is too far. */
static int busiest_list(xprof_lp_func *f, const char *p, const char *end, uint32_t base,
                        uint32_t *top) {
  uint64_t column;
  uint32_t offset, block;
  const char *q;
  int rc = tag_offset(p, end, &offset, &q);
  if (rc < 0)
    return rc;
  xprof_lp_line *l = given(f->lines, f->n_lines, offset, 0);
  if (!l || q == end || *q != ' ' || block_number(q + 1, end, base, top, &block, &q) < 0)
    return -1;
  l->block = block;
  while (q < end) {
    if (*q != ' ' || decimal(q + 1, end, &column, &q) < 0 || !column || column > 0xffffffffu ||
        q >= end || *q != ':' || block_number(q + 1, end, base, top, &block, &q) < 0)
      return -1;
    xprof_lp_line *c = given(f->columns, f->n_columns, offset, column);
    if (!c)
      return -1;
    c->block = block;
  }
  for (uint32_t i = 0; i < f->n_columns; i++)
    if (f->columns[i].offset == offset && !f->columns[i].block)
      f->columns[i].block = l->block;
  return 0;
}

/* In an exact profile, once read (f's lines and columns sorted): a line
 * that ran as one block (no #xprof-blocks) without a #xprof-busiest ran
 * in a block that no other place ran in, as the writer lists every
 * block that two places share.  It and its columns get a number of their
 * own, so that a compiler that puts them in several blocks is seen to
 * have split one training block.  Not a line with a discriminator (never
 * listed), nor one whose columns ran other counts than it (not one
 * block, whatever the text says: numbered, writing it back would list
 * what the text did not).  The same for f's inlined instances. */
static void number_unlisted(xprof_lineprof *lp, xprof_lp_func *f) {
  for (uint32_t i = 0, c = 0; i < f->n_lines; i++) {
    xprof_lp_line *l = &f->lines[i];
    while (c < f->n_columns && f->columns[c].offset < l->offset)
      c++;
    uint32_t end = c;
    int one_block = !l->block && !l->discr && l->blocks <= 1;
    for (; end < f->n_columns && f->columns[end].offset == l->offset; end++)
      one_block &= f->columns[end].count == l->count && !f->columns[end].block;
    if (!one_block || lp->blocks_numbered == UINT32_MAX)
      continue;
    l->block = ++lp->blocks_numbered;
    for (; c < end; c++)
      f->columns[c].block = l->block;
  }
  for (uint32_t k = 0; k < f->n_calls; k++)
    number_unlisted(lp, f->calls[k].callee);
}

/* Does the line from q to end begin with xprof's comment tag `tag`? */
static int tagged(const char *q, const char *end, const char *tag) {
  size_t n = strlen(tag);
  return (size_t)(end - q) >= n && memcmp(q, tag, n) == 0;
}

/* "NAME:TOTAL:HEAD": a new function; 0 or -1. */
static int head_line(xprof_lineprof *lp, const char *p, const char *end, xprof_lp_func **f,
                     int *oom) {
  const char *c2 = NULL, *c1 = NULL;
  for (const char *c = p; c < end; c++)
    if (*c == ':') {
      c1 = c2;
      c2 = c;
    }
  if (!c1 || c1 == p || p[0] == '[')
    return -1; /* context-sensitive profiles ("[main:1 @ f]") are not read */
  const char *q;
  uint64_t head;
  if (decimal(c2 + 1, end, &head, &q) < 0 || q != end)
    return -1;
  char *name = xprof_format("%.*s", (int)(c1 - p), p);
  *f = name ? xprof_lineprof_func(lp, name, NULL, 0) : NULL;
  xprof_free(name);
  if (!*f) {
    *oom = 1;
    return -1;
  }
  (*f)->head = head;
  return 0;
}

/* " #xprof-file-hash 0xHEX" from p to end (after the tag) for
 * function f; 0, or -1 when malformed. */
static int source_hash(xprof_lp_func *f, const char *p, const char *end) {
  uint64_t h = 0;
  if (end - p < 4 || memcmp(p, " 0x", 3) != 0 || end - p > 3 + 16)
    return -1;
  for (p += 3; p < end; p++) {
    int d = xprof_hexval((unsigned char)*p);
    if (d < 0)
      return -1;
    h = h << 4 | (uint64_t)d;
  }
  f->source_hash = h;
  return 0;
}

/* " #xprof-source DECL_LINE [PATH]" from p to end (after the tag) for
 * function f, top-level or inlined; 0, -1 malformed, -2 out of memory. */
static int source_line(xprof_lp_func *f, const char *p, const char *end) {
  uint64_t line;
  const char *q;
  if (p == end || *p != ' ' || decimal(p + 1, end, &line, &q) < 0 || line > UINT32_MAX ||
      (q < end && *q != ' '))
    return -1;
  f->decl_line = (uint32_t)line;
  if (q < end && q + 1 < end) {
    char *file = xprof_format("%.*s", (int)(end - q - 1), q + 1);
    if (!file)
      return -2;
    for (char *c = file; *c; c++) /* as the writer puts it */
      if (*c == '\r')
        *c = '?';
    xprof_free(f->file);
    f->file = file;
  }
  return 0;
}

/* Does the first line, of n bytes, name compiler `word`? */
static int mark_names(const char *line, size_t n, const char *word) {
  size_t w = strlen(word);
  for (size_t i = 0; i + 1 + w <= n; i++)
    if (line[i] == ' ' && memcmp(line + i + 1, word, w) == 0 &&
        (i + 1 + w == n || line[i + 1 + w] == ' ' || line[i + 1 + w] == '\r'))
      return 1;
  return 0;
}

int xprof_lineprof_mark(const char *text, size_t len, unsigned *made_by) {
  size_t mark = strlen(XPROF_LP_EXACT_MARK);
  *made_by = 0;
  if (len < mark || memcmp(text, XPROF_LP_EXACT_MARK, mark) != 0)
    return 0;
  const char *eol = memchr(text, '\n', len);
  size_t n = eol ? (size_t)(eol - text) : len;
  *made_by = (mark_names(text + mark, n - mark, "gcc") ? XPROF_LP_BY_GCC : 0) |
             (mark_names(text + mark, n - mark, "llvm") ? XPROF_LP_BY_LLVM : 0);
  return 1;
}

/* A body line from q to end, `depth` spaces in, as the function of the
 * stack at that depth's (stack[depth] set to an inlined callee, *have
 * the depths the stack then holds); 0, -1 when malformed, -2 when out of
 * memory, -3 when its offset is too far. */
static int body_entry(xprof_lp_func **stack, uint32_t depth, const char *q, const char *end,
                      uint32_t *have) {
  uint32_t off, discr;
  uint64_t count;
  const char *callee, *targets;
  size_t n;
  int rc = body_line(q, end, &off, &discr, &count, &callee, &n, &targets);
  if (rc < 0)
    return rc;
  if (!callee) {
    if (xprof_lineprof_add(stack[depth - 1], off, discr, count) < 0)
      return -2;
    *have = depth;
    return targets ? target_list(stack[depth - 1], off, discr, targets, end) : 0;
  }
  char *cname = xprof_format("%.*s", (int)n, callee);
  xprof_lp_func *c =
      cname ? xprof_lineprof_inlined(stack[depth - 1], off, discr, cname, NULL, 0) : NULL;
  xprof_free(cname);
  if (!c)
    return -2;
  stack[depth] = c;
  *have = depth + 1;
  return 0;
}

/* The error of line `lineno` of file `name`, as rc says (-2: out of
 * memory, -3: an offset too far, else malformed). */
static int read_failure(xprof_error *err, const char *name, unsigned long lineno, int rc) {
  if (rc == -2)
    return xprof_fail_nomem(err, name);
  if (rc == -3)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s:%lu: a line offset beyond 65535, which clang's sample-profile "
                      "format cannot carry (it keeps 16 bits of it)",
                      name, lineno);
  return xprof_fail(err, XPROF_ERR_FORMAT,
                    "%s:%lu: not a line of clang's sample-profile text (NAME:TOTAL:HEAD, "
                    "then OFFSET: COUNT [CALLEE:COUNT...] or OFFSET: CALLEE:TOTAL, one "
                    "space further in per inlined call)",
                    name, lineno);
}

int xprof_lineprof_read_llvm(const char *name, const char *text, size_t len,
                             xprof_lineprof **out, xprof_error *err) {
  enum { MAX_DEPTH = 64 };
  xprof_lineprof *lp = xprof_calloc(1, sizeof *lp);
  *out = NULL;
  if (!lp)
    return xprof_fail_nomem(err, name);
  /* Samples, unless the file says it holds exact counts. */
  lp->from_samples = !xprof_lineprof_mark(text, len, &lp->made_by);
  xprof_lp_func *stack[MAX_DEPTH];
  uint32_t have = 0; /* the depths the stack holds */
  unsigned long lineno = 0;
  uint32_t block_base = 0; /* the blocks of the functions before */
  int rc = 0; /* as body_entry's */
  for (const char *p = text, *stop = text + len; p < stop && rc == 0;) {
    const char *nl = memchr(p, '\n', (size_t)(stop - p));
    const char *end = nl ? nl : stop;
    lineno++;
    uint32_t depth = 0;
    while (p + depth < end && p[depth] == ' ')
      depth++;
    const char *q = p + depth;
    const char *line_end = end > q && end[-1] == '\r' ? end - 1 : end; /* a path's */
    while (q < end && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
      end--;
    xprof_lp_func *in = depth > 0 && depth <= have ? stack[depth - 1] : NULL;
    if (end > p && memchr(p, 0, (size_t)(end - p))) {
      rc = -1; /* not text: a name would end at the NUL */
    } else if (depth > 0 && tagged(q, end, XPROF_LP_VALUES)) {
      rc = in ? value_list(in, q + strlen(XPROF_LP_VALUES), end) : -1;
    } else if (depth > 0 && tagged(q, end, XPROF_LP_COLUMNS)) {
      rc = in ? column_list(in, q + strlen(XPROF_LP_COLUMNS), end) : -1;
    } else if (depth > 0 && tagged(q, end, XPROF_LP_BLOCKS)) {
      rc = in ? block_list(in, q + strlen(XPROF_LP_BLOCKS), end) : -1;
    } else if (depth > 0 && tagged(q, end, XPROF_LP_BUSIEST)) {
      rc = in ? busiest_list(in, q + strlen(XPROF_LP_BUSIEST), end, block_base,
                             &lp->blocks_numbered)
              : -1;
    } else if (depth > 0 && tagged(q, end, XPROF_LP_SOURCE_HASH)) {
      rc = in ? source_hash(in, q + strlen(XPROF_LP_SOURCE_HASH), end) : -1;
    } else if (depth > 0 && tagged(q, end, XPROF_LP_SOURCE)) {
      rc = in ? source_line(in, q + strlen(XPROF_LP_SOURCE), line_end) : -1;
    } else if (q == end || *q == '#' || *q == '!') { /* blank, comment, metadata */
    } else if (depth == 0) {
      int oom = 0;
      rc = head_line(lp, q, end, &stack[0], &oom) < 0 ? (oom ? -2 : -1) : 0;
      block_base = lp->blocks_numbered;
      have = 1;
    } else if (depth > have || depth >= MAX_DEPTH) {
      rc = -1;
    } else {
      rc = body_entry(stack, depth, q, end, &have);
    }
    p = nl ? nl + 1 : stop;
  }
  if (rc == 0 && xprof_lineprof_finish(lp) < 0)
    rc = -2;
  for (uint32_t i = 0; rc == 0 && !lp->from_samples && i < lp->n_funcs; i++)
    number_unlisted(lp, &lp->funcs[i]);
  if (rc < 0) {
    xprof_lineprof_free(lp);
    return read_failure(err, name, lineno, rc);
  }
  *out = lp;
  return 0;
}

/* ---- GCC ------------------------------------------------------------------ */

static void put32(FILE *out, uint32_t v) {
  unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                        (unsigned char)(v >> 24)};
  fwrite(b, 1, 4, out);
}

static void put64(FILE *out, uint64_t v) {
  put32(out, (uint32_t)v);
  put32(out, (uint32_t)(v >> 32));
}

/* The names of the string table: every function's and inlined callee's,
 * sorted, once each. */
typedef struct names {
  const char **v;
  uint32_t n, cap;
  int failed;
} names;

static void collect_names(names *t, const xprof_lp_func *f) {
  if (!exported(f))
    return;
  if (xprof_grow((void **)&t->v, &t->cap, t->n, sizeof *t->v) < 0) {
    t->failed = 1;
    return;
  }
  t->v[t->n++] = f->name;
  for (uint32_t k = 0; k < f->n_targets && !t->failed; k++) {
    if (!f->targets[k].name) /* a value: GCC's format has none */
      continue;
    if (xprof_grow((void **)&t->v, &t->cap, t->n, sizeof *t->v) < 0)
      t->failed = 1;
    else
      t->v[t->n++] = f->targets[k].name;
  }
  for (uint32_t k = 0; k < f->n_calls; k++)
    collect_names(t, f->calls[k].callee);
}

static int str_cmp(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The index of a collected name: 1 and on (see above). */
static uint32_t name_index(const names *t, const char *name) {
  const char **at = bsearch(&name, t->v, t->n, sizeof *t->v, str_cmp);
  return (uint32_t)(at - t->v) + 1;
}

/* One function instance: its name, positions and inlined call sites. */
static void gcc_instance(FILE *out, const names *t, const xprof_lp_func *f) {
  uint32_t n_pos = 0, n_calls = 0;
  for (uint32_t k = 0; k < f->n_lines; k++)
    n_pos += fits(f->lines[k].offset);
  for (uint32_t k = 0; k < f->n_calls; k++)
    n_calls += fits(f->calls[k].offset) && exported(f->calls[k].callee);
  put32(out, name_index(t, f->name));
  put32(out, n_pos);
  put32(out, n_calls);
  uint32_t ti = 0, ti_end;
  for (uint32_t k = 0; k < f->n_lines; k++) {
    const xprof_lp_line *l = &f->lines[k];
    if (!fits(l->offset))
      continue;
    const xprof_lp_target *x = targets_of(f, l, &ti, &ti_end);
    uint32_t calls = n_callees(x, ti_end - ti);
    put32(out, l->offset << 16 | (l->discr & 0xffff));
    put32(out, calls);
    put64(out, l->count);
    for (uint32_t i = 0; i < calls; i++) {
      put32(out, AFDO_HIST_INDIR_CALL);
      put64(out, name_index(t, x[i].name));
      put64(out, x[i].count);
    }
  }
  for (uint32_t k = 0; k < f->n_calls; k++) {
    const xprof_lp_call *c = &f->calls[k];
    if (!fits(c->offset) || !exported(c->callee))
      continue;
    put32(out, c->offset << 16 | (c->discr & 0xffff));
    gcc_instance(out, t, c->callee);
  }
}

int xprof_lineprof_write_gcc(FILE *out, const xprof_lineprof *lp) {
  names t = {NULL, 0, 0, 0};
  uint32_t n_funcs = 0;
  for (uint32_t i = 0; i < lp->n_funcs; i++) {
    n_funcs += exported(&lp->funcs[i]);
    collect_names(&t, &lp->funcs[i]);
  }
  if (t.failed) {
    xprof_free(t.v);
    return -1;
  }
  if (t.n > 1)
    xprof_sort(t.v, t.n, sizeof *t.v, str_cmp);
  uint32_t k = 0;
  for (uint32_t i = 0; i < t.n; i++)
    if (!k || strcmp(t.v[k - 1], t.v[i]) != 0)
      t.v[k++] = t.v[i];
  t.n = k;
  uint64_t names_bytes = 4 + 5;
  for (uint32_t i = 0; i < t.n; i++)
    names_bytes += 4 + strlen(t.v[i]) + 1;
  put32(out, AFDO_MAGIC);
  put32(out, AFDO_VERSION);
  put32(out, 0);
  put32(out, AFDO_TAG_NAMES);
  put32(out, (uint32_t)names_bytes);
  put32(out, t.n + 1);
  put32(out, 1); /* the empty name at index 0 */
  fputc(0, out);
  for (uint32_t i = 0; i < t.n; i++) {
    size_t len = strlen(t.v[i]) + 1;
    put32(out, (uint32_t)len);
    fwrite(t.v[i], 1, len, out);
  }
  put32(out, AFDO_TAG_FUNCTIONS);
  long at = ftell(out);
  put32(out, 0); /* the length, filled in below where the file can seek */
  put32(out, n_funcs);
  for (uint32_t i = 0; i < lp->n_funcs; i++) {
    const xprof_lp_func *f = &lp->funcs[i];
    if (!exported(f))
      continue;
    put64(out, f->head);
    gcc_instance(out, &t, f);
  }
  long end = ftell(out);
  if (at >= 0 && end >= 0 && fseek(out, at, SEEK_SET) == 0) {
    put32(out, (uint32_t)(end - at - 4));
    fseek(out, end, SEEK_SET);
  }
  put32(out, AFDO_TAG_MODULES);
  put32(out, 4);
  put32(out, 0);
  xprof_free(t.v);
  return ferror(out) ? -1 : 0;
}
