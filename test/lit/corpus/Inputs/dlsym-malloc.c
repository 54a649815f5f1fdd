/* malloc, calloc and free that count through an indirect call and then
 * forward to the C library's, found with dlsym(RTLD_NEXT).  dlsym itself
 * may call calloc before the real one is known: a static pool serves
 * those calls. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void (*next_free)(void *);
static _Alignas(16) char pool[1 << 16];
static size_t pool_used;
static size_t calls;

static void note(size_t n) { calls += n != 0; }
void (*volatile dlsym_hook)(size_t) = note;

static void find_next(void) {
  static int finding;
  if (finding)
    return;
  finding = 1;
  next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
  next_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
  next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
  finding = 0;
}

static void *from_pool(size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (pool_used + n > sizeof pool)
    __builtin_trap();
  void *p = pool + pool_used;
  pool_used += n;
  return p; /* static memory: zero already */
}

void *malloc(size_t n) {
  if (!next_malloc)
    find_next();
  if (!next_malloc)
    return from_pool(n);
  dlsym_hook(n);
  return next_malloc(n);
}

void *calloc(size_t n, size_t size) {
  if (!next_calloc)
    find_next();
  if (!next_calloc)
    return from_pool(n * size);
  dlsym_hook(n * size);
  return next_calloc(n, size);
}

void free(void *p) {
  if (!p || ((char *)p >= pool && (char *)p < pool + sizeof pool))
    return;
  if (!next_free)
    find_next();
  next_free(p);
}

size_t dlsym_calls(void) { return calls; }
