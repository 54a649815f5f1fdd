/*
 * fuzz_binary.c - libFuzzer target for the binary reader and the index
 * lookup.  Accepted input must rewrite stably, convert to text and back
 * to the same bytes, and every object file it holds must be found through
 * the index with the same contents.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xprof.h"

static char path[64];

static void check_lookups(const xprof_profile *p, const unsigned char *data,
                          size_t size) {
  xprof_error err;
  if (!path[0])
    snprintf(path, sizeof path, "/tmp/xprof-fuzz-%d.feedback", (int)getpid());
  FILE *f = fopen(path, "wb");
  if (!f)
    return;
  fwrite(data, 1, size, f);
  fclose(f);
  for (uint32_t i = 0; p && i < p->n_objfiles; i++) {
    xprof_profile *one;
    if (xprof_binary_lookup(path, p->objfiles[i].path, &one, &err) < 0)
      continue; /* a damaged index may hide an object file; no crash */
    const xprof_objfile *o = xprof_find_objfile(one, p->objfiles[i].path);
    if (!o || o->signature != p->objfiles[i].signature ||
        o->n_procs != p->objfiles[i].n_procs)
      __builtin_trap();
    xprof_profile_free(one);
  }
  xprof_profile *none;
  if (xprof_binary_lookup(path, "/fuzz/absent.o", &none, &err) == 0)
    xprof_profile_free(none);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  xprof_profile *p, *q;
  xprof_error err;
  unsigned char *copy = malloc(size ? size : 1);
  memcpy(copy, data, size);
  if (xprof_binary_parse("fuzz", copy, size, &p, &err) < 0) {
    if (!err.msg[0])
      __builtin_trap();
    check_lookups(NULL, data, size);
    return 0;
  }
  check_lookups(p, data, size);
  unsigned char *b1, *b2;
  size_t n1, n2;
  if (xprof_binary_serialize(p, &b1, &n1, &err) < 0)
    __builtin_trap();
  copy = malloc(n1);
  memcpy(copy, b1, n1);
  if (xprof_binary_parse("again", copy, n1, &q, &err) < 0)
    __builtin_trap();
  if (xprof_binary_serialize(q, &b2, &n2, &err) < 0 || n1 != n2 ||
      memcmp(b1, b2, n1) != 0)
    __builtin_trap();
  { /* text is binary data's lossless twin */
    char *t = NULL;
    size_t tn = 0;
    FILE *f = open_memstream(&t, &tn);
    xprof_profile *r;
    unsigned char *b3;
    size_t n3;
    if (xprof_text_write_stream(p, f, "mem", &err) < 0)
      __builtin_trap();
    fclose(f);
    if (xprof_text_parse("text", t, tn, &r, &err) < 0 ||
        xprof_binary_serialize(r, &b3, &n3, &err) < 0 || n3 != n1 ||
        memcmp(b3, b1, n1) != 0)
      __builtin_trap();
    free(t);
    free(b3);
    xprof_profile_free(r);
  }
  free(b1);
  free(b2);
  xprof_profile_free(p);
  xprof_profile_free(q);
  return 0;
}
