/*
 * memory.c - the runtime's own memory: libxprof's four allocation
 * functions (xprof.h) on anonymous mappings, for the runtime and its copy
 * of libxprof alike.
 *
 * The runtime lives inside programs that may replace malloc: with an
 * allocator that traps when entered from inside itself, that has no
 * realloc, or whose malloc is instrumented code that calls back into the
 * runtime (libgcov learnt the same, GCC PR 97461).  So nothing here, and
 * nothing the runtime calls for its own data, reaches the program's
 * malloc, calloc, realloc or free.
 *
 * Requests up to MAX_SMALL bytes get a block of a power-of-two size
 * (header included) carved from a chunk of CHUNK bytes; a freed block goes
 * on the free list of its size and is reused.  Larger requests get a
 * mapping of their own, unmapped when freed.  The 16-byte header before
 * each block holds the size asked for and, while the block is free, the
 * next free block: a free block's own bytes are never touched.
 *
 * Under valgrind the blocks are described to memcheck as malloc's, so that a leak, a
 * read of freed or uninitialized memory or an overrun in the runtime shows
 * as it would with malloc, and blocks the runtime still points at are
 * reachable, not lost.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "rt_internal.h"

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define HAVE_MEMCHECK 1
#endif
#endif
#ifndef HAVE_MEMCHECK
#define VALGRIND_MALLOCLIKE_BLOCK(addr, size, rz, zeroed) ((void)0)
#define VALGRIND_FREELIKE_BLOCK(addr, rz) ((void)0)
#define VALGRIND_MAKE_MEM_NOACCESS(addr, len) ((void)0)
#define VALGRIND_MAKE_MEM_DEFINED(addr, len) ((void)0)
#endif
/* The same for AddressSanitizer, when the runtime's tests build it so. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(addr, len) ASAN_POISON_MEMORY_REGION(addr, len)
#define UNPOISON(addr, len) ASAN_UNPOISON_MEMORY_REGION(addr, len)
#else
#define POISON(addr, len) ((void)0)
#define UNPOISON(addr, len) ((void)0)
#endif

#define CHUNK ((size_t)1 << 20)
#define MIN_SHIFT 5                  /* the smallest block: 32 bytes */
#define N_CLASSES 12                 /* 32 bytes to 64 KiB */
#define MAX_BLOCK ((size_t)1 << (MIN_SHIFT + N_CLASSES - 1))

struct header {
  size_t size;         /* bytes asked for */
  struct header *next; /* the next free block of its class, while free */
};
#define HDR sizeof(struct header)

static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct header *free_list[N_CLASSES];
static char *chunk_next, *chunk_end; /* what is left of the current chunk */

/* rt_busy around the lock, as rt_enter and rt_leave keep it. */
static void enter(void) {
  rt_busy++;
  pthread_mutex_lock(&mem_lock);
}

static void leave(void) {
  pthread_mutex_unlock(&mem_lock);
  rt_busy--;
}

/* fork: the child must not inherit the lock held by a thread it lacks. */
void rt_memory_fork_prepare(void) { enter(); }
void rt_memory_fork_done(void) { leave(); }

static void *map(size_t len) {
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* The class of a block for `size` bytes, or N_CLASSES when too large. */
static unsigned class_of(size_t size) {
  unsigned c = 0;
  while (c < N_CLASSES && ((size_t)1 << (MIN_SHIFT + c)) - HDR < size)
    c++;
  return c;
}

/* A block of class c from the free list or the current chunk (*fresh:
 * never used, so zero but for its header); the caller holds the lock. */
static struct header *take_block(unsigned c, int *fresh) {
  size_t bytes = (size_t)1 << (MIN_SHIFT + c);
  struct header *h = free_list[c];
  *fresh = !h;
  if (h) {
    free_list[c] = h->next;
    return h;
  }
  if ((size_t)(chunk_end - chunk_next) < bytes) {
    char *fresh = map(CHUNK); /* the rest of the old chunk is left unused */
    if (!fresh)
      return NULL;
    VALGRIND_MAKE_MEM_NOACCESS(fresh, CHUNK);
    POISON(fresh, CHUNK);
    chunk_next = fresh;
    chunk_end = fresh + CHUNK;
  }
  h = (struct header *)(void *)chunk_next;
  chunk_next += bytes;
  VALGRIND_MAKE_MEM_DEFINED(h, HDR);
  UNPOISON(h, HDR);
  return h;
}

/* A block of size bytes; *fresh says whether it is new memory from the
 * system, never used before (and so zero).  NULL when out of memory. */
static void *allocate(size_t size, int *fresh) {
  if (size > SIZE_MAX - CHUNK)
    return NULL;
  unsigned c = class_of(size);
  struct header *h;
  if (c == N_CLASSES) {
    size_t len = (size + HDR + 4095) & ~(size_t)4095;
    h = map(len);
    *fresh = 1;
  } else {
    enter();
    h = take_block(c, fresh);
    leave();
  }
  if (!h)
    return NULL;
  h->size = size;
  h->next = NULL;
  VALGRIND_MALLOCLIKE_BLOCK(h + 1, size, 0, 0);
  UNPOISON(h + 1, size);
  return h + 1;
}

void *xprof_malloc(size_t size) {
  int fresh;
  return allocate(size, &fresh);
}

void xprof_free(void *block) {
  if (!block)
    return;
  struct header *h = (struct header *)block - 1;
  VALGRIND_FREELIKE_BLOCK(block, 0);
  unsigned c = class_of(h->size);
  if (c == N_CLASSES) {
    munmap(h, (h->size + HDR + 4095) & ~(size_t)4095);
    return;
  }
  POISON(block, h->size);
  enter();
  h->next = free_list[c];
  free_list[c] = h;
  leave();
}

void *xprof_calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size)
    return NULL;
  /* A block never used before is zero already: zeroing it again would
   * only fault in its pages (a large table the caller fills sparsely,
   * an arena's block). */
  int fresh;
  void *p = allocate(n * size, &fresh);
  if (p && !fresh)
    memset(p, 0, n * size);
  else if (p)
    VALGRIND_MAKE_MEM_DEFINED(p, n * size); /* zero, as calloc's is */
  return p;
}

void *xprof_realloc(void *block, size_t size) {
  if (!block)
    return xprof_malloc(size);
  struct header *h = (struct header *)block - 1;
  size_t old = h->size;
  void *p = xprof_malloc(size);
  if (!p)
    return NULL; /* the old block stays, as realloc promises */
  memcpy(p, block, old < size ? old : size);
  xprof_free(block);
  return p;
}
