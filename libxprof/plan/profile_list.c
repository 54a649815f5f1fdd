/*
 * profile_list.c - clang's -fprofile-list files: which functions a
 * profile covers, by function name and source file, in the sanitizers'
 * special case list format, read as clang reads it for its IR-level
 * profiling (the section "llvm"), so that one list serves xprof-clang,
 * xprof-gcc and clang's own -fprofile-generate alike:
 *
 *   # comment
 *   [llvm]                  entries below apply to sections matching it
 *   fun:parse_*             profile functions whose symbol matches
 *   !fun:parse_slow         ... but not this one
 *   src:lib/parse*.c        profile the functions of matching files
 *   src:gen*=skip           clang 15's categories: allow, skip, forbid
 *   default:skip            what is not matched (clang 16)
 *
 * Patterns are regular expressions in which '*' stands for any string,
 * anchored at both ends (LLVM's SpecialCaseList).  A function is left out
 * when an exclusion of its symbol matches, profiled when an inclusion
 * does, then the same for its source file; failing both, it is left out
 * when the list has any inclusion (the list names what to profile), as
 * clang decides.  Entries of other prefixes (the sanitizers' type:,
 * global: ...) and categories are no concern of profiles and are skipped.
 *
 * GCC's -fprofile-filter-files and -fprofile-exclude-files are lists of
 * the same kind (xprof_profile_list_add_regexes): source-file inclusions
 * and exclusions whose expressions are found anywhere in the path, which
 * clang's order of decision (exclusions first, then inclusions, then what
 * is not named left out when anything is included) decides as GCC does.
 */
#define _GNU_SOURCE
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "plan_internal.h"
#include "xprof_plan.h"

enum { ON_FUNCTION, ON_FILE };

typedef struct list_entry {
  regex_t re;
  unsigned char on;      /* ON_FUNCTION or ON_FILE */
  unsigned char exclude; /* !prefix:, or =skip / =forbid */
} list_entry;

struct xprof_profile_list {
  list_entry *e;
  uint32_t n, cap;
  int any_include; /* an inclusion: what no entry matches is left out */
  int dflt;        /* default:allow (0) or default:skip (1); -1: none */
};

/* The section clang gives its IR-level profiling, which xprof's is. */
#define SECTION "llvm"

xprof_profile_list *xprof_profile_list_new(void) {
  xprof_profile_list *l = xprof_calloc(1, sizeof *l);
  if (l)
    l->dflt = -1;
  return l;
}

void xprof_profile_list_free(xprof_profile_list *l) {
  if (!l)
    return;
  for (uint32_t i = 0; i < l->n; i++)
    regfree(&l->e[i].re);
  xprof_free(l->e);
  xprof_free(l);
}

/* pattern (n bytes) as an anchored extended regular expression with '*'
 * any string, compiled into re.  0, or -1 with err set naming the file
 * and line. */
static int compile_glob(regex_t *re, const char *pattern, size_t n, const char *path,
                        unsigned line, xprof_error *err) {
  char *rx = xprof_malloc(2 * n + 5), *o = rx;
  if (!rx)
    return xprof_fail_nomem(err, path);
  o += sprintf(o, "^(");
  for (size_t i = 0; i < n; i++) {
    if (pattern[i] == '*')
      *o++ = '.';
    *o++ = pattern[i];
  }
  strcpy(o, ")$");
  char why[128];
  int rc = xprof_regcomp(re, rx, why, sizeof why);
  xprof_free(rx);
  if (rc < 0)
    return xprof_fail(err, XPROF_ERR_INVALID, "%s:%u: not a pattern: %s", path, line, why);
  return 0;
}

/* "[SECTION]": whether the entries after it apply to xprof's profiling.
 * 0, or -1 with err set. */
static int section(const char *s, size_t n, const char *path, unsigned line, int *active,
                   xprof_error *err) {
  if (n < 2 || s[n - 1] != ']')
    return xprof_fail(err, XPROF_ERR_INVALID, "%s:%u: a section must end with ']'", path, line);
  regex_t re;
  if (compile_glob(&re, s + 1, n - 2, path, line, err) < 0)
    return -1;
  *active = regexec(&re, SECTION, 0, NULL, 0) == 0;
  regfree(&re);
  return 0;
}

/* What a category makes of an entry: 0 include, 1 exclude, -1 another
 * tool's category (the entry is skipped). */
static int category(const char *c, size_t n) {
  if (n == 0 || (n == 5 && memcmp(c, "allow", 5) == 0))
    return 0;
  if ((n == 4 && memcmp(c, "skip", 4) == 0) || (n == 6 && memcmp(c, "forbid", 6) == 0))
    return 1;
  return -1;
}

static int prefix_is(const char *p, size_t n, const char *a, const char *b) {
  return (n == strlen(a) && memcmp(p, a, n) == 0) || (n == strlen(b) && memcmp(p, b, n) == 0);
}

/* One entry, "[!]PREFIX:PATTERN[=CATEGORY]" (s, n bytes, trimmed).  0, or
 * -1 with err set. */
static int entry(xprof_profile_list *l, const char *s, size_t n, const char *path,
                 unsigned line, xprof_error *err) {
  int negated = *s == '!';
  s += negated, n -= (size_t)negated;
  const char *colon = memchr(s, ':', n);
  if (!colon || colon == s)
    return xprof_fail(err, XPROF_ERR_INVALID, "%s:%u: expected PREFIX:PATTERN, as fun:NAME",
                      path, line);
  size_t plen = (size_t)(colon - s);
  const char *pat = colon + 1, *eq = memchr(pat, '=', n - plen - 1);
  size_t patlen = eq ? (size_t)(eq - pat) : n - plen - 1;
  int cat = eq ? category(eq + 1, n - plen - 2 - patlen) : 0;
  if (plen == 7 && memcmp(s, "default", 7) == 0) {
    cat = category(pat, patlen);
    if (cat >= 0)
      l->dflt = cat;
    return 0;
  }
  int on = prefix_is(s, plen, "fun", "function")  ? ON_FUNCTION
           : prefix_is(s, plen, "src", "source") ? ON_FILE
                                                 : -1;
  if (on < 0 || cat < 0)
    return 0;
  if (xprof_grow((void **)&l->e, &l->cap, l->n, sizeof *l->e) < 0)
    return xprof_fail_nomem(err, path);
  list_entry *e = &l->e[l->n];
  if (compile_glob(&e->re, pat, patlen, path, line, err) < 0)
    return -1;
  e->on = (unsigned char)on;
  e->exclude = (unsigned char)(negated ^ cat);
  l->any_include |= !e->exclude;
  l->n++;
  return 0;
}

int xprof_profile_list_add_regexes(xprof_profile_list *l, const char *list, int exclude,
                                   xprof_error *err) {
  for (const char *p = list; *p; p += *p == ';') {
    size_t n = strcspn(p, ";");
    if (!n)
      continue;
    char *one = xprof_format("%.*s", (int)n, p);
    if (!one || xprof_grow((void **)&l->e, &l->cap, l->n, sizeof *l->e) < 0) {
      xprof_free(one);
      return xprof_fail_nomem(err, "regular expressions");
    }
    p += n;
    char why[128];
    int rc = xprof_regcomp(&l->e[l->n].re, one, why, sizeof why);
    if (rc < 0)
      xprof_fail(err, XPROF_ERR_INVALID, "'%s' is not an extended regular expression: %s", one,
                 why);
    xprof_free(one);
    if (rc < 0)
      return -1;
    l->e[l->n].on = ON_FILE;
    l->e[l->n].exclude = (unsigned char)(exclude != 0);
    l->any_include |= !exclude;
    l->n++;
  }
  return 0;
}

int xprof_profile_list_parse(xprof_profile_list *l, const char *text, size_t len,
                             const char *name, xprof_error *err) {
  int active = 1, rc = 0;
  unsigned line = 0;
  for (const char *s = text, *end; rc == 0 && s < text + len; s = end + 1) {
    end = memchr(s, '\n', (size_t)(text + len - s));
    if (!end)
      end = text + len;
    line++;
    const char *b = s, *e = end;
    while (b < e && (*b == ' ' || *b == '\t'))
      b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
      e--;
    if (b == e || *b == '#')
      continue;
    if (memchr(b, 0, (size_t)(e - b)))
      rc = xprof_fail(err, XPROF_ERR_INVALID, "%s:%u: a NUL byte in the line", name, line);
    else if (*b == '[')
      rc = section(b, (size_t)(e - b), name, line, &active, err);
    else if (active)
      rc = entry(l, b, (size_t)(e - b), name, line, err);
  }
  return rc;
}

int xprof_profile_list_read(xprof_profile_list *l, const char *path, xprof_error *err) {
  unsigned char *buf;
  size_t len;
  if (xprof_slurp(path, &buf, &len, err) < 0)
    return -1;
  int rc = xprof_profile_list_parse(l, (const char *)buf, len, path, err);
  xprof_free(buf);
  return rc;
}

/* 1 when an exclusion of `on` matches s, 0 when an inclusion does, -1
 * when none. */
static int decide(const xprof_profile_list *l, int on, const char *s) {
  if (!s)
    return -1;
  int included = 0;
  for (uint32_t i = 0; i < l->n; i++)
    if (l->e[i].on == on && regexec(&l->e[i].re, s, 0, NULL, 0) == 0) {
      if (l->e[i].exclude)
        return 1;
      included = 1;
    }
  return included ? 0 : -1;
}

int xprof_profile_list_excludes(const xprof_profile_list *l, const char *symbol,
                                const char *file) {
  if (!l || (l->n == 0 && l->dflt < 0))
    return 0;
  int d = decide(l, ON_FUNCTION, symbol);
  if (d < 0)
    d = decide(l, ON_FILE, file);
  if (d < 0)
    d = l->dflt >= 0 ? l->dflt : l->any_include;
  return d;
}
