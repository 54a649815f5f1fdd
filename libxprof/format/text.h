/*
 * text.h - the text reader's state and its line and field helpers
 * (text_lex.c), shared by the 3.1 grammar (text_read.c) and xprof's
 * extension lines (text_ext.c).  Not installed.
 */
#ifndef XPROF_TEXT_H
#define XPROF_TEXT_H

#include "internal.h"

#define XPROF_TR_MAX_TOKENS 12

typedef struct text_reader {
  const char *name;
  const char *p, *end;
  uint64_t line;
  int ntok;
  const char *tok[XPROF_TR_MAX_TOKENS];
  size_t len[XPROF_TR_MAX_TOKENS];
  int pending; /* the current line has not been consumed yet */
  int ext;     /* "#+" lines are lines, not comments (text_ext.c) */
  xprof_profile *prof;
  xprof_error *err;
  char *scratch; /* for unescaping; as long as the longest line */
  size_t scratch_cap;
} text_reader;

/* Every function that fails sets r->err with "FILE:LINE: message" and
 * returns -1. */
int xprof_tr_fail(text_reader *r, const char *fmt, ...) XPROF_PRINTF(2, 3);
/* Token i quoted for a message, in buf (n bytes), or "end of line". */
const char *xprof_tr_show(text_reader *r, int i, char *buf, size_t n);
/* The next line into r->tok (kept pending until consumed): 1, 0 at the
 * end of the input, or -1. */
int xprof_tr_next_line(text_reader *r);
static inline void xprof_tr_consume(text_reader *r) { r->pending = 0; }
/* Whether token i is s. */
int xprof_tr_is(text_reader *r, int i, const char *s);
/* Token i as a decimal number, a 0x hexadecimal one, or an unescaped
 * name in the profile's memory; `what` names it in messages. */
int xprof_tr_u64(text_reader *r, int i, const char *what, uint64_t *out);
int xprof_tr_u32(text_reader *r, int i, const char *what, uint32_t *out);
int xprof_tr_hex64(text_reader *r, int i, const char *what, uint64_t *out);
int xprof_tr_name(text_reader *r, int i, const char *what, const char **out);
/* -1 with a message unless the line has n tokens. */
int xprof_tr_fields(text_reader *r, int n, const char *what);
/* The value of a hexadecimal digit, or -1. */
int xprof_hexval(int c);

/* xprof's extension lines (text_ext.c, xprof_text(4) "EXTENSION"): read
 * those that may stand where the reader is -- after the header, after a
 * procedure's statistics, after the last program -- and write them. */
int xprof_text_ext_read_head(text_reader *r);
int xprof_text_ext_read_proc(text_reader *r, xprof_proc *f);
int xprof_text_ext_read_tail(text_reader *r);

#endif
