/*
 * dwarf_line.c - the DWARF line table (.debug_line, versions 2 to 5) of an
 * ELF file: which source line each address belongs to, so that
 * xprof_gprof can give each counted line an address inside it (gprof's
 * basic-block records, which gprof -A annotates the source with).
 *
 * Every row is kept (address, file, line, column, whether a statement
 * begins there), as readers of the table see them; the column tells the
 * code of one line apart (an if and its arms, a loop's test and step),
 * which the line profile of samples keeps.  Every read is bounds-checked; a unit
 * that does not parse ends the reading of the section with an error.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "dwarf_rd.h"
#include "internal.h"
#include "xprof_views.h"

typedef struct ctx {
  xprof_line_table *t;
  const unsigned char *buf;
  uint64_t str_off, str_size, line_str_off, line_str_size; /* .debug_str, .debug_line_str */
  uint64_t section_off;                                    /* .debug_line's */
  int offset64;
  /* t->files by path: an open-addressed set of indexes + 1 (0: empty),
   * since every unit repeats the headers the units before it named. */
  uint32_t *slots;
  uint32_t n_slots;
} ctx;

static const char *str_at(const ctx *c, int line_str, uint64_t off) {
  uint64_t base = line_str ? c->line_str_off : c->str_off;
  uint64_t size = line_str ? c->line_str_size : c->str_size;
  if (off >= size)
    return NULL;
  const char *s = (const char *)c->buf + base + off;
  return memchr(s, 0, size - off) ? s : NULL;
}

/* One attribute of a version 5 entry: a string for paths, a number else. */
static int form_value(const ctx *c, rd *r, uint64_t form, const char **s, uint64_t *v) {
  *s = NULL;
  *v = 0;
  switch (form) {
  case 0x08: /* DW_FORM_string */
    *s = cstr(r);
    break;
  case 0x1f: /* DW_FORM_line_strp */
  case 0x0e: /* DW_FORM_strp */
    *s = str_at(c, form == 0x1f, un(r, c->offset64 ? 8 : 4));
    if (!*s)
      return -1;
    break;
  case 0x0f: /* DW_FORM_udata */
    *v = uleb(r);
    break;
  case 0x0b: /* data1, data2, data4, data8 */
    *v = un(r, 1);
    break;
  case 0x05:
    *v = un(r, 2);
    break;
  case 0x06:
    *v = un(r, 4);
    break;
  case 0x07:
    *v = un(r, 8);
    break;
  case 0x1e: /* DW_FORM_data16 (MD5) */
    un(r, 8);
    un(r, 8);
    break;
  case 0x09: /* DW_FORM_block */
    r->pos += uleb(r);
    if (r->pos > r->end)
      r->failed = 1;
    break;
  default:
    return -1;
  }
  return r->failed ? -1 : 0;
}

/* Directories or files of a version 5 header: for files, the path joined
 * to its directory, added to the table's files; for directories, into
 * dirs. */
static int v5_entries(const ctx *c, rd *r, char ***names, uint32_t *n_names,
                      char *const *dirs, uint32_t n_dirs) {
  uint64_t n_formats = u8(r), formats[16][2];
  if (n_formats > 16)
    return -1;
  for (uint64_t i = 0; i < n_formats; i++) {
    formats[i][0] = uleb(r);
    formats[i][1] = uleb(r);
  }
  uint64_t count = uleb(r);
  if (r->failed || count > r->end - r->pos)
    return -1;
  *names = xprof_calloc((size_t)count + 1, sizeof **names);
  if (!*names)
    return -1;
  for (uint64_t i = 0; i < count; i++) {
    const char *path = NULL;
    uint64_t dir = 0;
    for (uint64_t k = 0; k < n_formats; k++) {
      const char *s;
      uint64_t v;
      if (form_value(c, r, formats[k][1], &s, &v) < 0)
        return -1;
      if (formats[k][0] == 1) /* DW_LNCT_path */
        path = s;
      else if (formats[k][0] == 2) /* DW_LNCT_directory_index */
        dir = v;
    }
    if (!path)
      return -1;
    if (dirs && path[0] != '/' && dir < n_dirs)
      (*names)[i] = xprof_format("%s/%s", dirs[dir], path);
    else
      (*names)[i] = xprof_format("%s", path);
    if (!(*names)[i])
      return -1;
    (*n_names)++;
  }
  return 0;
}

/* Directories and files of a version 2-4 header (file 0 is unused). */
static int v4_entries(rd *r, char ***files, uint32_t *n_files) {
  char *dirs[256];
  uint32_t n_dirs = 0;
  for (const char *s; !r->failed && *(s = cstr(r));)
    if (n_dirs < 256)
      dirs[n_dirs++] = (char *)s;
  uint32_t cap = 16;
  *files = xprof_calloc(cap, sizeof **files);
  if (!*files)
    return -1;
  (*files)[(*n_files)++] = xprof_format("%s", "?"); /* 1-based */
  for (const char *s; !r->failed && *(s = cstr(r));) {
    uint64_t dir = uleb(r);
    uleb(r);
    uleb(r);
    if (*n_files == cap) {
      char **more = xprof_realloc(*files, 2 * cap * sizeof **files);
      if (!more)
        return -1;
      *files = more;
      cap *= 2;
    }
    char *path = s[0] != '/' && dir && dir <= n_dirs ? xprof_format("%s/%s", dirs[dir - 1], s)
                                                    : xprof_format("%s", s);
    if (!path)
      return -1;
    (*files)[(*n_files)++] = path;
  }
  return r->failed ? -1 : 0;
}

static int add_row(xprof_line_table *t, uint64_t addr, uint32_t file, uint64_t line,
                   uint64_t column, int stmt) {
  if (xprof_grow((void **)&t->rows, &t->cap_rows, t->n_rows, sizeof *t->rows) < 0)
    return -1;
  t->rows[t->n_rows] = (xprof_line_row){addr, file, (uint32_t)line,
                                        column <= UINT32_MAX ? (uint32_t)column : 0, t->n_rows,
                                        stmt};
  t->n_rows++;
  return 0;
}

static uint32_t path_slot(const ctx *c, const char *path) {
  uint32_t mask = c->n_slots - 1, i = (uint32_t)xprof_hash64(path, strlen(path)) & mask;
  while (c->slots[i] && strcmp(c->t->files[c->slots[i] - 1], path) != 0)
    i = (i + 1) & mask;
  return i;
}

/* Room in the set for one more path (kept at most half full); 0 or -1. */
static int reserve_slot(ctx *c) {
  if (2 * (c->t->n_files + 1) <= c->n_slots)
    return 0;
  uint32_t n = c->n_slots ? 2 * c->n_slots : 64;
  uint32_t *old = c->slots, n_old = c->n_slots;
  c->slots = xprof_calloc(n, sizeof *c->slots);
  if (!c->slots) {
    c->slots = old;
    return -1;
  }
  c->n_slots = n;
  for (uint32_t i = 0; i < n_old; i++)
    if (old[i])
      c->slots[path_slot(c, c->t->files[old[i] - 1])] = old[i];
  xprof_free(old);
  return 0;
}

/* The table's index of a path (added on first sight), or UINT32_MAX when
 * out of memory. */
static uint32_t global_file(ctx *c, const char *path) {
  xprof_line_table *t = c->t;
  if (reserve_slot(c) < 0)
    return UINT32_MAX;
  uint32_t slot = path_slot(c, path);
  if (c->slots[slot])
    return c->slots[slot] - 1;
  if (xprof_grow((void **)&t->files, &t->cap_files, t->n_files, sizeof *t->files) < 0 ||
      !(t->files[t->n_files] = xprof_format("%s", path)))
    return UINT32_MAX;
  c->slots[slot] = ++t->n_files;
  return t->n_files - 1;
}

/* The unit at `off` of .debug_line, its files (by its own numbers, which
 * its rows and DW_AT_decl_file use) as the table's; the first index of
 * them in t->unit_files, or UINT32_MAX when out of memory. */
static uint32_t add_unit(ctx *c, uint64_t off, char *const *files, uint32_t n) {
  xprof_line_table *t = c->t;
  if (xprof_grow((void **)&t->units, &t->cap_units, t->n_units, sizeof *t->units) < 0)
    return UINT32_MAX;
  uint32_t first = t->n_unit_files;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t g = global_file(c, files[k]);
    if (g == UINT32_MAX || xprof_grow((void **)&t->unit_files, &t->cap_unit_files,
                                      t->n_unit_files, sizeof *t->unit_files) < 0)
      return UINT32_MAX;
    t->unit_files[t->n_unit_files++] = g;
  }
  t->units[t->n_units++] = (xprof_line_unit){off, first, n};
  return first;
}

typedef struct header {
  unsigned version, min_inst, line_range, opcode_base, addr_size;
  int line_base, default_stmt;
  const unsigned char *op_lengths;
} header;

/* The line program of a unit, rows where statements begin.  The file
 * register starts at 1 in every version (DWARF 5, table 6.4, kept it
 * though its file numbers begin at 0: producers repeat the unit's own
 * file as 0 and 1, and GCC's link-time units have "<artificial>" as 0). */
static int run_program(xprof_line_table *t, rd *r, const header *h, const uint32_t *files,
                       uint32_t n_files) {
  uint64_t addr = 0, file = 1, line = 1, column = 0;
  int stmt = h->default_stmt;
  while (r->pos < r->end && !r->failed) {
    unsigned op = (unsigned)u8(r);
    int emit = 0;
    if (op >= h->opcode_base) { /* special */
      unsigned adj = op - h->opcode_base;
      addr += (uint64_t)(adj / h->line_range) * h->min_inst;
      line += (uint64_t)(int64_t)(h->line_base + (int)(adj % h->line_range));
      emit = 1;
    } else if (op == 0) { /* extended */
      uint64_t len = uleb(r), next = r->pos + len;
      if (r->failed || !len || next > r->end)
        return -1;
      unsigned sub = (unsigned)u8(r);
      if (sub == 1) { /* end_sequence */
        addr = 0;
        file = 1;
        line = 1;
        column = 0;
        stmt = h->default_stmt;
      } else if (sub == 2) { /* set_address */
        addr = un(r, (unsigned)(len - 1 > 8 ? 8 : len - 1));
      }
      r->pos = next;
    } else if (op == 1) { /* copy */
      emit = 1;
    } else if (op == 2) {
      addr += uleb(r) * h->min_inst;
    } else if (op == 3) {
      line += (uint64_t)sleb(r);
    } else if (op == 4) {
      file = uleb(r);
    } else if (op == 5) {
      column = uleb(r);
    } else if (op == 6) {
      stmt = !stmt;
    } else if (op == 8) { /* const_add_pc */
      addr += (uint64_t)((255 - h->opcode_base) / h->line_range) * h->min_inst;
    } else if (op == 9) {
      addr += un(r, 2);
    } else { /* set_isa and unknown ones: skip their arguments */
      for (unsigned k = 0; k < h->op_lengths[op - 1]; k++)
        uleb(r);
    }
    if (emit && line <= UINT32_MAX && file < n_files &&
        add_row(t, addr, files[file], line, column, stmt) < 0)
      return -1;
  }
  return r->failed ? -1 : 0;
}

/* One unit at r->pos; r->pos moves past it. */
static int read_unit(ctx *c, rd *all) {
  rd r = *all;
  uint64_t unit_off = all->pos - c->section_off;
  uint64_t len = un(&r, 4);
  c->offset64 = len == 0xffffffffu;
  if (c->offset64)
    len = un(&r, 8);
  if (r.failed || len > all->end - r.pos)
    return -1;
  r.end = r.pos + len;
  all->pos = r.end;
  header h = {0};
  h.version = (unsigned)un(&r, 2);
  if (h.version < 2 || h.version > 5)
    return -1;
  h.addr_size = 8;
  if (h.version >= 5) {
    h.addr_size = (unsigned)u8(&r);
    u8(&r); /* segment selector size */
  }
  uint64_t header_len = un(&r, c->offset64 ? 8 : 4), program = r.pos + header_len;
  h.min_inst = (unsigned)u8(&r);
  if (h.version >= 4)
    u8(&r); /* maximum operations per instruction: 1 off VLIW */
  h.default_stmt = u8(&r) != 0;
  h.line_base = (int)(signed char)u8(&r);
  h.line_range = (unsigned)u8(&r);
  h.opcode_base = (unsigned)u8(&r);
  h.op_lengths = r.p + r.pos;
  r.pos += h.opcode_base ? h.opcode_base - 1 : 0;
  if (r.failed || !h.line_range || !h.opcode_base || program > r.end || r.pos > r.end)
    return -1;
  char **dirs = NULL, **files = NULL;
  uint32_t n_dirs = 0, n_files = 0;
  int rc = h.version >= 5 ? (v5_entries(c, &r, &dirs, &n_dirs, NULL, 0) < 0 ||
                                     v5_entries(c, &r, &files, &n_files, dirs, n_dirs) < 0
                                 ? -1
                                 : 0)
                          : v4_entries(&r, &files, &n_files);
  uint32_t first = rc == 0 ? add_unit(c, unit_off, files, n_files) : UINT32_MAX;
  if (first == UINT32_MAX) {
    rc = -1;
  } else {
    r.pos = program;
    rc = run_program(c->t, &r, &h, n_files ? c->t->unit_files + first : NULL, n_files);
  }
  for (uint32_t i = 0; i < n_dirs; i++)
    xprof_free(dirs[i]);
  for (uint32_t i = 0; i < n_files; i++)
    xprof_free(files[i]);
  xprof_free(dirs);
  xprof_free(files);
  return rc;
}

/* By address, and rows at one address in the order the program gave them. */
static int row_cmp(const void *a, const void *b) {
  const xprof_line_row *x = a, *y = b;
  if (x->addr != y->addr)
    return (x->addr > y->addr) - (x->addr < y->addr);
  return (x->seq > y->seq) - (x->seq < y->seq);
}

int xprof_line_table_parse(const char *name, const unsigned char *buf, size_t len,
                           xprof_line_table **out, xprof_error *err) {
  *out = NULL;
  uint64_t off, size;
  if (xprof_elf_section(buf, len, ".debug_line", &off, &size) < 0)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: no usable line table (.debug_line: compile with -g)",
                      name);
  xprof_line_table *t = xprof_calloc(1, sizeof *t);
  if (!t)
    return xprof_fail_nomem(err, name);
  ctx c = {t, buf, 0, 0, 0, 0, off, 0, NULL, 0};
  xprof_elf_section(buf, len, ".debug_str", &c.str_off, &c.str_size);
  xprof_elf_section(buf, len, ".debug_line_str", &c.line_str_off, &c.line_str_size);
  rd all = {buf, off, off + size, 0};
  uint64_t bad = UINT64_MAX; /* the first unit that does not parse */
  while (all.pos < all.end) {
    uint64_t at = all.pos;
    if (read_unit(&c, &all) < 0 && bad == UINT64_MAX)
      bad = at - off;
    if (all.pos <= at) /* a length that cannot be followed: the end */
      break;
  }
  /* Units of a kind this reader does not know are left out, as long as
   * others give lines. */
  xprof_free(c.slots);
  if (bad != UINT64_MAX && !t->n_rows) {
    xprof_line_table_free(t);
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: .debug_line: the unit at offset %" PRIu64 " does not parse", name,
                      bad);
  }
  if (t->n_rows > 1)
    xprof_sort(t->rows, t->n_rows, sizeof *t->rows, row_cmp);
  *out = t;
  return 0;
}

int xprof_line_table_read(const char *path, xprof_line_table **out, xprof_error *err) {
  unsigned char *buf;
  size_t len;
  *out = NULL;
  if (xprof_elf_slurp(path, &buf, &len, err) < 0)
    return -1;
  int rc = xprof_line_table_parse(path, buf, len, out, err);
  xprof_free(buf);
  return rc;
}

void xprof_line_table_free(xprof_line_table *t) {
  if (!t)
    return;
  for (uint32_t i = 0; i < t->n_files; i++)
    xprof_free(t->files[i]);
  xprof_free(t->files);
  xprof_free(t->rows);
  xprof_free(t->units);
  xprof_free(t->unit_files);
  xprof_free(t);
}

const char *xprof_line_unit_file(const xprof_line_table *t, uint64_t unit, uint64_t k) {
  uint32_t a = 0, b = t->n_units; /* the units are in the section's order */
  while (a < b) {
    uint32_t mid = a + (b - a) / 2;
    if (t->units[mid].off < unit)
      a = mid + 1;
    else
      b = mid;
  }
  if (a == t->n_units || t->units[a].off != unit || k >= t->units[a].n)
    return NULL;
  return t->files[t->unit_files[t->units[a].first + k]];
}

/* The index of the first row at addr or after (above: after). */
static uint32_t first_row(const xprof_line_table *t, uint64_t addr, int above) {
  uint32_t a = 0, b = t->n_rows;
  while (a < b) {
    uint32_t mid = a + (b - a) / 2;
    if (t->rows[mid].addr < addr || (above && t->rows[mid].addr == addr))
      a = mid + 1;
    else
      b = mid;
  }
  return a;
}

const xprof_line_row *xprof_line_at(const xprof_line_table *t, uint64_t addr) {
  uint32_t a = first_row(t, addr, 1);
  return a ? &t->rows[a - 1] : NULL;
}

int xprof_line_address(const xprof_line_table *t, uint64_t lo, uint64_t hi, const char *source,
                       uint32_t line, uint64_t *addr) {
  uint32_t a = first_row(t, lo, 0);
  /* Of several rows at one address, a reader of the table (gprof, through
   * BFD) takes the last for the address's line: only that one will do. */
  for (uint32_t i = a; i < t->n_rows && t->rows[i].addr < hi; i++)
    if (t->rows[i].line == line && (i + 1 == t->n_rows || t->rows[i + 1].addr != t->rows[i].addr) &&
        xprof_same_source(t->files[t->rows[i].file], source)) {
      *addr = t->rows[i].addr;
      return 0;
    }
  return -1;
}
