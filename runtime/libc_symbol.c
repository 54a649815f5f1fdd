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

/* A module's dynamic symbols and their hash table: the GNU one where
 * the module has it (every module linked on a current distribution),
 * else the System V one.  A lookup follows the name's hash chain, as the
 * loader does: a scan of the whole table (libc's has thousands of
 * symbols) for each of the dozen functions looked up at start-up cost
 * every process of a collect build half a millisecond. */
struct symbols {
  const ElfW(Sym) *syms;
  const char *strs;
  const ElfW(Half) *versym; /* each symbol's version, or NULL */
  const uint32_t *gnu_hash, *sysv_hash;
};

/* Whether symbol i is the function `name` as the loader binds it: a
 * global or weak function defined here, in its default version (a name
 * with older versions kept for old programs, name@GLIBC_2.2.5 beside
 * name@@GLIBC_2.34, has other functions there). */
static int is_function(const struct symbols *t, uint32_t i, const char *name) {
  const ElfW(Sym) *s = &t->syms[i];
  if (t->versym && (t->versym[i] & 0x8000)) /* hidden: not the default version */
    return 0;
  /* ELF32_ST_TYPE and ELF64_ST_TYPE are the same (so the BINDs). */
  return s->st_shndx != SHN_UNDEF && ELF64_ST_TYPE(s->st_info) == STT_FUNC &&
         ELF64_ST_BIND(s->st_info) != STB_LOCAL && strcmp(t->strs + s->st_name, name) == 0;
}

/* The GNU hash table's lookup: a Bloom filter, then the name's bucket,
 * whose chain ends at an entry with its low bit set.  Returns the
 * symbol's index, or 0 (the undefined symbol). */
static uint32_t gnu_lookup(const struct symbols *t, const char *name) {
  uint32_t h = 5381;
  for (const unsigned char *c = (const unsigned char *)name; *c; c++)
    h = h * 33 + *c;
  const uint32_t *g = t->gnu_hash;
  uint32_t nbuckets = g[0], symoffset = g[1], bloom_size = g[2], shift = g[3];
  const ElfW(Addr) *bloom = (const ElfW(Addr) *)(const void *)(g + 4);
  const uint32_t *buckets = (const uint32_t *)(const void *)(bloom + bloom_size);
  const uint32_t *chain = buckets + nbuckets;
  const unsigned bits = sizeof(ElfW(Addr)) * 8;
  if (!nbuckets || !bloom_size)
    return 0;
  ElfW(Addr) word = bloom[(h / bits) & (bloom_size - 1)];
  ElfW(Addr) mask = (ElfW(Addr))1 << (h % bits) | (ElfW(Addr))1 << ((h >> shift) % bits);
  if ((word & mask) != mask)
    return 0;
  uint32_t i = buckets[h % nbuckets];
  if (i < symoffset)
    return 0;
  for (;; i++) {
    uint32_t ch = chain[i - symoffset];
    if ((ch | 1) == (h | 1) && is_function(t, i, name))
      return i;
    if (ch & 1)
      return 0;
  }
}

/* The System V hash table's lookup (DT_HASH): the same answer. */
static uint32_t sysv_lookup(const struct symbols *t, const char *name) {
  uint32_t h = 0;
  for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
    h = (h << 4) + *c;
    uint32_t g = h & 0xf0000000u;
    h ^= g >> 24;
    h &= ~g;
  }
  const uint32_t *ht = t->sysv_hash;
  uint32_t nbucket = ht[0], nchain = ht[1];
  const uint32_t *bucket = ht + 2, *chain = bucket + nbucket;
  if (!nbucket)
    return 0;
  /* At most nchain steps: a damaged chain must not loop. */
  uint32_t steps = 0;
  for (uint32_t i = bucket[h % nbucket]; i && i < nchain && steps++ < nchain; i = chain[i])
    if (is_function(t, i, name))
      return i;
  return 0;
}

/* The function name among one module's defined ones, or NULL. */
static void *defined(const struct dl_phdr_info *info, const struct symbols *t,
                     const char *name) {
  uint32_t i = t->gnu_hash    ? gnu_lookup(t, name)
               : t->sysv_hash ? sysv_lookup(t, name)
                              : 0;
  return i ? (void *)(info->dlpi_addr + t->syms[i].st_value) : NULL;
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
  struct symbols t = {NULL, NULL, NULL, NULL, NULL};
  for (; dyn->d_tag != DT_NULL; dyn++) {
    if (dyn->d_tag == DT_SYMTAB)
      t.syms = dyn_ptr(info, dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_STRTAB)
      t.strs = dyn_ptr(info, dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_VERSYM)
      t.versym = dyn_ptr(info, dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_HASH)
      t.sysv_hash = dyn_ptr(info, dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_GNU_HASH)
      t.gnu_hash = dyn_ptr(info, dyn->d_un.d_ptr);
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
