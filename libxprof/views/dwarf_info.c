/*
 * dwarf_info.c - what a sampled address was inlined from: the function
 * instances of an ELF file's DWARF (.debug_info, versions 2 to 5), each
 * subprogram with code and, inside it, each inlined subroutine with its
 * address ranges and the line of the call it replaced.  A time sample at
 * an address is then a sample of the innermost function there, inlined
 * into the next one out, and so on up to the function the symbol names:
 * the inline stack the compilers' sample profiles nest by.
 *
 * A program built with -gsplit-dwarf (DWARF 5) keeps a skeleton of each
 * unit and its functions in a split file (.dwo) that the skeleton names;
 * that file is read as part of the program, its addresses from the
 * program's .debug_addr.  Package files (.dwp) and DWARF 4's split units
 * (GCC's -gdwarf-4 -gsplit-dwarf) are not read: they are counted.
 *
 * Only what that needs is read: tags subprogram and inlined_subroutine,
 * their names (linkage name first), declaration files and lines, call
 * lines, code ranges, and the abstract origins and specifications they
 * take the names from.  Every other attribute is skipped by its form.
 * Every read is bounds-checked; a unit that does not parse ends the
 * reading with an error naming its offset.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "dwarf_rd.h"
#include "internal.h"
#include "xprof_views.h"

enum {
  TAG_INLINED = 0x1d, TAG_SUBPROGRAM = 0x2e,
  AT_NAME = 0x03, AT_STMT_LIST = 0x10, AT_LOW_PC = 0x11, AT_HIGH_PC = 0x12, AT_COMP_DIR = 0x1b,
  AT_ABSTRACT_ORIGIN = 0x31, AT_DECL_FILE = 0x3a, AT_DECL_LINE = 0x3b,
  AT_SPECIFICATION = 0x47, AT_RANGES = 0x55, AT_CALL_LINE = 0x59,
  AT_LINKAGE_NAME = 0x6e, AT_STR_OFFSETS_BASE = 0x72, AT_ADDR_BASE = 0x73,
  AT_RNGLISTS_BASE = 0x74, AT_DWO_NAME = 0x76, AT_MIPS_LINKAGE_NAME = 0x2007,
  AT_GNU_DWO_NAME = 0x2130,
  FORM_ADDR = 0x01, FORM_DATA2 = 0x05, FORM_DATA4 = 0x06, FORM_DATA8 = 0x07,
  FORM_STRING = 0x08, FORM_BLOCK = 0x09, FORM_BLOCK1 = 0x0a, FORM_DATA1 = 0x0b,
  FORM_FLAG = 0x0c, FORM_SDATA = 0x0d, FORM_STRP = 0x0e, FORM_UDATA = 0x0f,
  FORM_REF_ADDR = 0x10, FORM_REF1 = 0x11, FORM_REF2 = 0x12, FORM_REF4 = 0x13,
  FORM_REF8 = 0x14, FORM_REF_UDATA = 0x15, FORM_INDIRECT = 0x16, FORM_SEC_OFFSET = 0x17,
  FORM_EXPRLOC = 0x18, FORM_FLAG_PRESENT = 0x19, FORM_STRX = 0x1a, FORM_ADDRX = 0x1b,
  FORM_REF_SUP4 = 0x1c, FORM_STRP_SUP = 0x1d, FORM_DATA16 = 0x1e, FORM_LINE_STRP = 0x1f,
  FORM_REF_SIG8 = 0x20, FORM_IMPLICIT_CONST = 0x21, FORM_LOCLISTX = 0x22,
  FORM_RNGLISTX = 0x23, FORM_REF_SUP8 = 0x24, FORM_STRX1 = 0x25, FORM_STRX4 = 0x28,
  FORM_ADDRX1 = 0x29, FORM_ADDRX4 = 0x2c, FORM_BLOCK2 = 0x03, FORM_BLOCK4 = 0x04,
  FORM_GNU_ADDR_INDEX = 0x1f01, FORM_GNU_STR_INDEX = 0x1f02, FORM_GNU_REF_ALT = 0x1f20,
  FORM_GNU_STRP_ALT = 0x1f21,
};

typedef struct sect {
  uint64_t off, size; /* size 0: absent */
} sect;

typedef struct abbrev_attr {
  uint32_t at, form;
  int64_t implicit;
} abbrev_attr;

typedef struct abbrev {
  uint64_t code;
  uint32_t tag, first, n;
  int children;
} abbrev;

/* A subprogram DIE, code or not: where names and lines are looked up. */
typedef struct named {
  uint64_t die;
  const char *name, *linkage;
  uint32_t decl_line, decl_file; /* decl_file: XPROF_DWARF_NO_FILE, none */
  uint64_t decl_unit;            /* its unit's line table (DW_AT_stmt_list) */
  uint64_t ref; /* abstract origin or specification; 0: none */
} named;

typedef struct reader {
  const char *path;
  const unsigned char *buf;
  sect info, abbrev_s, str, line_str, str_offsets, addr, rnglists, ranges;
  /* The bytes .debug_addr is in: buf, but the program's while its split
   * files are read. */
  const unsigned char *addr_buf;
  /* Added to the DIE offsets of a split file, to keep them apart from
   * the program's and other split files' (the DIEs are looked up by
   * offset); 0 in the program. */
  uint64_t die_bias;
  uint32_t n_dwo;       /* split files read so far */
  int in_split;         /* reading one: its base address is the skeleton's */
  const char *dwo_name; /* the unit just read is a skeleton of that file */
  const char *comp_dir;
  abbrev *abbrevs;
  uint32_t n_abbrevs, cap_abbrevs;
  abbrev_attr *attrs;
  uint32_t n_attrs, cap_attrs;
  named *named;
  uint32_t n_named, cap_named;
  struct scope_origin {
    uint64_t ref;      /* its abstract origin or specification; 0: none */
    const char *plain; /* its DW_AT_name */
  } *origin;           /* by scope: where its names are to be found */
  uint32_t cap_origin;
  /* the unit being read */
  unsigned version, addr_size;
  int offset64;
  uint64_t unit_off, addr_base, str_offsets_base, rnglists_base, base_addr, stmt_list;
  xprof_dwarf_info *d;
} reader;

/* One attribute's value as read: a number, and for strings the string. */
typedef struct value {
  uint64_t u;
  const char *s;
  int is_addr; /* of the address class (high_pc absolute, not an offset) */
  int is_ref;  /* a reference, u made absolute in .debug_info */
} value;

static const char *str_in(const reader *r, const sect *s, uint64_t off) {
  if (!s->size || off >= s->size)
    return NULL;
  const char *p = (const char *)r->buf + s->off + off;
  return memchr(p, 0, s->size - off) ? p : NULL;
}

/* The n-byte word at `off` of section s of the bytes `buf`; 0 outside it. */
static uint64_t word_at(const unsigned char *buf, const sect *s, uint64_t off, unsigned n) {
  if (!s->size || off + n > s->size || off + n < off)
    return 0;
  rd t = {buf, s->off + off, s->off + s->size, 0};
  return un(&t, n);
}

static const char *strx(const reader *r, uint64_t index) {
  unsigned w = r->offset64 ? 8 : 4;
  return str_in(r, &r->str,
                word_at(r->buf, &r->str_offsets, r->str_offsets_base + index * w, w));
}

static uint64_t addrx(const reader *r, uint64_t index) {
  return word_at(r->addr_buf, &r->addr, r->addr_base + index * r->addr_size, r->addr_size);
}

/* Read one attribute of form `form` at t; 0, or -1 for a form not known. */
static int read_form(reader *r, rd *t, uint64_t form, int64_t implicit, value *v) {
  unsigned w = r->offset64 ? 8 : 4;
  memset(v, 0, sizeof *v);
  switch (form) {
  case FORM_ADDR: v->u = un(t, r->addr_size); v->is_addr = 1; return 0;
  case FORM_ADDRX: case FORM_GNU_ADDR_INDEX: v->u = addrx(r, uleb(t)); v->is_addr = 1; return 0;
  case FORM_ADDRX1: case FORM_ADDRX1 + 1: case FORM_ADDRX1 + 2: case FORM_ADDRX4:
    v->u = addrx(r, un(t, (unsigned)(form - FORM_ADDRX1 + 1)));
    v->is_addr = 1;
    return 0;
  case FORM_DATA1: case FORM_FLAG: case FORM_REF1: v->u = u8(t); break;
  case FORM_DATA2: case FORM_REF2: v->u = un(t, 2); break;
  case FORM_DATA4: case FORM_REF4: case FORM_REF_SUP4: v->u = un(t, 4); break;
  case FORM_DATA8: case FORM_REF8: case FORM_REF_SIG8: case FORM_REF_SUP8: v->u = un(t, 8); break;
  case FORM_DATA16: t->pos += 16; if (t->pos > t->end) t->failed = 1; return 0;
  case FORM_SDATA: v->u = (uint64_t)sleb(t); return 0;
  case FORM_UDATA: case FORM_REF_UDATA: case FORM_LOCLISTX: case FORM_RNGLISTX: v->u = uleb(t); break;
  case FORM_STRING: v->s = cstr(t); return 0;
  case FORM_STRP: v->s = str_in(r, &r->str, un(t, w)); return 0;
  case FORM_LINE_STRP: v->s = str_in(r, &r->line_str, un(t, w)); return 0;
  case FORM_STRX: case FORM_GNU_STR_INDEX: v->s = strx(r, uleb(t)); return 0;
  case FORM_STRX1: case FORM_STRX1 + 1: case FORM_STRX1 + 2: case FORM_STRX4:
    v->s = strx(r, un(t, (unsigned)(form - FORM_STRX1 + 1)));
    return 0;
  case FORM_REF_ADDR:
    v->u = un(t, r->version <= 2 ? r->addr_size : w) + r->die_bias;
    v->is_ref = 1;
    return 0;
  case FORM_SEC_OFFSET: case FORM_STRP_SUP: case FORM_GNU_REF_ALT: case FORM_GNU_STRP_ALT:
    v->u = un(t, w);
    return 0;
  case FORM_BLOCK1: t->pos += u8(t); break;
  case FORM_BLOCK2: t->pos += un(t, 2); break;
  case FORM_BLOCK4: t->pos += un(t, 4); break;
  case FORM_BLOCK: case FORM_EXPRLOC: t->pos += uleb(t); break;
  case FORM_FLAG_PRESENT: v->u = 1; return 0;
  case FORM_IMPLICIT_CONST: v->u = (uint64_t)implicit; return 0;
  case FORM_INDIRECT: return read_form(r, t, uleb(t), implicit, v);
  default: return -1;
  }
  if (t->pos > t->end)
    t->failed = 1;
  if (form == FORM_REF1 || form == FORM_REF2 || form == FORM_REF4 || form == FORM_REF8 ||
      form == FORM_REF_UDATA) {
    v->u += r->unit_off + r->die_bias; /* unit-relative */
    v->is_ref = 1;
  }
  return 0;
}

/* The abbreviation table at `off` of .debug_abbrev; 0 or -1. */
static int read_abbrevs(reader *r, uint64_t off) {
  r->n_abbrevs = r->n_attrs = 0;
  if (off >= r->abbrev_s.size)
    return -1;
  rd t = {r->buf, r->abbrev_s.off + off, r->abbrev_s.off + r->abbrev_s.size, 0};
  for (;;) {
    uint64_t code = uleb(&t);
    if (t.failed || code == 0)
      return t.failed ? -1 : 0;
    if (xprof_grow((void **)&r->abbrevs, &r->cap_abbrevs, r->n_abbrevs, sizeof *r->abbrevs) < 0)
      return -1;
    abbrev *a = &r->abbrevs[r->n_abbrevs++];
    a->code = code;
    a->tag = (uint32_t)uleb(&t);
    a->children = u8(&t) != 0;
    a->first = r->n_attrs;
    for (;;) {
      uint64_t at = uleb(&t), form = uleb(&t);
      if (t.failed)
        return -1;
      if (!at && !form)
        break;
      int64_t implicit = form == FORM_IMPLICIT_CONST ? sleb(&t) : 0;
      if (xprof_grow((void **)&r->attrs, &r->cap_attrs, r->n_attrs, sizeof *r->attrs) < 0)
        return -1;
      r->attrs[r->n_attrs++] = (abbrev_attr){(uint32_t)at, (uint32_t)form, implicit};
    }
    a->n = r->n_attrs - a->first;
  }
}

static const abbrev *find_abbrev(const reader *r, uint64_t code) {
  if (code - 1 < r->n_abbrevs && r->abbrevs[code - 1].code == code)
    return &r->abbrevs[code - 1]; /* the usual numbering: 1, 2, ... */
  for (uint32_t i = 0; i < r->n_abbrevs; i++)
    if (r->abbrevs[i].code == code)
      return &r->abbrevs[i];
  return NULL;
}

/* What a DIE says that matters here. */
typedef struct die {
  const char *name, *linkage, *dwo_name, *comp_dir;
  uint32_t decl_line, decl_file, call_line;
  uint64_t low, high, ranges, ref;
  int has_low, has_high, high_is_addr, has_ranges, ranges_is_index;
  int split; /* names a split DWARF file (-gsplit-dwarf's .dwo) */
} die;

static void take(reader *r, die *e, uint32_t at, uint64_t form, const value *v) {
  switch (at) {
  case AT_NAME: e->name = v->s; break;
  case AT_LINKAGE_NAME: case AT_MIPS_LINKAGE_NAME: e->linkage = v->s; break;
  case AT_DECL_LINE: e->decl_line = (uint32_t)v->u; break;
  case AT_DECL_FILE: if (v->u < XPROF_DWARF_NO_FILE) e->decl_file = (uint32_t)v->u; break;
  case AT_STMT_LIST: r->stmt_list = v->u; break;
  case AT_CALL_LINE: e->call_line = (uint32_t)v->u; break;
  case AT_LOW_PC: e->low = v->u; e->has_low = 1; break;
  case AT_HIGH_PC: e->high = v->u; e->has_high = 1; e->high_is_addr = v->is_addr; break;
  case AT_RANGES: e->ranges = v->u; e->has_ranges = 1; e->ranges_is_index = form == FORM_RNGLISTX; break;
  case AT_ABSTRACT_ORIGIN: case AT_SPECIFICATION: if (v->is_ref) e->ref = v->u; break;
  case AT_ADDR_BASE: r->addr_base = v->u; break;
  case AT_STR_OFFSETS_BASE: r->str_offsets_base = v->u; break;
  case AT_RNGLISTS_BASE: r->rnglists_base = v->u; break;
  case AT_DWO_NAME: case AT_GNU_DWO_NAME: e->split = 1; e->dwo_name = v->s; break;
  case AT_COMP_DIR: e->comp_dir = v->s; break;
  default: break;
  }
}

static int add_range(xprof_dwarf_info *d, uint64_t lo, uint64_t hi) {
  if (hi <= lo)
    return 0;
  if (xprof_grow((void **)&d->ranges, &d->cap_ranges, d->n_ranges, sizeof *d->ranges) < 0)
    return -1;
  d->ranges[d->n_ranges++] = (xprof_dwarf_range){lo, hi};
  return 0;
}

/* A DWARF 5 range list at `off` of .debug_rnglists; 0 or -1. */
static int rnglist(reader *r, uint64_t off) {
  if (off >= r->rnglists.size)
    return -1;
  rd t = {r->buf, r->rnglists.off + off, r->rnglists.off + r->rnglists.size, 0};
  uint64_t base = r->base_addr;
  for (int n = 0; n < 100000 && !t.failed; n++) {
    unsigned kind = (unsigned)u8(&t);
    uint64_t a, b;
    switch (kind) {
    case 0: return 0; /* end of list */
    case 1: base = addrx(r, uleb(&t)); break;
    case 2: a = addrx(r, uleb(&t)); b = addrx(r, uleb(&t)); if (add_range(r->d, a, b) < 0) return -1; break;
    case 3: a = addrx(r, uleb(&t)); b = uleb(&t); if (add_range(r->d, a, a + b) < 0) return -1; break;
    case 4: a = uleb(&t); b = uleb(&t); if (add_range(r->d, base + a, base + b) < 0) return -1; break;
    case 5: base = un(&t, r->addr_size); break;
    case 6: a = un(&t, r->addr_size); b = un(&t, r->addr_size); if (add_range(r->d, a, b) < 0) return -1; break;
    case 7: a = un(&t, r->addr_size); b = uleb(&t); if (add_range(r->d, a, a + b) < 0) return -1; break;
    default: return -1;
    }
  }
  return -1;
}

/* A DWARF 2-4 range list at `off` of .debug_ranges; 0 or -1. */
static int ranges_v4(reader *r, uint64_t off) {
  if (off >= r->ranges.size)
    return -1;
  rd t = {r->buf, r->ranges.off + off, r->ranges.off + r->ranges.size, 0};
  uint64_t base = r->base_addr, all = r->addr_size == 8 ? UINT64_MAX : 0xffffffffu;
  for (int n = 0; n < 100000 && !t.failed; n++) {
    uint64_t a = un(&t, r->addr_size), b = un(&t, r->addr_size);
    if (!a && !b)
      return 0;
    if (a == all)
      base = b;
    else if (add_range(r->d, base + a, base + b) < 0)
      return -1;
  }
  return -1;
}

/* The code ranges of DIE e as scope s's; 0, or -1 when out of memory or
 * the list is damaged. */
static int scope_ranges(reader *r, xprof_dwarf_scope *s, const die *e) {
  s->first_range = r->d->n_ranges;
  int rc = 0;
  if (e->has_ranges) {
    uint64_t off = e->ranges;
    if (e->ranges_is_index)
      off = r->rnglists_base + word_at(r->buf, &r->rnglists, r->rnglists_base +
                                       e->ranges * (r->offset64 ? 8 : 4), r->offset64 ? 8 : 4);
    rc = r->version >= 5 ? rnglist(r, off) : ranges_v4(r, off);
  } else if (e->has_low && e->has_high) {
    rc = add_range(r->d, e->low, e->high_is_addr ? e->high : e->low + e->high);
  }
  s->n_ranges = r->d->n_ranges - s->first_range;
  return rc;
}

static int add_named(reader *r, uint64_t off, const die *e) {
  if (xprof_grow((void **)&r->named, &r->cap_named, r->n_named, sizeof *r->named) < 0)
    return -1;
  r->named[r->n_named++] =
      (named){off, e->name, e->linkage, e->decl_line, e->decl_file, r->stmt_list, e->ref};
  return 0;
}

/* A function instance with code: a new scope inside `parent`. */
static int add_scope(reader *r, const die *e, int inlined, uint32_t parent, uint32_t *index) {
  xprof_dwarf_info *d = r->d;
  *index = UINT32_MAX;
  if (xprof_grow((void **)&d->scopes, &d->cap_scopes, d->n_scopes, sizeof *d->scopes) < 0 ||
      (d->n_scopes >= r->cap_origin &&
       xprof_grow((void **)&r->origin, &r->cap_origin, d->n_scopes, sizeof *r->origin) < 0))
    return -1;
  xprof_dwarf_scope *s = &d->scopes[d->n_scopes];
  memset(s, 0, sizeof *s);
  s->name = e->linkage;
  s->decl_line = e->decl_line;
  s->decl_file = e->decl_file;
  s->decl_unit = r->stmt_list;
  s->parent = inlined ? parent : UINT32_MAX;
  s->call_line = inlined ? e->call_line : 0;
  if (scope_ranges(r, s, e) < 0 && d->n_ranges == s->first_range)
    return 0; /* a damaged list: the scope is left out */
  if (!s->n_ranges)
    return 0;
  s->end = d->n_scopes + 1;
  r->origin[d->n_scopes] = (struct scope_origin){e->ref, e->name};
  *index = d->n_scopes++;
  return 0;
}

/* A DIE's attributes at t, by its abbreviation; 0 or -1. */
static int read_attrs(reader *r, rd *t, const abbrev *a, die *e) {
  memset(e, 0, sizeof *e);
  e->decl_file = XPROF_DWARF_NO_FILE;
  for (uint32_t i = 0; i < a->n && !t->failed; i++) {
    const abbrev_attr *at = &r->attrs[a->first + i];
    value v;
    if (read_form(r, t, at->form, at->implicit, &v) < 0)
      return -1;
    take(r, e, at->at, at->form, &v);
  }
  return t->failed ? -1 : 0;
}

/* The DIEs of one unit, from t's position to its end. */
static int read_dies(reader *r, rd *t) {
  enum { MAX_DEPTH = 512 };
  uint32_t enclosing[MAX_DEPTH], started[MAX_DEPTH];
  int depth = 0;
  enclosing[0] = UINT32_MAX;
  started[0] = UINT32_MAX;
  int first = 1;
  while (t->pos < t->end && !t->failed) {
    uint64_t off = t->pos - r->info.off + r->die_bias;
    uint64_t code = uleb(t);
    if (code == 0) { /* the end of a list of children */
      if (depth > 0) {
        depth--;
        if (started[depth] != UINT32_MAX)
          r->d->scopes[started[depth]].end = r->d->n_scopes;
      }
      continue;
    }
    const abbrev *a = find_abbrev(r, code);
    if (!a)
      return -1;
    die e;
    /* The unit's own DIE is read twice: its addresses may be indexes
     * into .debug_addr given before the attribute that says where that
     * unit's part of it begins. */
    uint64_t at_attrs = t->pos;
    for (int pass = first ? 2 : 1; pass > 0; pass--) {
      t->pos = at_attrs;
      if (read_attrs(r, t, a, &e) < 0)
        return -1;
    }
    if (first) { /* the base of the unit's ranges (a split unit's: its skeleton's) */
      if (!r->in_split)
        r->base_addr = e.has_low ? e.low : 0;
      if (e.split) {
        r->dwo_name = e.dwo_name ? e.dwo_name : "";
        r->comp_dir = e.comp_dir;
      }
      first = 0;
    }
    uint32_t scope = UINT32_MAX;
    if (a->tag == TAG_SUBPROGRAM && add_named(r, off, &e) < 0)
      return -1;
    if ((a->tag == TAG_SUBPROGRAM || a->tag == TAG_INLINED) && (e.has_low || e.has_ranges) &&
        add_scope(r, &e, a->tag == TAG_INLINED, enclosing[depth], &scope) < 0)
      return -1;
    if (a->children) {
      if (depth + 1 >= MAX_DEPTH)
        return -1;
      started[depth] = scope;
      depth++;
      enclosing[depth] = scope != UINT32_MAX ? scope : enclosing[depth - 1];
      started[depth] = UINT32_MAX;
    }
  }
  return t->failed ? -1 : 0;
}

static int read_split(reader *r);

/* One unit at all's position; all moves past it. */
static int read_unit(reader *r, rd *all) {
  rd t = *all;
  r->unit_off = t.pos - r->info.off;
  uint64_t len = un(&t, 4);
  r->offset64 = len == 0xffffffffu;
  if (r->offset64)
    len = un(&t, 8);
  if (t.failed || len > all->end - t.pos)
    return -1;
  t.end = t.pos + len;
  all->pos = t.end;
  r->version = (unsigned)un(&t, 2);
  uint64_t abbrev_off;
  unsigned w = r->offset64 ? 8 : 4;
  unsigned type = 1; /* before DWARF 5, what this reader reads is a compile unit */
  if (r->version >= 5) {
    type = (unsigned)u8(&t);
    r->addr_size = (unsigned)u8(&t);
    abbrev_off = un(&t, w);
    if (type == 4 || type == 5) /* skeleton, split: their dwo_id */
      un(&t, 8);
    /* Compile and partial units hold code, and a skeleton names the
     * split file that does (its split unit). */
    if (type != 1 && type != 3 && type != 4 && type != 5)
      return 0;
  } else if (r->version >= 2) {
    abbrev_off = un(&t, w);
    r->addr_size = (unsigned)u8(&t);
  } else {
    return -1;
  }
  if (t.failed || r->version > 5 || (r->addr_size != 4 && r->addr_size != 8))
    return -1;
  /* A split unit's .debug_addr is the program's, from its skeleton's
   * base; its range lists' offsets follow the header of its file's. */
  if (!r->in_split)
    r->addr_base = 0;
  r->rnglists_base = r->in_split ? (r->offset64 ? 20 : 12) : 0;
  /* A split unit's file numbers are those of its skeleton's line table
   * (clang writes no other; GCC's .debug_line.dwo repeats its files). */
  if (!r->in_split)
    r->stmt_list = UINT64_MAX; /* none, until the unit's DIE gives it */
  r->str_offsets_base = r->offset64 ? 16 : 8;
  r->dwo_name = NULL;
  if (read_abbrevs(r, abbrev_off) < 0 || read_dies(r, &t) < 0)
    return -1;
  if (!r->dwo_name || r->in_split || (type == 4 && read_split(r) == 0))
    return 0;
  r->d->n_split++; /* a split file not read, or DWARF 4's split unit */
  if (type != 4 && !r->d->split_missing)
    r->d->split_missing = xprof_format("%s: a DWARF 4 split unit, which is not read (build "
                                       "with DWARF 5, the compilers' default)",
                                       r->dwo_name);
  return 0;
}

/* The file a skeleton names: its name under its compilation directory,
 * else, for a build tree moved since, beside the program (the first
 * that reads); *buf its bytes, or NULL with err saying why the first
 * path tried cannot be read.  Returns the path read or tried, or NULL
 * when out of memory. */
static char *find_split(const reader *r, unsigned char **buf, size_t *len, xprof_error *err) {
  const char *name = r->dwo_name;
  char *path = name[0] == '/' || !r->comp_dir ? xprof_format("%s", name)
                                              : xprof_format("%s/%s", r->comp_dir, name);
  *buf = NULL;
  if (!path || xprof_elf_slurp(path, buf, len, err) == 0)
    return path;
  const char *base = strrchr(name, '/'), *dir_end = strrchr(r->path, '/');
  char *beside = xprof_format("%.*s%s", dir_end ? (int)(dir_end - r->path + 1) : 0, r->path,
                              base ? base + 1 : name);
  xprof_error second;
  if (beside && xprof_elf_slurp(beside, buf, len, &second) == 0) {
    xprof_free(path);
    return beside;
  }
  xprof_free(beside);
  return path;
}

/* Keep what a split file's reading added to r's tables when the
 * program's reading resumes from `resumed`. */
static void keep_tables(reader *resumed, const reader *r) {
  resumed->abbrevs = r->abbrevs, resumed->n_abbrevs = r->n_abbrevs;
  resumed->cap_abbrevs = r->cap_abbrevs;
  resumed->attrs = r->attrs, resumed->n_attrs = r->n_attrs, resumed->cap_attrs = r->cap_attrs;
  resumed->named = r->named, resumed->n_named = r->n_named, resumed->cap_named = r->cap_named;
  resumed->origin = r->origin, resumed->cap_origin = r->cap_origin;
  resumed->n_dwo = r->n_dwo;
}

/* The split file of the skeleton unit just read: its units read as the
 * program's, their DIEs' offsets apart, their bytes kept with r->d.  0,
 * or -1 when it cannot be read or parsed (the first such, and why, in
 * r->d->split_missing). */
static int read_split(reader *r) {
  xprof_dwarf_info *d = r->d;
  unsigned char *buf;
  size_t len;
  xprof_error err;
  char *path = find_split(r, &buf, &len, &err);
  int rc = buf && xprof_grow((void **)&d->split_bufs, &d->cap_split_bufs, d->n_split_bufs,
                             sizeof *d->split_bufs) == 0
               ? 0
               : -1;
  if (rc == 0) {
    d->split_bufs[d->n_split_bufs++] = buf;
    reader program = *r;
    r->buf = buf;
    const sect none = {0, 0};
    r->info = r->abbrev_s = r->str = r->line_str = r->str_offsets = r->rnglists = r->ranges =
        none; /* .debug_addr stays the program's, read through addr_buf */
    xprof_elf_section(buf, len, ".debug_info.dwo", &r->info.off, &r->info.size);
    xprof_elf_section(buf, len, ".debug_abbrev.dwo", &r->abbrev_s.off, &r->abbrev_s.size);
    xprof_elf_section(buf, len, ".debug_str.dwo", &r->str.off, &r->str.size);
    xprof_elf_section(buf, len, ".debug_str_offsets.dwo", &r->str_offsets.off,
                      &r->str_offsets.size);
    xprof_elf_section(buf, len, ".debug_rnglists.dwo", &r->rnglists.off, &r->rnglists.size);
    r->die_bias = (uint64_t)++r->n_dwo << 40;
    r->in_split = 1;
    rd all = {buf, r->info.off, r->info.off + r->info.size, 0};
    while (rc == 0 && all.pos < all.end)
      rc = read_unit(r, &all);
    if (!r->info.size || !r->abbrev_s.size)
      rc = -1;
    keep_tables(&program, r);
    *r = program;
    if (rc < 0)
      xprof_fail(&err, XPROF_ERR_FORMAT, "%s: its .debug_info.dwo does not parse", path);
  }
  if (rc < 0 && !d->split_missing)
    d->split_missing = path && buf ? xprof_format("%s", err.msg)
                                   : xprof_format("%s", path ? err.msg : "out of memory");
  xprof_free(path);
  return rc;
}

static int named_cmp(const void *a, const void *b) {
  uint64_t x = ((const named *)a)->die, y = ((const named *)b)->die;
  return (x > y) - (x < y);
}

static const named *find_named(const reader *r, uint64_t die) {
  named key = {die, NULL, NULL, 0, 0, 0, 0};
  return bsearch(&key, r->named, r->n_named, sizeof *r->named, named_cmp);
}

/* Give each scope the names and declaration it lacks from the DIEs it
 * refers to: an inlined or out-of-line instance names its abstract
 * origin, a C++ member's definition its declaration.  The linkage name
 * wins over the plain name wherever it is found.  A declaration's file
 * is a number in the line table of the unit of the DIE that gives it
 * (the origin may be in another unit: link-time compilations). */
static void resolve_names(reader *r) {
  for (uint32_t i = 0; i < r->d->n_scopes; i++) {
    xprof_dwarf_scope *s = &r->d->scopes[i];
    const char *plain = r->origin[i].plain;
    uint64_t ref = r->origin[i].ref;
    for (int hop = 0; hop < 8 && ref &&
                      (!s->name || !s->decl_line || s->decl_file == XPROF_DWARF_NO_FILE);
         hop++) {
      const named *n = find_named(r, ref);
      if (!n)
        break;
      if (!s->name)
        s->name = n->linkage;
      if (!plain)
        plain = n->name;
      if (!s->decl_line)
        s->decl_line = n->decl_line;
      if (s->decl_file == XPROF_DWARF_NO_FILE && n->decl_file != XPROF_DWARF_NO_FILE) {
        s->decl_file = n->decl_file;
        s->decl_unit = n->decl_unit;
      }
      ref = n->ref;
    }
    if (!s->name)
      s->name = plain;
  }
}

int xprof_dwarf_info_parse(const char *name, const unsigned char *buf, size_t len,
                           xprof_dwarf_info **out, xprof_error *err) {
  *out = NULL;
  reader r;
  memset(&r, 0, sizeof r);
  r.path = name;
  r.buf = buf;
  r.addr_buf = buf;
  if (xprof_elf_section(buf, len, ".debug_info", &r.info.off, &r.info.size) < 0 ||
      xprof_elf_section(buf, len, ".debug_abbrev", &r.abbrev_s.off, &r.abbrev_s.size) < 0)
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: no usable debugging information (.debug_info: compile with -g)",
                      name);
  xprof_elf_section(buf, len, ".debug_str", &r.str.off, &r.str.size);
  xprof_elf_section(buf, len, ".debug_line_str", &r.line_str.off, &r.line_str.size);
  xprof_elf_section(buf, len, ".debug_str_offsets", &r.str_offsets.off, &r.str_offsets.size);
  xprof_elf_section(buf, len, ".debug_addr", &r.addr.off, &r.addr.size);
  xprof_elf_section(buf, len, ".debug_rnglists", &r.rnglists.off, &r.rnglists.size);
  xprof_elf_section(buf, len, ".debug_ranges", &r.ranges.off, &r.ranges.size);
  xprof_dwarf_info *d = xprof_calloc(1, sizeof *d);
  if (!d)
    return xprof_fail_nomem(err, name);
  r.d = d;
  rd all = {buf, r.info.off, r.info.off + r.info.size, 0};
  int rc = 0;
  while (all.pos < all.end && rc == 0) {
    uint64_t at = all.pos;
    if (read_unit(&r, &all) < 0)
      rc = xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: .debug_info: the unit at offset %" PRIu64 " does not parse", name,
                      at - r.info.off);
    if (all.pos <= at)
      break;
  }
  /* Units before a damaged one stay usable. */
  if (rc < 0 && d->n_scopes)
    rc = 0;
  if (rc == 0) {
    /* By offset, as they were read, but that a split file's DIEs (far
     * above the program's) come where its skeleton was. */
    for (uint32_t i = 1; i < r.n_named; i++)
      if (r.named[i - 1].die > r.named[i].die) {
        xprof_sort(r.named, r.n_named, sizeof *r.named, named_cmp);
        break;
      }
    resolve_names(&r);
    d->buf = buf;
  }
  xprof_free(r.abbrevs);
  xprof_free(r.attrs);
  xprof_free(r.named);
  xprof_free(r.origin);
  if (rc < 0) {
    xprof_dwarf_info_free(d);
    return -1;
  }
  *out = d;
  return 0;
}

void xprof_dwarf_info_free(xprof_dwarf_info *d) {
  if (!d)
    return;
  xprof_free(d->scopes);
  xprof_free(d->ranges);
  xprof_free(d->owned);
  for (uint32_t i = 0; i < d->n_split_bufs; i++)
    xprof_free(d->split_bufs[i]);
  xprof_free(d->split_bufs);
  xprof_free(d->split_missing);
  xprof_free(d);
}

static int holds(const xprof_dwarf_info *d, const xprof_dwarf_scope *s, uint64_t addr) {
  for (uint32_t i = 0; i < s->n_ranges; i++)
    if (addr >= d->ranges[s->first_range + i].lo && addr < d->ranges[s->first_range + i].hi)
      return 1;
  return 0;
}

uint32_t xprof_dwarf_inline_stack(const xprof_dwarf_info *d, uint64_t addr, uint32_t *stack,
                                  uint32_t max) {
  /* The subprogram: a function with code that is not inlined.  Scopes
   * are few per unit and the tools ask once per sampled bin, so a scan
   * of the subprograms suffices; their descendants are only looked at
   * for the one that holds the address. */
  uint32_t top = UINT32_MAX;
  for (uint32_t i = 0; i < d->n_scopes && top == UINT32_MAX;) {
    if (holds(d, &d->scopes[i], addr))
      top = i;
    else
      i = d->scopes[i].end; /* past its inlined code */
  }
  return top == UINT32_MAX ? 0 : xprof_dwarf_inline_stack_in(d, top, addr, stack, max);
}

uint32_t xprof_dwarf_inline_stack_in(const xprof_dwarf_info *d, uint32_t top, uint64_t addr,
                                     uint32_t *stack, uint32_t max) {
  if (!max || !holds(d, &d->scopes[top], addr))
    return 0;
  uint32_t deepest = top;
  for (uint32_t i = top + 1; i < d->scopes[top].end;) {
    const xprof_dwarf_scope *s = &d->scopes[i];
    if (s->parent == UINT32_MAX) { /* a function nested in this one's text */
      i = s->end;
      continue;
    }
    if (holds(d, s, addr))
      deepest = i;
    i++;
  }
  /* From the deepest up its parents, then reversed: outermost first. */
  uint32_t n = 0;
  for (uint32_t s = deepest; s != UINT32_MAX && n < max; s = d->scopes[s].parent)
    stack[n++] = s;
  for (uint32_t i = 0; i < n / 2; i++) {
    uint32_t x = stack[i];
    stack[i] = stack[n - 1 - i];
    stack[n - 1 - i] = x;
  }
  return n;
}
