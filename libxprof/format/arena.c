/*
 * arena.c - bump allocation for the many small pieces of a profile
 * (strings, counter arrays, value-profile records).  A profile with half a
 * million procedures would otherwise cost millions of malloc calls.
 */
#include <stdlib.h>

#include "internal.h"

/* Blocks grow from ARENA_FIRST to ARENA_CHUNK, each twice the one before:
 * a profile of many procedures gets large blocks and few calls, and the
 * arena of a small piece of work (the symbols of one object, read for
 * each of the hundreds of objects of a link) touches little memory.  A
 * block's memory is zeroed by calloc, which zeroes it all when glibc
 * serves it from the heap (as it does once a large block was freed,
 * raising its mmap threshold), not only what the arena hands out. */
#define ARENA_FIRST ((size_t)1 << 14)
#define ARENA_CHUNK ((size_t)1 << 20)

struct block {
  struct block *next;
  size_t used, size;
  /* data follows, 16-byte aligned */
};

struct xprof_arena {
  struct block *blocks;  /* current block first */
  size_t next_size;      /* the size of the next ordinary block */
  void **adopted;        /* whole malloc'd buffers (e.g. a binary file) */
  uint32_t n_adopted, cap_adopted;
};

#define HDR (((sizeof(struct block) + 15) / 16) * 16)

struct xprof_arena *xprof_arena_new(void) {
  return xprof_calloc(1, sizeof(struct xprof_arena));
}

void xprof_arena_free(struct xprof_arena *a) {
  if (!a)
    return;
  for (struct block *b = a->blocks, *next; b; b = next) {
    next = b->next;
    xprof_free(b);
  }
  for (uint32_t i = 0; i < a->n_adopted; i++)
    xprof_free(a->adopted[i]);
  xprof_free(a->adopted);
  xprof_free(a);
}

void *xprof_arena_alloc(struct xprof_arena *a, size_t size) {
  size = (size + 15) & ~(size_t)15;
  struct block *b = a->blocks;
  if (!b || b->size - b->used < size) {
    /* Large requests get a block of their own, placed behind the current
     * one so that the remainder of the current block stays usable. */
    size_t step = a->next_size ? a->next_size : ARENA_FIRST;
    int own = size > step / 4;
    size_t want = own ? size : step;
    /* Zeroed once here, not piece by piece: a block is never reused. */
    struct block *nb = xprof_calloc(1, HDR + want);
    if (!nb)
      return NULL;
    nb->used = 0;
    nb->size = want;
    if (!own && step < ARENA_CHUNK)
      a->next_size = 2 * step;
    if (b && own) {
      nb->next = b->next;
      b->next = nb;
    } else {
      nb->next = b;
      a->blocks = nb;
    }
    b = nb;
  }
  void *p = (char *)b + HDR + b->used;
  b->used += size;
  return p;
}

int xprof_arena_adopt(struct xprof_arena *a, void *block) {
  if (xprof_grow((void **)&a->adopted, &a->cap_adopted, a->n_adopted,
                 sizeof(void *)) < 0)
    return -1;
  a->adopted[a->n_adopted++] = block;
  return 0;
}

int xprof_grow(void **array, uint32_t *cap, uint32_t n, size_t elem) {
  if (n < *cap)
    return 0;
  if (*cap >= UINT32_MAX / 2)
    return -1;
  uint32_t ncap = *cap ? *cap * 2 : 8;
  void *na = xprof_realloc(*array, (size_t)ncap * elem);
  if (!na)
    return -1;
  *array = na;
  *cap = ncap;
  return 0;
}
