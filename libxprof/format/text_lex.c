/*
 * text_lex.c - the lines and fields of xprof_text(4): splitting lines
 * into tokens, and reading numbers and names out of them with a message
 * that names the file and the line of every problem.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

#include "text.h"


int xprof_tr_fail(text_reader *r, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return xprof_fail(r->err, XPROF_ERR_FORMAT, "%s:%" PRIu64 ": %s", r->name,
                    r->line, msg);
}

/* Show a token in a message, shortened. */
const char *xprof_tr_show(text_reader *r, int i, char *buf, size_t n) {
  if (i >= r->ntok)
    return "end of line";
  size_t k = r->len[i] < n - 3 ? r->len[i] : n - 3;
  buf[0] = '\'';
  memcpy(buf + 1, r->tok[i], k);
  buf[k + 1] = '\'';
  buf[k + 2] = 0;
  return buf;
}

/* Split the next non-blank, non-comment line into tokens (an extension
 * line too when r->ext is set).  Returns 1 for a line, 0 at the end of
 * the input, -1 on error. */
int xprof_tr_next_line(text_reader *r) {
  if (r->pending) {
    if (r->ext || !xprof_tr_is(r, 0, "#+"))
      return 1;
    r->pending = 0; /* an extension line no one took: a comment */
  }
  while (r->p < r->end) {
    const char *s = r->p;
    const char *e = memchr(s, '\n', (size_t)(r->end - s));
    if (!e)
      e = r->end;
    r->p = e < r->end ? e + 1 : e;
    r->line++;
    if ((size_t)(e - s) + 1 > r->scratch_cap) {
      size_t nc = (size_t)(e - s) + 1;
      char *ns = xprof_realloc(r->scratch, nc);
      if (!ns)
        return xprof_fail_nomem(r->err, r->name);
      r->scratch = ns;
      r->scratch_cap = nc;
    }
    r->ntok = 0;
    const char *q = s;
    while (q < e) {
      while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
      if (q == e)
        break;
      if (*q == '\0')
        return xprof_tr_fail(r, "NUL byte in text");
      const char *t = q;
      while (q < e && *q != ' ' && *q != '\t' && *q != '\r') {
        if (*q == '\0')
          return xprof_tr_fail(r, "NUL byte in text");
        q++;
      }
      if (r->ntok == XPROF_TR_MAX_TOKENS)
        return xprof_tr_fail(r, "too many fields on one line");
      r->tok[r->ntok] = t;
      r->len[r->ntok] = (size_t)(q - t);
      r->ntok++;
    }
    if (r->ntok == 0 || (r->tok[0][0] == '#' && !(r->ext && xprof_tr_is(r, 0, "#+"))))
      continue;
    r->pending = 1;
    return 1;
  }
  r->ntok = 0;
  return 0;
}

int xprof_tr_is(text_reader *r, int i, const char *s) {
  return i < r->ntok && r->len[i] == strlen(s) && memcmp(r->tok[i], s, r->len[i]) == 0;
}

int xprof_tr_u64(text_reader *r, int i, const char *what, uint64_t *out) {
  char b[48];
  if (i >= r->ntok)
    return xprof_tr_fail(r, "expected %s, found end of line", what);
  const char *t = r->tok[i];
  size_t n = r->len[i];
  uint64_t v = 0;
  if (n == 0)
    return xprof_tr_fail(r, "expected %s", what);
  for (size_t k = 0; k < n; k++) {
    if (t[k] < '0' || t[k] > '9')
      return xprof_tr_fail(r, "expected %s (an unsigned decimal number), found %s",
                   what, xprof_tr_show(r, i, b, sizeof b));
    unsigned d = (unsigned)(t[k] - '0');
    if (v > (UINT64_MAX - d) / 10)
      return xprof_tr_fail(r, "%s %s does not fit in 64 bits", what,
                   xprof_tr_show(r, i, b, sizeof b));
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

int xprof_tr_u32(text_reader *r, int i, const char *what, uint32_t *out) {
  uint64_t v;
  char b[48];
  *out = 0; /* defined on failure too: -O3 cannot see that callers stop */
  if (xprof_tr_u64(r, i, what, &v) < 0)
    return -1;
  if (v > UINT32_MAX)
    return xprof_tr_fail(r, "%s %s does not fit in 32 bits", what,
                 xprof_tr_show(r, i, b, sizeof b));
  *out = (uint32_t)v;
  return 0;
}

int xprof_tr_hex64(text_reader *r, int i, const char *what, uint64_t *out) {
  char b[48];
  if (i >= r->ntok)
    return xprof_tr_fail(r, "expected %s, found end of line", what);
  const char *t = r->tok[i];
  size_t n = r->len[i];
  if (n < 3 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X') || n > 18)
    return xprof_tr_fail(r, "expected %s (0x and up to 16 hex digits), found %s",
                 what, xprof_tr_show(r, i, b, sizeof b));
  uint64_t v = 0;
  for (size_t k = 2; k < n; k++) {
    int c = t[k], d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return xprof_tr_fail(r, "expected %s (hexadecimal), found %s", what,
                   xprof_tr_show(r, i, b, sizeof b));
    v = v << 4 | (uint64_t)d;
  }
  *out = v;
  return 0;
}

int xprof_hexval(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Unescape token i into the profile's memory. */
int xprof_tr_name(text_reader *r, int i, const char *what, const char **out) {
  if (i >= r->ntok)
    return xprof_tr_fail(r, "expected %s, found end of line", what);
  const char *t = r->tok[i];
  size_t n = r->len[i], k = 0;
  char *o = r->scratch;
  for (size_t j = 0; j < n; j++) {
    if (t[j] != '\\') {
      o[k++] = t[j];
      continue;
    }
    int h, l;
    if (j + 3 >= n + 0 || t[j + 1] != 'x' || (h = xprof_hexval(t[j + 2])) < 0 ||
        (l = xprof_hexval(t[j + 3])) < 0 || (h == 0 && l == 0))
      return xprof_tr_fail(r, "bad escape in %s: only \\xHH (not \\x00) is allowed",
                   what);
    o[k++] = (char)(h << 4 | l);
    j += 3;
  }
  *out = xprof_strndup(r->prof, o, k);
  if (!*out)
    return xprof_fail_nomem(r->err, r->name);
  return 0;
}

int xprof_tr_fields(text_reader *r, int n, const char *what) {
  if (r->ntok != n)
    return xprof_tr_fail(r, "%s has %d fields, expected %d", what, r->ntok, n);
  return 0;
}

