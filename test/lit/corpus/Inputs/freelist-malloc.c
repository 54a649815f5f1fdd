/* A complete replacement allocator: malloc, calloc, realloc, free,
 * posix_memalign, aligned_alloc, memalign and malloc_usable_size over
 * power-of-two free lists in a static arena.  Nothing of glibc's malloc
 * is left in use. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define CLASSES 24
static _Alignas(64) unsigned char arena[64 << 20];
static size_t top;
static void *lists[CLASSES];
static unsigned long live;

struct head {
  size_t cls;
  size_t pad;
};

static unsigned class_for(size_t n) {
  unsigned c = 4;
  while (((size_t)1 << c) < n + sizeof(struct head))
    c++;
  return c;
}

static void *take(size_t n, size_t align) {
  unsigned c = class_for(n + align);
  if (c >= CLASSES)
    return NULL;
  unsigned char *block = lists[c];
  if (block) {
    lists[c] = *(void **)(block + sizeof(struct head));
  } else {
    if (top + ((size_t)1 << c) > sizeof arena)
      return NULL;
    block = arena + top;
    top += (size_t)1 << c;
  }
  ((struct head *)block)->cls = c;
  unsigned char *user = block + sizeof(struct head);
  if (align > 16) {
    size_t off = (size_t)(-(uintptr_t)user & (align - 1));
    user += off;
    ((struct head *)(user - sizeof(struct head)))->cls = c;
    ((struct head *)(user - sizeof(struct head)))->pad = off;
  } else {
    ((struct head *)block)->pad = 0;
  }
  live++;
  return user;
}

static struct head *head_of(void *p) { return (struct head *)p - 1; }

void *malloc(size_t n) { return take(n, 0); }

void free(void *p) {
  if (!p)
    return;
  struct head *h = head_of(p);
  unsigned char *block = (unsigned char *)p - h->pad - sizeof(struct head);
  size_t c = h->cls;
  *(void **)(block + sizeof(struct head)) = lists[c];
  lists[c] = block;
  live--;
}

void *calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size)
    return NULL;
  void *p = take(n * size, 0);
  if (p)
    memset(p, 0, n * size);
  return p;
}

size_t malloc_usable_size(void *p) {
  struct head *h = head_of(p);
  return ((size_t)1 << h->cls) - sizeof(struct head) - h->pad;
}

void *realloc(void *p, size_t n) {
  if (!p)
    return take(n, 0);
  size_t have = malloc_usable_size(p);
  if (n <= have)
    return p;
  void *q = take(n, 0);
  if (q) {
    memcpy(q, p, have);
    free(p);
  }
  return q;
}

int posix_memalign(void **out, size_t align, size_t n) {
  void *p = take(n, align);
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}

void *aligned_alloc(size_t align, size_t n) { return take(n, align); }
void *memalign(size_t align, size_t n) { return take(n, align); }

unsigned long freelist_live(void) { return live; }
