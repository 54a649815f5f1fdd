/* A bump allocator over a static array: malloc, calloc and free, but no
 * realloc (glibc's realloc then sees pointers it never made), a trap when
 * entered from inside itself, and an indirect call in malloc (a value-
 * profiled site inside the allocator). */
#include <stddef.h>
#include <string.h>

static _Alignas(16) char heap[32 << 20];
static size_t used;
static int inside;
static size_t requests;

static void count_request(size_t n) { requests += n > 0; }
void (*volatile bump_hook)(size_t) = count_request;

static void *bump(size_t n) {
  if (inside)
    __builtin_trap();
  inside = 1;
  bump_hook(n);
  size_t need = (n + 15) & ~(size_t)15;
  void *p = NULL;
  if (used + need + 16 <= sizeof heap) {
    memcpy(heap + used, &n, sizeof n);
    p = heap + used + 16;
    used += need + 16;
  }
  inside = 0;
  return p;
}

void *malloc(size_t n) { return bump(n); }

/* Not malloc and memset: GCC would make that a call to calloc. */
void *calloc(size_t n, size_t size) {
  if (size && n > (size_t)-1 / size)
    return NULL;
  void *p = bump(n * size);
  if (p)
    memset(p, 0, n * size);
  return p;
}

void free(void *p) { (void)p; }

size_t bump_requests(void) { return requests; }
