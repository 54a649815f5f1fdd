/*
 * fuzz_text.c - libFuzzer target for the text reader.  Besides not
 * crashing, every accepted input must be stable: its canonical text reads
 * back to the same canonical text, and its binary form reads back to the
 * same binary bytes and converts to the same text (text is binary data's
 * lossless twin).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xprof.h"

static char *to_text(const xprof_profile *p, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  xprof_error err;
  if (!f || xprof_text_write_stream(p, f, "mem", &err) < 0)
    __builtin_trap();
  fclose(f);
  return buf;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  xprof_profile *p, *q, *r;
  xprof_error err;
  if (xprof_text_parse("fuzz", (const char *)data, size, &p, &err) < 0) {
    if (!err.msg[0])
      __builtin_trap(); /* every failure says why */
    return 0;
  }
  size_t n1, n2, b1n, b2n;
  char *t1 = to_text(p, &n1);
  if (xprof_text_parse("again", t1, n1, &q, &err) < 0)
    __builtin_trap();
  char *t2 = to_text(q, &n2);
  if (n1 != n2 || memcmp(t1, t2, n1) != 0)
    __builtin_trap();

  unsigned char *b1, *b2;
  if (xprof_binary_serialize(p, &b1, &b1n, &err) < 0)
    __builtin_trap();
  unsigned char *copy = malloc(b1n);
  memcpy(copy, b1, b1n);
  if (xprof_binary_parse("bin", copy, b1n, &r, &err) < 0)
    __builtin_trap();
  if (xprof_binary_serialize(r, &b2, &b2n, &err) < 0 || b1n != b2n ||
      memcmp(b1, b2, b1n) != 0)
    __builtin_trap();
  size_t n3;
  char *t3 = to_text(r, &n3); /* text -> binary -> text: the same text */
  if (n3 != n1 || memcmp(t1, t3, n1) != 0)
    __builtin_trap();
  free(t3);
  free(t1);
  free(t2);
  free(b1);
  free(b2);
  xprof_profile_free(p);
  xprof_profile_free(q);
  xprof_profile_free(r);
  return 0;
}
