/*
 * elf.c - what the tools need of an executable or shared library: its
 * functions by address, its build-id and its executable segments.
 *
 * Time samples and call arcs are addresses relative to an image's load
 * address, which are the addresses its symbol table gives (ELF virtual
 * addresses); this reader maps them back to functions.  It reads 64-bit
 * little-endian ELF files only (x86-64, AArch64) and checks every offset
 * it follows, so that a damaged file is an error naming it, not a crash.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <zlib.h>
#include <zstd.h>

#include "internal.h"
#include "xprof_views.h"

struct xprof_elf_file {
  const unsigned char *buf;
  size_t len;
  const char *path;
  xprof_error *err;
};

static int bad(struct xprof_elf_file *f, const char *what) {
  return xprof_fail(f->err, XPROF_ERR_FORMAT, "%s: not a usable ELF file: %s", f->path, what);
}

/* Whether [off, off + size) lies in the file. */
static int inside(const struct xprof_elf_file *f, uint64_t off, uint64_t size) {
  return off <= f->len && size <= f->len - off;
}

static int name_cmp(const void *a, const void *b) {
  const xprof_elf_func *x = *(const xprof_elf_func *const *)a;
  const xprof_elf_func *y = *(const xprof_elf_func *const *)b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->addr > y->addr) - (x->addr < y->addr);
}

static int func_cmp(const void *a, const void *b) {
  const xprof_elf_func *x = a, *y = b;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  /* Of aliases, the one with a size and a global name first. */
  if ((x->size != 0) != (y->size != 0))
    return x->size ? -1 : 1;
  if (x->global != y->global)
    return x->global ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* The functions of symbol table section sh (its string table is section
 * sh_link). */
static int read_symbols(struct xprof_elf_file *f, xprof_elf *e, const Elf64_Shdr *shdrs,
                        uint16_t shnum, const Elf64_Shdr *sh) {
  if (sh->sh_link >= shnum || sh->sh_entsize != sizeof(Elf64_Sym))
    return bad(f, "a symbol table with a bad string table or entry size");
  const Elf64_Shdr *st = &shdrs[sh->sh_link];
  if (!inside(f, sh->sh_offset, sh->sh_size) || !inside(f, st->sh_offset, st->sh_size))
    return bad(f, "a symbol table past the end of the file");
  const char *strs = (const char *)f->buf + st->sh_offset;
  uint64_t n = sh->sh_size / sizeof(Elf64_Sym);
  xprof_elf_func *funcs = xprof_arena_alloc(e->arena, (size_t)(n ? n : 1) * sizeof *funcs);
  if (!funcs)
    return xprof_fail_nomem(f->err, f->path);
  uint32_t k = 0, file = XPROF_ELF_NO_FILE;
  for (uint64_t i = 0; i < n; i++) {
    Elf64_Sym s;
    memcpy(&s, f->buf + sh->sh_offset + i * sizeof s, sizeof s);
    int type = ELF64_ST_TYPE(s.st_info);
    if (type == STT_FILE) { /* the local symbols after it are its file's */
      file = (uint32_t)i;
      continue;
    }
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF)
      continue;
    if (s.st_name >= st->sh_size || !memchr(strs + s.st_name, 0, st->sh_size - s.st_name))
      return bad(f, "a symbol name outside its string table");
    const char *name = strs + s.st_name;
    if (!*name)
      continue;
    size_t nlen = strlen(name);
    char *copy = xprof_arena_alloc(e->arena, nlen + 1);
    if (!copy)
      return xprof_fail_nomem(f->err, f->path);
    memcpy(copy, name, nlen + 1);
    funcs[k].name = copy;
    funcs[k].addr = s.st_value;
    funcs[k].size = s.st_size;
    funcs[k].global = ELF64_ST_BIND(s.st_info) != STB_LOCAL;
    funcs[k].file = funcs[k].global ? XPROF_ELF_NO_FILE : file;
    k++;
  }
  if (k > 1)
    xprof_sort(funcs, k, sizeof *funcs, func_cmp);
  /* One function per address: the first of its aliases.  (In an object
   * file addresses are offsets in their sections, the same for functions
   * of different sections: each stands.) */
  uint32_t m = 0;
  for (uint32_t i = 0; i < k; i++)
    if (!m || funcs[i].addr != funcs[m - 1].addr || e->type == ET_REL)
      funcs[m++] = funcs[i];
  e->funcs = funcs;
  e->n_funcs = m;
  e->by_name = xprof_arena_alloc(e->arena, ((size_t)m + 1) * sizeof *e->by_name);
  if (!e->by_name)
    return xprof_fail_nomem(f->err, f->path);
  for (uint32_t i = 0; i < m; i++)
    e->by_name[i] = &funcs[i];
  if (m > 1)
    xprof_sort(e->by_name, m, sizeof *e->by_name, name_cmp);
  return 0;
}

/* The GNU build-id note in a note area, if any. */
static void find_build_id(xprof_elf *e, const unsigned char *p, uint64_t size) {
  while (size >= 12) {
    uint32_t namesz = xprof_get32(p), descsz = xprof_get32(p + 4), type = xprof_get32(p + 8);
    uint64_t name = ((uint64_t)namesz + 3) & ~3ull, desc = ((uint64_t)descsz + 3) & ~3ull;
    if (size - 12 < name || size - 12 - name < desc)
      return;
    if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(p + 12, "GNU", 4) == 0 && descsz &&
        descsz <= XPROF_IMAGE_ID_MAX) {
      memcpy(e->build_id, p + 12 + name, descsz);
      e->build_id_len = descsz;
      return;
    }
    p += 12 + name + desc;
    size -= 12 + name + desc;
  }
}

/* Executable segments and the build-id, from the program headers. */
static int read_segments(struct xprof_elf_file *f, xprof_elf *e, const Elf64_Ehdr *h) {
  if (h->e_phnum && (h->e_phentsize != sizeof(Elf64_Phdr) ||
                     !inside(f, h->e_phoff, (uint64_t)h->e_phnum * sizeof(Elf64_Phdr))))
    return bad(f, "program headers past the end of the file");
  e->segs = xprof_arena_alloc(e->arena, ((size_t)h->e_phnum + 1) * sizeof *e->segs);
  if (!e->segs)
    return xprof_fail_nomem(f->err, f->path);
  for (uint16_t i = 0; i < h->e_phnum; i++) {
    Elf64_Phdr ph;
    memcpy(&ph, f->buf + h->e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
    if (ph.p_type == PT_NOTE && !e->build_id_len && inside(f, ph.p_offset, ph.p_filesz))
      find_build_id(e, f->buf + ph.p_offset, ph.p_filesz);
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) || !ph.p_memsz)
      continue;
    xprof_elf_segment *s = &e->segs[e->n_segs++];
    s->vaddr = ph.p_vaddr;
    s->size = ph.p_memsz;
    /* What the runtime hashes when the image has no build-id. */
    if (ph.p_filesz == ph.p_memsz && inside(f, ph.p_offset, ph.p_filesz))
      s->text_hash = xprof_hash64(f->buf + ph.p_offset, ph.p_filesz);
  }
  return 0;
}

static int parse(struct xprof_elf_file *f, xprof_elf *e) {
  Elf64_Ehdr h;
  if (f->len < sizeof h || memcmp(f->buf, ELFMAG, SELFMAG) != 0)
    return bad(f, "no ELF header");
  memcpy(&h, f->buf, sizeof h);
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB)
    return bad(f, "only 64-bit little-endian ELF is read");
  e->type = h.e_type;
  if (read_segments(f, e, &h) < 0)
    return -1;
  if (!h.e_shnum)
    return 0; /* no sections: no symbols */
  if (h.e_shentsize != sizeof(Elf64_Shdr) ||
      !inside(f, h.e_shoff, (uint64_t)h.e_shnum * sizeof(Elf64_Shdr)))
    return bad(f, "section headers past the end of the file");
  Elf64_Shdr *shdrs = xprof_malloc((size_t)h.e_shnum * sizeof *shdrs);
  if (!shdrs)
    return xprof_fail_nomem(f->err, f->path);
  memcpy(shdrs, f->buf + h.e_shoff, (size_t)h.e_shnum * sizeof *shdrs);
  const Elf64_Shdr *symtab = NULL, *dynsym = NULL;
  for (uint16_t i = 0; i < h.e_shnum; i++) {
    if (shdrs[i].sh_type == SHT_SYMTAB)
      symtab = &shdrs[i];
    else if (shdrs[i].sh_type == SHT_DYNSYM)
      dynsym = &shdrs[i];
    else if (shdrs[i].sh_type == SHT_NOTE && !e->build_id_len &&
             inside(f, shdrs[i].sh_offset, shdrs[i].sh_size))
      find_build_id(e, f->buf + shdrs[i].sh_offset, shdrs[i].sh_size);
  }
  /* The full symbol table when there is one (static functions too). */
  const Elf64_Shdr *use = symtab ? symtab : dynsym;
  e->full_symbols = symtab != NULL;
  int rc = use ? read_symbols(f, e, shdrs, h.e_shnum, use) : 0;
  xprof_free(shdrs);
  return rc;
}

int xprof_elf_parse(const char *path, const unsigned char *buf, size_t len, xprof_elf **out,
                    xprof_error *err) {
  *out = NULL;
  xprof_elf *e = xprof_calloc(1, sizeof *e);
  if (!e || !(e->arena = xprof_arena_new())) {
    xprof_free(e);
    return xprof_fail_nomem(err, path);
  }
  struct xprof_elf_file f = {buf, len, path, err};
  if (parse(&f, e) < 0) {
    xprof_elf_free(e);
    return -1;
  }
  *out = e;
  return 0;
}

int xprof_elf_read(const char *path, xprof_elf **out, xprof_error *err) {
  unsigned char *buf;
  size_t len;
  *out = NULL;
  if (xprof_slurp(path, &buf, &len, err) < 0)
    return -1;
  int rc = xprof_elf_parse(path, buf, len, out, err);
  xprof_free(buf);
  return rc;
}

void xprof_elf_free(xprof_elf *e) {
  if (!e)
    return;
  xprof_arena_free(e->arena);
  xprof_free(e);
}

const xprof_elf_func *xprof_elf_func_at(const xprof_elf *e, uint64_t addr) {
  uint32_t lo = 0, hi = e->n_funcs;
  while (lo < hi) { /* the first function after addr */
    uint32_t mid = lo + (hi - lo) / 2;
    if (e->funcs[mid].addr <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!lo)
    return NULL;
  const xprof_elf_func *fn = &e->funcs[lo - 1];
  /* A function without a size (assembly) reaches to the next one. */
  if (fn->size && addr - fn->addr >= fn->size)
    return NULL;
  return fn;
}

uint32_t xprof_elf_funcs_named(const xprof_elf *e, const char *name, uint32_t *first) {
  uint32_t lo = 0, hi = e->n_funcs;
  while (lo < hi) { /* the first name not before `name` */
    uint32_t mid = lo + (hi - lo) / 2;
    if (strcmp(e->by_name[mid]->name, name) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  uint32_t n = 0;
  while (lo + n < e->n_funcs && strcmp(e->by_name[lo + n]->name, name) == 0)
    n++;
  *first = lo;
  return n;
}

const xprof_elf_func *xprof_elf_func_named(const xprof_elf *e, const char *name) {
  uint32_t first;
  return xprof_elf_funcs_named(e, name, &first) ? e->by_name[first] : NULL;
}

int xprof_elf_matches_image(const xprof_elf *e, const xprof_image *img) {
  if (e->build_id_len)
    return img->id_len == e->build_id_len && memcmp(img->id, e->build_id, e->build_id_len) == 0;
  for (uint32_t i = 0; i < e->n_segs; i++)
    if (e->segs[i].vaddr == img->text_off && e->segs[i].size == img->text_size)
      return img->id_len == 8 && memcmp(img->id, &e->segs[i].text_hash, 8) == 0;
  return 0;
}

/* Calls each(ctx, name, header) for every section with a name, in the
 * file's order, until one returns other than 0; returns that, 0 after the
 * last, -1 when the file is not a 64-bit little-endian ELF file with a
 * section table. */
static int each_section(const unsigned char *buf, size_t len,
                        int (*each)(void *ctx, uint16_t index, const char *name,
                                    const Elf64_Shdr *sh),
                        void *ctx) {
  struct xprof_elf_file f = {buf, len, "", NULL};
  Elf64_Ehdr h;
  if (len < sizeof h || memcmp(buf, ELFMAG, SELFMAG) != 0)
    return -1;
  memcpy(&h, buf, sizeof h);
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB ||
      h.e_shentsize != sizeof(Elf64_Shdr) || h.e_shstrndx >= h.e_shnum ||
      !inside(&f, h.e_shoff, (uint64_t)h.e_shnum * sizeof(Elf64_Shdr)))
    return -1;
  Elf64_Shdr names;
  memcpy(&names, buf + h.e_shoff + (uint64_t)h.e_shstrndx * sizeof names, sizeof names);
  if (!inside(&f, names.sh_offset, names.sh_size))
    return -1;
  for (uint16_t i = 0; i < h.e_shnum; i++) {
    Elf64_Shdr sh;
    memcpy(&sh, buf + h.e_shoff + (uint64_t)i * sizeof sh, sizeof sh);
    if (sh.sh_name >= names.sh_size)
      continue;
    const char *name = (const char *)buf + names.sh_offset + sh.sh_name;
    size_t room = names.sh_size - sh.sh_name;
    if (strnlen(name, room) == room)
      continue;
    int r = each(ctx, i, name, &sh);
    if (r)
      return r;
  }
  return 0;
}

struct wanted {
  const char *name;
  const struct xprof_elf_file *f;
  uint64_t off, size;
};

/* xprof_elf_each_section's step for xprof_elf_section: 1 at the section
 * wanted, -1 when its contents are not in the file (or still compressed:
 * xprof_elf_inflate). */
static int is_wanted(void *ctx, uint16_t index, const char *name, const Elf64_Shdr *sh) {
  (void)index;
  struct wanted *w = ctx;
  if (strcmp(name, w->name) != 0)
    return 0;
  if (sh->sh_type == SHT_NOBITS || (sh->sh_flags & SHF_COMPRESSED) ||
      !inside(w->f, sh->sh_offset, sh->sh_size))
    return -1;
  w->off = sh->sh_offset;
  w->size = sh->sh_size;
  return 1;
}

int xprof_elf_section(const unsigned char *buf, size_t len, const char *want, uint64_t *off,
                      uint64_t *size) {
  struct xprof_elf_file f = {buf, len, "", NULL};
  struct wanted w = {want, &f, 0, 0};
  if (each_section(buf, len, is_wanted, &w) != 1)
    return -1;
  *off = w.off;
  *size = w.size;
  return 0;
}

/* Whether the program headers of the file in f name an interpreter. */
static int has_interpreter(const struct xprof_elf_file *f, const Elf64_Ehdr *h) {
  if (h->e_phentsize != sizeof(Elf64_Phdr) ||
      !inside(f, h->e_phoff, (uint64_t)h->e_phnum * sizeof(Elf64_Phdr)))
    return 0;
  for (uint16_t i = 0; i < h->e_phnum; i++) {
    Elf64_Phdr ph;
    memcpy(&ph, f->buf + h->e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
    if (ph.p_type == PT_INTERP)
      return 1;
  }
  return 0;
}

int xprof_elf_program_dynamic(const unsigned char *buf, size_t len) {
  struct xprof_elf_file f = {buf, len, "", NULL};
  Elf64_Ehdr h;
  if (len < sizeof h || memcmp(buf, ELFMAG, SELFMAG) != 0)
    return -1;
  memcpy(&h, buf, sizeof h);
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB ||
      (h.e_type != ET_EXEC && h.e_type != ET_DYN))
    return -1;
  return has_interpreter(&f, &h);
}

int xprof_elf_program_exports(const unsigned char *buf, size_t len, const char *name) {
  uint64_t sym_off, sym_size, str_off, str_size;
  if (xprof_elf_program_dynamic(buf, len) != 1)
    return -1;
  if (xprof_elf_section(buf, len, ".dynsym", &sym_off, &sym_size) < 0 ||
      xprof_elf_section(buf, len, ".dynstr", &str_off, &str_size) < 0)
    return 0; /* a program that exports nothing */
  for (uint64_t at = 0; at + sizeof(Elf64_Sym) <= sym_size; at += sizeof(Elf64_Sym)) {
    Elf64_Sym sym;
    memcpy(&sym, buf + sym_off + at, sizeof sym);
    if (sym.st_shndx == SHN_UNDEF || sym.st_name >= str_size)
      continue;
    const char *s = (const char *)buf + str_off + sym.st_name;
    size_t room = str_size - sym.st_name;
    if (strnlen(s, room) < room && strcmp(s, name) == 0)
      return 1;
  }
  return 0;
}

/* ---- compressed sections ---------------------------------------------- */

/* The inflated bytes of the compressed sections are put after the file,
 * each at a multiple of 8. */
#define INFLATED_ALIGN 8u
/* zlib makes at most about 1032 bytes of one (deflate's longest match
 * in two bits), zstd at most 128 KiB of four (a block of one byte
 * repeated): a section that says it inflates to more is damaged, and is
 * not given the memory it asks for. */
#define ZLIB_MAX_RATIO 1032u
#define ZSTD_MAX_RATIO 32768u
/* Not in every libc's elf.h yet (glibc has it since 2.37). */
#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

typedef struct inflating {
  const struct xprof_elf_file *f;
  uint64_t total; /* the bytes the inflated sections need */
  unsigned n;     /* how many there are */
  const char *bad; /* a section that cannot be inflated */
  const char *why;
} inflating;

/* A compressed section's header (Elf64_Chdr) at sh's offset: 0, or -1
 * with w->bad and w->why set. */
static int chdr_of(inflating *w, const char *name, const Elf64_Shdr *sh, Elf64_Chdr *c) {
  if (sh->sh_size < sizeof *c || !inside(w->f, sh->sh_offset, sh->sh_size)) {
    w->bad = name, w->why = "its header lies outside the file";
    return -1;
  }
  memcpy(c, w->f->buf + sh->sh_offset, sizeof *c);
  if (c->ch_type != ELFCOMPRESS_ZLIB && c->ch_type != ELFCOMPRESS_ZSTD) {
    w->bad = name;
    w->why = "compressed in a way other than zlib's or zstd's, which is not read";
    return -1;
  }
  uint64_t ratio = c->ch_type == ELFCOMPRESS_ZLIB ? ZLIB_MAX_RATIO : ZSTD_MAX_RATIO;
  if (c->ch_size > (sh->sh_size - sizeof *c) * ratio + 64) {
    w->bad = name;
    w->why = c->ch_type == ELFCOMPRESS_ZLIB
                 ? "it says it inflates to more than zlib makes of its bytes"
                 : "it says it inflates to more than zstd makes of its bytes";
    return -1;
  }
  return 0;
}

/* Inflate n bytes at in, compressed as `type` says, into exactly `size`
 * bytes at out: 0, or -1 when they do not inflate to that. */
static int inflate_one(uint32_t type, unsigned char *out, uint64_t size, const unsigned char *in,
                       uint64_t n) {
  if (type == ELFCOMPRESS_ZSTD) {
    size_t got = ZSTD_decompress(out, (size_t)size, in, (size_t)n);
    return ZSTD_isError(got) || got != size ? -1 : 0;
  }
  uLongf got = (uLongf)size;
  return uncompress(out, &got, in, (uLong)n) != Z_OK || got != size ? -1 : 0;
}

/* each_section's step: count a compressed section's inflated bytes. */
static int measure(void *ctx, uint16_t index, const char *name, const Elf64_Shdr *sh) {
  (void)index;
  inflating *w = ctx;
  Elf64_Chdr c;
  if (!(sh->sh_flags & SHF_COMPRESSED) || sh->sh_type == SHT_NOBITS)
    return 0;
  if (chdr_of(w, name, sh, &c) < 0)
    return -1;
  w->total += (c.ch_size + INFLATED_ALIGN - 1) / INFLATED_ALIGN * INFLATED_ALIGN;
  w->n++;
  return 0;
}

/* Where the inflated sections go: a copy of the file with room after it,
 * out[0..end) used so far. */
typedef struct inflated {
  const struct xprof_elf_file *f;
  unsigned char *out;
  size_t end;
} inflated;

/* each_section's step after measure(), over the same sections: inflate a
 * compressed one to the end of the copy and point the copy's header at
 * it; 0, or -1 when its bytes do not inflate as its header says
 * (measure() checked the header). */
static int inflate_section(void *ctx, uint16_t index, const char *name, const Elf64_Shdr *sh) {
  (void)name;
  inflated *w = ctx;
  if (!(sh->sh_flags & SHF_COMPRESSED) || sh->sh_type == SHT_NOBITS)
    return 0;
  Elf64_Chdr c;
  memcpy(&c, w->f->buf + sh->sh_offset, sizeof c);
  if (inflate_one(c.ch_type, w->out + w->end, c.ch_size, w->f->buf + sh->sh_offset + sizeof c,
                  sh->sh_size - sizeof c) < 0)
    return -1;
  Elf64_Ehdr h;
  memcpy(&h, w->f->buf, sizeof h);
  Elf64_Shdr now = *sh;
  now.sh_offset = w->end;
  now.sh_size = c.ch_size;
  now.sh_flags &= ~(uint64_t)SHF_COMPRESSED;
  memcpy(w->out + h.e_shoff + (uint64_t)index * sizeof now, &now, sizeof now);
  w->end += (c.ch_size + INFLATED_ALIGN - 1) / INFLATED_ALIGN * INFLATED_ALIGN;
  return 0;
}

int xprof_elf_inflate(const char *path, unsigned char **buf, size_t *len, xprof_error *err) {
  struct xprof_elf_file f = {*buf, *len, path, err};
  inflating w = {&f, 0, 0, NULL, NULL};
  int rc = each_section(*buf, *len, measure, &w);
  if (rc == -1 && w.bad)
    return xprof_fail(err, XPROF_ERR_FORMAT, "%s: section %s: %s", path, w.bad, w.why);
  if (rc < 0 || !w.n)
    return 0; /* not a file of ours to read, or nothing compressed */
  size_t start = (*len + INFLATED_ALIGN - 1) / INFLATED_ALIGN * INFLATED_ALIGN;
  unsigned char *out = (uint64_t)start + w.total <= SIZE_MAX ? xprof_calloc(start + w.total, 1)
                                                             : NULL;
  if (!out)
    return xprof_fail_nomem(err, path);
  memcpy(out, *buf, *len);
  /* The sections measured, walked again from the original: the copy's
   * headers change as they are inflated. */
  inflated into = {&f, out, start};
  if (each_section(*buf, *len, inflate_section, &into) != 0) {
    xprof_free(out);
    return xprof_fail(err, XPROF_ERR_FORMAT,
                      "%s: a compressed section does not inflate to the size its header "
                      "gives (damaged?)",
                      path);
  }
  xprof_free(*buf);
  *buf = out;
  *len = into.end;
  return 0;
}

int xprof_elf_slurp(const char *path, unsigned char **buf, size_t *len, xprof_error *err) {
  if (xprof_slurp(path, buf, len, err) < 0)
    return -1;
  if (xprof_elf_inflate(path, buf, len, err) < 0) {
    xprof_free(*buf);
    *buf = NULL;
    return -1;
  }
  return 0;
}

struct named {
  int (*each)(void *ctx, const char *name);
  void *ctx;
};

static int by_name_only(void *ctx, uint16_t index, const char *name, const Elf64_Shdr *sh) {
  (void)index;
  (void)sh;
  const struct named *n = ctx;
  return n->each(n->ctx, name);
}

int xprof_elf_section_names(const unsigned char *buf, size_t len,
                            int (*each)(void *ctx, const char *name), void *ctx) {
  struct named n = {each, ctx};
  return each_section(buf, len, by_name_only, &n);
}

char *xprof_elf_debug_path(const xprof_elf *e) {
  if (!e->build_id_len)
    return NULL;
  char hex[2 * XPROF_IMAGE_ID_MAX + 1];
  for (uint32_t i = 0; i < e->build_id_len; i++)
    snprintf(hex + 2 * i, 3, "%02x", e->build_id[i]);
  return xprof_format("/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
}
