/*
 * libc_symbol.c - a loaded function found by its name without dlsym.
 *
 * The runtime registers its quick_exit handler through a function it
 * must not reference by name: an instrumented shared library carries a
 * copy of the runtime, and some libraries check at their build that they
 * reference no function with "exit" in its name but __cxa_atexit
 * (PostgreSQL's libpq: nm -u | grep exit).  dlsym would find it, but
 * glibc's dlsym may call malloc and free (it frees the error a dl call
 * before it left, and allocates one when the name is not found), and the
 * runtime never calls the program's allocator (GCC PR 97461;
 * test/lit/runtime/own-memory.c).  So the loaded modules' dynamic symbol
 * tables are read directly: dl_iterate_phdr allocates nothing.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <string.h>

#include "rt_internal.h"

struct lookup {
  const char *name;
  void *found;
  const void *self; /* an address in a module to pass over, or NULL */
  int after_self;   /* and only the modules after it are looked in */
  int passed;       /* the module holding self was seen */
  const char *skip; /* modules that define this function are passed over */
};

/* A dynamic-section address: glibc's loader relocates the entries it
 * reads, other loaders (and the vDSO's) leave them relative to base. */
static const void *dyn_ptr(const struct dl_phdr_info *info, ElfW(Addr) p) {
  return (const void *)(p < info->dlpi_addr ? p + info->dlpi_addr : p);
}

/* The number of symbols of a table that has only a GNU hash: one past the
 * last symbol any chain reaches, or the unhashed ones alone (symoffset)
 * when every bucket is empty. */
static uint32_t gnu_hash_symbols(const uint32_t *h) {
  uint32_t nbuckets = h[0], symoffset = h[1], bloom = h[2];
  const uint32_t *buckets = h + 4 + bloom * (sizeof(ElfW(Addr)) / 4);
  const uint32_t *chain = buckets + nbuckets;
  uint32_t last = 0;
  for (uint32_t b = 0; b < nbuckets; b++)
    if (buckets[b] > last)
      last = buckets[b];
  if (last == 0 || last < symoffset)
    return symoffset;
  while (!(chain[last - symoffset] & 1))
    last++;
  return last + 1;
}

/* A module's dynamic symbols. */
struct symbols {
  const ElfW(Sym) *syms;
  const char *strs;
  const ElfW(Half) *versym; /* each symbol's version, or NULL */
  uint32_t n;
};

/* The function name among one module's defined ones, or NULL.  Only its
 * default version, as the loader and dlsym take it: a name with older
 * versions kept for old programs (name@GLIBC_2.2.5 beside name@@GLIBC_2.34)
 * has other functions there. */
static void *defined(const struct dl_phdr_info *info, const struct symbols *t,
                     const char *name) {
  /* ELF32_ST_TYPE and ELF64_ST_TYPE are the same (so the BINDs). */
  for (uint32_t i = 0; i < t->n; i++) {
    const ElfW(Sym) *s = &t->syms[i];
    if (t->versym && (t->versym[i] & 0x8000)) /* hidden: not the default version */
      continue;
    if (s->st_shndx != SHN_UNDEF && ELF64_ST_TYPE(s->st_info) == STT_FUNC &&
        ELF64_ST_BIND(s->st_info) != STB_LOCAL && strcmp(t->strs + s->st_name, name) == 0)
      return (void *)(info->dlpi_addr + s->st_value);
  }
  return NULL;
}

/* Whether address p lies in one of the module's segments. */
static int holds(const struct dl_phdr_info *info, const void *p) {
  for (int i = 0; p && i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && (uintptr_t)p >= start && (uintptr_t)p - start < ph->p_memsz)
      return 1;
  }
  return 0;
}

/* dl_iterate_phdr's callback: the name among one module's defined
 * functions.  Returns 1 (stop) when found. */
static int find_in_module(struct dl_phdr_info *info, size_t size, void *arg) {
  struct lookup *l = arg;
  const ElfW(Dyn) *dyn = NULL;
  (void)size;
  if (holds(info, l->self)) {
    l->passed = 1;
    return 0;
  }
  if (l->after_self && !l->passed)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (!dyn)
    return 0;
  struct symbols t = {NULL, NULL, NULL, 0};
  for (; dyn->d_tag != DT_NULL; dyn++) {
    if (dyn->d_tag == DT_SYMTAB)
      t.syms = dyn_ptr(info, dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_STRTAB)
      t.strs = dyn_ptr(info, dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_VERSYM)
      t.versym = dyn_ptr(info, dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_HASH)
      t.n = ((const uint32_t *)dyn_ptr(info, dyn->d_un.d_ptr))[1];
    else if (dyn->d_tag == DT_GNU_HASH && !t.n)
      t.n = gnu_hash_symbols(dyn_ptr(info, dyn->d_un.d_ptr));
  }
  if (!t.syms || !t.strs || (l->skip && defined(info, &t, l->skip)))
    return 0;
  l->found = defined(info, &t, l->name);
  return l->found != NULL;
}

void *rt_loaded_function(const char *name) {
  struct lookup l = {name, NULL, NULL, 0, 0, NULL};
  dl_iterate_phdr(find_in_module, &l);
  return l.found;
}

/* As dlsym(RTLD_NEXT) finds it (the modules are listed in load order,
 * which is the order of the global scope), and if none after, the first
 * before (a library's copy of the runtime, dlopen'ed after the C library).
 * Other copies of the runtime (instrumented libraries', the preloaded
 * sampler's) are passed over: theirs would only stand in front again. */
void *rt_next_function(const char *name, const void *self) {
  struct lookup l = {name, NULL, self, 1, 0, XPROF_ABI_STR(XPROF_REGISTER)};
  dl_iterate_phdr(find_in_module, &l);
  if (!l.found) {
    l.after_self = 0;
    dl_iterate_phdr(find_in_module, &l);
  }
  return l.found;
}

void *rt_next_function_or(const char *name, const void *self, void *fallback) {
  void *f = rt_next_function(name, self);
  return f ? f : fallback;
}

void *rt_next_function_once(void **slot, const char *name, const void *self, void *fallback) {
  void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (!f) {
    f = rt_next_function_or(name, self, fallback);
    __atomic_store_n(slot, f, __ATOMIC_RELEASE);
  }
  return f;
}
