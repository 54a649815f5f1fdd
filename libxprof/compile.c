/*
 * compile.c - what both compiler plugins do alike and must agree on: the
 * signatures they record, the object file's path and compile time, the
 * names of comdat functions' arrays, which calls end a process without a
 * profile, and the messages of use mode.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "internal.h"

uint64_t xprof_proc_signature(uint64_t cfg_signature, uint32_t n_vp_sites) {
  return cfg_signature ^ (0x9e3779b97f4a7c15ull * (uint64_t)(n_vp_sites + 1));
}

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

int xprof_skip_function(const xprof_skip_list *skip, const char *symbol, const char *plain,
                        const char *file) {
  return any_match(symbol, skip->functions, skip->n_functions) ||
         any_match(plain, skip->functions, skip->n_functions) ||
         any_match(file, skip->files, skip->n_files);
}

void xprof_use_salvage_text(const xprof_use_stats *st, const char *objpath, char *buf,
                            size_t size) {
  double pct = st->salvage_mass ? 100.0 * (double)st->salvage_matched / (double)st->salvage_mass
                                : 100.0;
  snprintf(buf, size,
           "%s: %u function%s changed since the training build; %s profile data was "
           "salvaged (%.0f%% of %s counts matched the new code)",
           objpath, st->salvaged, xprof_plural(st->salvaged), st->salvaged == 1 ? "its" : "their",
           pct, st->salvaged == 1 ? "its" : "their");
}

void xprof_use_summary_text(const xprof_use_stats *st, const char *objpath,
                            int partial_training, char *buf, size_t size) {
  char salvaged[64] = "";
  if (st->salvaged) /* counted as matched too */
    snprintf(salvaged, sizeof salvaged, "; %u salvaged from changed code", st->salvaged);
  snprintf(buf, size,
           "%s: %u procedure%s matched the profile, %u mismatched, %u missing; "
           "%u indirect call%s promoted, %u operation%s specialized to profiled values; "
           "%u never ran in training%s%s",
           objpath, st->matched, xprof_plural(st->matched), st->mismatched, st->missing,
           st->promoted, xprof_plural(st->promoted), st->specialized,
           xprof_plural(st->specialized), st->untrained,
           partial_training ? " (optimized as without a profile)" : "", salvaged);
}
