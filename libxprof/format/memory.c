/*
 * memory.c - libxprof's allocator for the tools and the compiler plugins:
 * the C library's.  The runtime does not link this file; it defines the
 * same four functions on memory of its own (runtime/memory.c).
 */
#include <stdlib.h>

#include "xprof.h"

void *xprof_malloc(size_t size) { return malloc(size); }
void *xprof_calloc(size_t n, size_t size) { return calloc(n, size); }
void *xprof_realloc(void *block, size_t size) { return realloc(block, size); }
void xprof_free(void *block) { free(block); }
