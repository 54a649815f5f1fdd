/*
 * naming.c - what both compiler plugins name alike and must agree on: the
 * object file's path as the profile knows it and its compile time, the
 * names of comdat functions' arrays, which calls end a process without a
 * profile, and which functions the user asked to leave alone.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "internal.h"
#include "plan_internal.h"
#include "xprof_plan.h"

uint64_t xprof_object_signature_add(uint64_t acc, uint64_t proc_signature) {
  return (acc ^ proc_signature) * 0x100000001b3ull;
}

void xprof_compile_time(uint64_t *sec, uint32_t *usec) {
  const char *epoch = getenv("SOURCE_DATE_EPOCH"); /* reproducible builds */
  if (epoch && *epoch) {
    *sec = strtoull(epoch, NULL, 10);
    *usec = 0;
    return;
  }
  struct timeval tv;
  gettimeofday(&tv, NULL);
  *sec = (uint64_t)tv.tv_sec;
  *usec = (uint32_t)tv.tv_usec;
}

char *xprof_object_path_resolve(const char *rel) {
  const char *slash = strrchr(rel, '/');
  const char *file = slash ? slash + 1 : rel;
  char *dir = slash ? xprof_format("%.*s", (int)(slash - rel), rel) : xprof_format(".");
  char resolved[PATH_MAX];
  char *path = NULL;
  if (dir && realpath(dir[0] ? dir : "/", resolved))
    path = xprof_format("%s/%s", strcmp(resolved, "/") ? resolved : "", file);
  xprof_free(dir);
  return path ? path : xprof_format("%s", rel);
}

char *xprof_remap_prefix(const char *path, const char *const *maps, unsigned n) {
  for (unsigned i = n; i-- > 0;) { /* the last option given wins, as in GCC */
    const char *eq = strchr(maps[i], '=');
    if (!eq)
      continue;
    size_t old = (size_t)(eq - maps[i]);
    if (strncmp(path, maps[i], old) == 0)
      return xprof_format("%s%s", eq + 1, path + old);
  }
  return xprof_format("%s", path);
}

/* Long names (C++ instantiations) are cut, with a hash of the whole name
 * after the cut: two names alike in their first part stay apart. */
#define NAME_KEEP 200

char *xprof_comdat_array_name(const char *kind, const char *function, uint64_t key) {
  size_t n = strlen(function);
  if (n <= NAME_KEEP)
    return xprof_format("%s.%s.%llx", kind, function, (unsigned long long)key);
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)function[i]) * 0x100000001b3ull;
  return xprof_format("%s.%.*s.%llx.%llx", kind, NAME_KEEP, function, (unsigned long long)h,
                      (unsigned long long)key);
}

int xprof_ends_without_profile(const char *callee) {
  static const char *const names[] = {
      "abort",          "_exit",     "_Exit",         "__assert_fail", "__assert_perror_fail",
      "__stack_chk_fail", "__chk_fail", "__fortify_fail", NULL};
  for (const char *const *n = names; *n; n++)
    if (strcmp(callee, *n) == 0)
      return 1;
  return 0;
}

static int any_match(const char *s, const char *const *patterns, unsigned n) {
  for (unsigned i = 0; s && i < n; i++)
    if (fnmatch(patterns[i], s, 0) == 0)
      return 1;
  return 0;
}

/* The user's no_profile_instrument_function asks for it; a naked function
 * is its asm alone, without a frame, so any code put before the asm may
 * clobber what the asm reads (GCC's and clang's own profilers count it,
 * and GCC's indirect-call profiler's call there clobbers the arguments). */
int xprof_skip_attributes(unsigned attrs) {
  return (attrs & (XPROF_ATTR_NO_PROFILE | XPROF_ATTR_NAKED)) != 0;
}

/* How large the C library's regcomp makes an extended expression, near
 * enough: it copies a repeated atom once per repetition (a{3} as aaa, a+
 * as aa*), so that nested repetitions multiply and a short expression
 * (a{999}{999}, ((a+)+)+... ) can take gigabytes and minutes.  Bracket
 * expressions and escapes count as one atom.  A repetition right after
 * another (a++, a*{2}), which POSIX leaves undefined, counts as too large.
 * Capped at 1e9. */
static double expanded_size(const char *p) {
  double outer[32], total = 0, last = 0;
  int depth = 0, repeated = 0;
  for (; *p; p++) {
    double times = 1;
    int repetition = *p == '*' || *p == '+' || *p == '?' || *p == '{';
    if (repetition && repeated)
      return 1e9;
    repeated = repetition;
    if (*p == '\\' && p[1]) {
      p++, total += 1, last = 1;
    } else if (*p == '[') {
      const char *q = p + 1 + (p[1] == '^');
      q += *q == ']';
      while (*q && *q != ']')
        q += *q == '[' && (q[1] == ':' || q[1] == '=' || q[1] == '.') && strchr(q + 2, ']')
                 ? strchr(q + 2, ']') - q + 1
                 : 1;
      p = *q ? q : q - 1;
      total += 1, last = 1;
    } else if (*p == '(') {
      if (depth == 32)
        return 1e9;
      outer[depth++] = total, total = 0;
    } else if (*p == ')' && depth) {
      last = total, total += outer[--depth];
    } else if (*p == '*' || *p == '+' || *p == '?') {
      times = 2;
    } else if (*p == '{') {
      char *end;
      double lo = strtod(p + 1, &end), hi = *end == ',' ? strtod(end + 1, &end) : lo;
      times = (hi > lo ? hi : lo + 1) + 1;
      p = *end == '}' ? end : p;
    } else if (*p != '|' && *p != '^' && *p != '$') {
      total += 1, last = 1;
    }
    if (times > 1)
      total += last * (times - 1), last *= times;
    if (total > 1e9 || last > 1e9)
      return 1e9;
  }
  return total;
}

/* regcomp of an extended expression for matching only, refused when it
 * would expand past ten thousand atoms (expanded_size).  0, or -1
 * with why (room bytes) saying what is wrong. */
int xprof_regcomp(regex_t *re, const char *ere, char *why, size_t room) {
  if (expanded_size(ere) > 1e4) {
    snprintf(why, room, "its repetitions expand it too far");
    return -1;
  }
  int rc = regcomp(re, ere, REG_EXTENDED | REG_NOSUB);
  if (rc != 0)
    regerror(rc, re, why, room);
  return rc != 0 ? -1 : 0;
}

int xprof_skip_function(const xprof_skip_list *skip, const char *symbol, const char *plain,
                        const char *file) {
  return any_match(symbol, skip->functions, skip->n_functions) ||
         any_match(plain, skip->functions, skip->n_functions) ||
         any_match(file, skip->files, skip->n_files) ||
         xprof_profile_list_excludes(skip->file_filter, NULL, file) ||
         xprof_profile_list_excludes(skip->profile_list, symbol, file);
}

char *xprof_compile_object_name(const char *output, const char *source) {
  const char *name = output && strcmp(output, "-") != 0 ? output : source;
  if (name == source) { /* the object of a source goes to the current directory */
    const char *slash = strrchr(source, '/');
    name = slash ? slash + 1 : source;
  }
  const char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
  size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - name) : strlen(name);
  return xprof_format("%.*s.o", (int)n, name);
}

char *xprof_link_object_name(const char *output, int link, const char *source, size_t n) {
  if (output && !link && strcmp(output, "-") != 0)
    return xprof_compile_object_name(output, NULL);
  const char *base = memrchr(source, '/', n);
  base = base ? base + 1 : source;
  size_t blen = n - (size_t)(base - source);
  const char *dot = memrchr(base, '.', blen);
  if (dot)
    blen = (size_t)(dot - base);
  const char *obase = output ? strrchr(output, '/') : NULL;
  obase = obase ? obase + 1 : output;
  if (output && link && !(strlen(obase) == blen && strncmp(obase, base, blen) == 0))
    return xprof_format("%s-%.*s.o", output, (int)blen, base);
  return xprof_format("%.*s.o", (int)blen, base);
}

char *xprof_map_object_path(const char *file, const xprof_options *o) {
  char *first = xprof_remap_prefix(file, o->prefix_map.v, o->prefix_map.n);
  char *mapped = first ? xprof_remap_prefix(first, o->object_prefix_map.v,
                                            o->object_prefix_map.n)
                       : NULL;
  xprof_free(first);
  return mapped;
}
