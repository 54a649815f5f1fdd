/*
 * lookup.c - what both compiler plugins do in use mode to find the
 * data of the object file they compile, and the counter summary they
 * derive hot and cold thresholds from.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "xprof_plan.h"

/* Several profiles given to one use build: the summary of all of them,
 * roughly (the cutoffs' counts add up), and exactly for the runs, which
 * add up as merging adds them (xprof_known_runs). */
static void add_summary(xprof_summary *sum, const xprof_summary *s) {
  uint64_t runs, max_sum, s_runs, s_max_sum;
  xprof_known_runs(sum->runs, sum->run_max_sum, sum->total_max, &runs, &max_sum);
  xprof_known_runs(s->runs, s->run_max_sum, s->total_max, &s_runs, &s_max_sum);
  sum->runs = xprof_sat_add(runs, s_runs);
  sum->run_max_sum = xprof_sat_add(max_sum, s_max_sum);
  sum->total_sum = xprof_sat_add(sum->total_sum, s->total_sum);
  if (s->total_max > sum->total_max)
    sum->total_max = s->total_max;
  for (unsigned k = 0; k < XPROF_SUMMARY_CUTOFFS; k++)
    sum->entry[k].min_count = xprof_sat_add(sum->entry[k].min_count, s->entry[k].min_count);
}

static void say(xprof_warn_fn warn, void *ctx, const char *fmt, ...)
    XPROF_PRINTF(3, 4);

static void say(xprof_warn_fn warn, void *ctx, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (warn)
    warn(ctx, buf);
}

/* A profile that is not there.  A relative name is looked for in each
 * compiling directory, so a recursive build (make -C sub) that trained
 * in the top directory finds nothing in the others: say where it looked
 * and what finds the profile from everywhere. */
static void say_not_found(xprof_warn_fn warn, void *ctx, const char *dir, const char *objpath) {
  char cwd[1024];
  if (dir[0] == '/' || !getcwd(cwd, sizeof cwd)) {
    say(warn, ctx, "profile %s not found; %s is compiled without profile data from it", dir,
        objpath);
    return;
  }
  say(warn, ctx,
      "profile %s not found in %s (a relative profile name is looked for in the directory "
      "of each compilation, and written in the one where the program ran: give the "
      "directory, -xprofile=use:/path/to/NAME); %s is compiled without profile data from it",
      dir, cwd, objpath);
}

/* `path` through the first pathmap entry ("COLLECT_PREFIX:USE_PREFIX")
 * that starts it: to_use, from the collect prefix to the use prefix, else
 * the other way (malloc'd); NULL when no entry starts it. */
static char *map_path(const char *const *pathmap, unsigned n_pathmap, const char *path,
                      int to_use) {
  for (unsigned i = 0; i < n_pathmap; i++) {
    const char *colon = strchr(pathmap[i], ':');
    if (!colon)
      continue;
    const char *from = to_use ? pathmap[i] : colon + 1, *to = to_use ? colon + 1 : pathmap[i];
    size_t from_len = to_use ? (size_t)(colon - pathmap[i]) : strlen(colon + 1);
    size_t to_len = to_use ? strlen(colon + 1) : (size_t)(colon - pathmap[i]);
    if (from_len && strncmp(path, from, from_len) == 0)
      return xprof_format("%.*s%s", (int)to_len, to, path + from_len);
  }
  return NULL;
}

/* The name the object had when the profile was collected (malloc'd), or
 * NULL. */
static char *collect_path(const char *const *pathmap, unsigned n_pathmap,
                          const char *objpath) {
  return map_path(pathmap, n_pathmap, objpath, 0);
}

char *xprof_pathmap_use_path(const char *const *pathmap, unsigned n_pathmap, const char *path) {
  return map_path(pathmap, n_pathmap, path, 1);
}

/* xprof_use_lookup's search for the data of the object file `lookup`
 * (objpath as the messages name it). */
static xprof_profile *lookup_in(const char *const *names, unsigned n_names,
                                const char *lookup, const char *objpath,
                                const xprof_objfile **obj, int *any_data,
                                xprof_warn_fn warn, void *ctx) {
  xprof_profile *acc = NULL;
  xprof_summary *sum = NULL;
  for (unsigned i = 0; i < n_names; i++) {
    char *dir = xprof_use_profile_name(names[i]);
    if (!dir)
      continue;
    xprof_error err;
    xprof_profile *p;
    if (xprof_lookup_objfile(dir, lookup, &p, &err) < 0) {
      if (err.code == XPROF_ERR_NOTFOUND)
        *any_data = 1;
      else if (err.code == XPROF_ERR_IO && access(dir, F_OK) != 0)
        say_not_found(warn, ctx, dir, objpath);
      else
        say(warn, ctx, "cannot use profile %s: %s; compiling %s without it",
            dir, err.msg, objpath);
      xprof_free(dir);
      continue;
    }
    *any_data = 1;
    xprof_free(dir);
    if (!p->summary) { /* text input: the whole profile is here */
      p->summary = xprof_alloc(p, sizeof *p->summary);
      if (p->summary)
        xprof_compute_summary(p, p->summary);
    }
    if (!acc) {
      acc = p;
      sum = p->summary;
      continue;
    }
    if (p->summary && sum)
      add_summary(sum, p->summary);
    if (xprof_merge(acc, p, 1, XPROF_REPLACE_OBJFILE, &err) < 0)
      say(warn, ctx, "cannot merge profile data for %s: %s", objpath, err.msg);
    acc->summary = sum;
    xprof_profile_free(p);
  }
  if (acc)
    *obj = xprof_find_objfile(acc, lookup);
  if (acc && !*obj) {
    xprof_profile_free(acc);
    acc = NULL;
  }
  return acc;
}

/* The whole profile -xprofile=use:NAME names, or NULL (no message: only
 * for what use mode does without the data of its object file). */
static xprof_profile *read_whole(const char *name) {
  char *dir = xprof_use_profile_name(name);
  xprof_profile *p = NULL;
  xprof_error err;
  if (dir && xprof_read_profile_dir(dir, &p, &err) < 0)
    p = NULL;
  xprof_free(dir);
  return p;
}

char *xprof_use_lines_file(const char *name) {
  char *dir = xprof_use_profile_name(name);
  struct stat st;
  char *path = NULL;
  if (dir && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
    path = xprof_format("%s/" XPROF_LINES_FILE, dir);
  xprof_free(dir);
  if (path && stat(path, &st) != 0) {
    xprof_free(path);
    path = NULL;
  }
  return path;
}

xprof_lineprof *xprof_use_lookup_lines(const char *const *names, unsigned n_names,
                                       xprof_warn_fn warn, void *ctx) {
  /* Several files read as one text: the reader adds up a function met
   * twice. */
  char *all = NULL, *first = NULL;
  size_t n_all = 0;
  int exact = 1;
  unsigned made_by = 0;
  for (unsigned i = 0; i < n_names; i++) {
    char *path = xprof_use_lines_file(names[i]);
    unsigned char *buf;
    size_t len;
    xprof_error err;
    if (!path)
      continue;
    if (xprof_slurp(path, &buf, &len, &err) < 0) {
      say(warn, ctx, "cannot read the line profile %s", err.msg);
      xprof_free(path);
      continue;
    }
    unsigned by;
    exact &= xprof_lineprof_mark((const char *)buf, len, &by);
    made_by |= by;
    char *grown = xprof_realloc(all, n_all + len + 1);
    if (grown) {
      all = grown;
      memcpy(all + n_all, buf, len);
      n_all += len;
      all[n_all++] = '\n';
    }
    xprof_free(buf);
    if (!first)
      first = path;
    else
      xprof_free(path);
  }
  xprof_lineprof *lp = NULL;
  xprof_error err;
  if (all && xprof_lineprof_read_llvm(first, all, n_all, &lp, &err) < 0) {
    say(warn, ctx, "cannot use the line profile: %s", err.msg);
    lp = NULL;
  }
  if (lp && exact) {
    lp->from_samples = 0;
    lp->made_by = made_by;
  }
  if (lp && !lp->n_funcs) { /* made from data without lines */
    xprof_lineprof_free(lp);
    lp = NULL;
  }
  xprof_free(all);
  xprof_free(first);
  return lp;
}

int xprof_use_whole_summary(const char *const *names, unsigned n_names, xprof_summary *s) {
  int any = 0;
  memset(s, 0, sizeof *s);
  for (unsigned i = 0; i < n_names; i++) {
    xprof_profile *p = read_whole(names[i]);
    xprof_summary mine;
    if (p && !p->summary)
      xprof_compute_summary(p, &mine);
    const xprof_summary *ps = p && p->summary ? p->summary : p ? &mine : NULL;
    if (ps && ps->n_counts) {
      if (any)
        add_summary(s, ps);
      else
        *s = *ps;
      any = 1;
    }
    xprof_profile_free(p);
  }
  return any;
}

/* Length of the directory part of a path ("/a/b.o" -> 2, "b.o" -> 0). */
static size_t dir_len(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? (size_t)(slash - path) : 0;
}

static int ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), t = strlen(tail);
  return n >= t && strcmp(s + n - t, tail) == 0;
}

/* In one command that compiles and links ("cc -o OUT a.c"), the compiler
 * names the object of a.c after the output: OUT-a.o beside OUT, or a.o
 * when OUT is a.  The object of `path` in a training build linked under
 * another name: an object file of a program of p in the same directory
 * whose name is that program's name, '-' and the name T, or is T where T
 * is the program's name and ".o", while path's file name is T or ends in
 * "-T".  Appends each one found to found[] (up to 2; a second means
 * ambiguous) unless there already. */
static void other_output_objects(const xprof_profile *p, const char *path,
                                 const char *found[2], unsigned *n_found) {
  size_t dl = dir_len(path);
  const char *file = path + dl + (path[dl] == '/');
  for (uint32_t g = 0; g < p->n_programs; g++) {
    const xprof_program *prog = &p->programs[g];
    size_t pl = dir_len(prog->path);
    const char *pname = prog->path + pl + (prog->path[pl] == '/');
    if (pl != dl || strncmp(prog->path, path, dl) != 0)
      continue;
    for (uint32_t r = 0; r < prog->n_objrefs; r++) {
      const char *o = prog->objrefs[r];
      size_t ol = dir_len(o);
      const char *oname = o + ol + (o[ol] == '/'), *t = NULL;
      size_t nl = strlen(pname);
      if (ol != dl || strncmp(o, path, dl) != 0)
        continue;
      if (strncmp(oname, pname, nl) == 0 && oname[nl] == '-')
        t = oname + nl + 1;
      else if (strncmp(oname, pname, nl) == 0 && strcmp(oname + nl, ".o") == 0)
        t = oname;
      if (!t || strcmp(o, path) == 0)
        continue;
      char *tail = xprof_format("-%s", t);
      int match = tail && (strcmp(file, t) == 0 || ends_with(file, tail));
      xprof_free(tail);
      if (!match || (*n_found > 0 && strcmp(found[0], o) == 0))
        continue;
      if (*n_found < 2)
        found[(*n_found)++] = o;
    }
  }
}

/* The object file the training build made of this one's source under
 * another output name (other_output_objects), when the profiles of
 * `names` have exactly one (malloc'd); else NULL. */
static char *other_output_object(const char *const *names, unsigned n_names,
                                 const char *path) {
  char *result = NULL;
  int ambiguous = 0;
  for (unsigned i = 0; i < n_names && !ambiguous; i++) {
    xprof_profile *p = read_whole(names[i]);
    if (!p)
      continue;
    const char *found[2];
    unsigned n = 0;
    other_output_objects(p, path, found, &n);
    if (n == 1 && !result)
      result = xprof_format("%s", found[0]);
    else if (n > 1 || (n == 1 && strcmp(result, found[0]) != 0))
      ambiguous = 1;
    xprof_profile_free(p);
  }
  if (ambiguous) {
    xprof_free(result);
    result = NULL;
  }
  return result;
}

xprof_profile *xprof_use_lookup(const char *const *names, unsigned n_names,
                                const char *const *pathmap, unsigned n_pathmap,
                                const char *objpath, const xprof_objfile **obj,
                                int *any_data, xprof_warn_fn warn, void *ctx) {
  *obj = NULL;
  *any_data = 0;
  char *lookup = collect_path(pathmap, n_pathmap, objpath);
  if (!lookup)
    lookup = xprof_format("%s", objpath);
  if (!lookup)
    return NULL;
  xprof_profile *acc = lookup_in(names, n_names, lookup, objpath, obj, any_data, warn, ctx);
  if (!acc && *any_data) {
    char *other = other_output_object(names, n_names, lookup);
    if (other)
      acc = lookup_in(names, n_names, other, objpath, obj, any_data, NULL, NULL);
    xprof_free(other);
  }
  xprof_free(lookup);
  return acc;
}


char *xprof_pathmap_between(const char *collect_path, const char *use_path,
                            unsigned *depth) {
  if (strcmp(collect_path, use_path) == 0)
    return NULL;
  size_t i = strlen(use_path), j = strlen(collect_path);
  while (i > 0 && j > 0 && use_path[i - 1] == collect_path[j - 1])
    i--, j--;
  /* The shared part starts at a component boundary: the first '/' of it
   * that both paths have (a '/' at i or later lines up in both). */
  const char *cut = strchr(use_path + i, '/');
  if (!cut)
    return NULL;
  size_t k = (size_t)(cut - use_path), l = j + (k - i);
  if (k == 0 || l == 0)
    return NULL; /* one path is all suffix: nothing to map */
  if (depth) {
    unsigned d = 0;
    for (const char *s = cut; *s; s++)
      d += *s == '/';
    *depth = d;
  }
  return xprof_format("%.*s:%.*s", (int)l, collect_path, (int)k, use_path);
}

/* Could the build tree have moved from old_dir (old_len bytes of it) to
 * new_dir (new_len)?  Not when one of the profiles has an object file
 * beside old_dir in the directory that holds both: that tree was trained
 * where it is, and a file of the same name in a sibling directory
 * (PostgreSQL's src/bin/psql/common.o for
 * src/interfaces/ecpg/pgtypeslib/common.o) is another file.  Trees with
 * nothing in common but the root are left to the map.  Returns 1 or 0. */
static int moved_plausibly(xprof_profile *const *profiles, unsigned n, const char *old_dir,
                           size_t old_len, const char *new_dir, size_t new_len) {
  size_t common = 0; /* the last '/' of the directory both are in */
  for (size_t i = 0; i < old_len && i < new_len && old_dir[i] == new_dir[i]; i++)
    if (old_dir[i] == '/')
      common = i;
  if (common == 0)
    return 1;
  for (unsigned i = 0; i < n; i++)
    for (uint32_t o = 0; profiles[i] && o < profiles[i]->n_objfiles; o++) {
      const char *other = profiles[i]->objfiles[o].path;
      int in_common = strncmp(other, old_dir, common + 1) == 0;
      int in_old = strncmp(other, old_dir, old_len) == 0 && other[old_len] == '/';
      if (in_common && !in_old)
        return 0;
    }
  return 1;
}

/* The length of NEW in map ("OLD:NEW", xprof_pathmap_between's), which is
 * a head of path: found from path, so that a ':' in either directory
 * does not matter.  Returns 0 when map is not so made. */
static size_t new_part(const char *map, const char *path) {
  size_t ml = strlen(map);
  for (size_t k = strlen(path); k > 0; k--)
    if (k < ml && map[ml - k - 1] == ':' && strncmp(map + ml - k, path, k) == 0)
      return k;
  return 0;
}

/* The pathmap ("OLD:NEW") that would find path's data under another
 * directory, as deep as any of the profiles give one and the only one so
 * deep, in *best; *same_dir: whether one of them has data in path's own
 * directory. */
static void best_pathmap(xprof_profile *const *profiles, unsigned n, const char *path,
                         char **best, int *same_dir) {
  size_t dl = dir_len(path);
  unsigned best_depth = 0;
  int ambiguous = 0;
  for (unsigned i = 0; i < n; i++)
    for (uint32_t o = 0; profiles[i] && o < profiles[i]->n_objfiles; o++) {
      const char *other = profiles[i]->objfiles[o].path;
      *same_dir |= dir_len(other) == dl && strncmp(other, path, dl) == 0;
      unsigned d = 0;
      char *m = xprof_pathmap_between(other, path, &d);
      if (m && d > best_depth) {
        xprof_free(*best);
        *best = m;
        best_depth = d;
        ambiguous = 0;
        continue;
      }
      ambiguous |= m && *best && d == best_depth && strcmp(m, *best) != 0;
      xprof_free(m);
    }
  if (ambiguous) {
    xprof_free(*best);
    *best = NULL;
  }
}

xprof_missing xprof_use_explain_missing(const char *const *names, unsigned n_names,
                                        const char *const *pathmap, unsigned n_pathmap,
                                        const char *objpath, char **map) {
  *map = NULL;
  char *mapped = collect_path(pathmap, n_pathmap, objpath);
  xprof_profile **profiles = xprof_calloc(n_names + 1, sizeof *profiles);
  if (!profiles) {
    xprof_free(mapped);
    return XPROF_MISSING_FOREIGN;
  }
  for (unsigned i = 0; i < n_names; i++)
    profiles[i] = read_whole(names[i]);
  char *best = NULL;
  int same_dir = 0;
  if (mapped) { /* the user's map found nothing: no other to offer */
    size_t dl = dir_len(mapped);
    for (unsigned i = 0; i < n_names; i++)
      for (uint32_t o = 0; profiles[i] && o < profiles[i]->n_objfiles; o++)
        same_dir |= dir_len(profiles[i]->objfiles[o].path) == dl &&
                    strncmp(profiles[i]->objfiles[o].path, mapped, dl) == 0;
  } else {
    best_pathmap(profiles, n_names, objpath, &best, &same_dir);
  }
  size_t new_len = best ? new_part(best, objpath) : 0;
  int moved = best && new_len && !same_dir &&
              moved_plausibly(profiles, n_names, best, strlen(best) - new_len - 1, objpath,
                              new_len);
  for (unsigned i = 0; i < n_names; i++)
    xprof_profile_free(profiles[i]);
  xprof_free(profiles);
  xprof_free(mapped);
  if (moved) {
    *map = best;
    return XPROF_MISSING_MOVED;
  }
  xprof_free(best);
  return same_dir ? XPROF_MISSING_UNLINKED : XPROF_MISSING_FOREIGN;
}

int xprof_use_missing_text(xprof_missing why, const char *objpath,
                           const char *map, char *buf, size_t size) {
  switch (why) {
  case XPROF_MISSING_MOVED:
    snprintf(buf, size,
             "no profile data for %s; it is compiled without it (the profile has "
             "data for this file under another directory: if the build tree "
             "moved, -xprofile_pathmap=%s maps it)",
             objpath, map ? map : "?");
    break;
  case XPROF_MISSING_FOREIGN:
    snprintf(buf, size,
             "no profile data for %s nor for any object file of its directory; "
             "it is compiled without it", objpath);
    break;
  case XPROF_MISSING_UNLINKED:
    snprintf(buf, size,
             "no profile data for %s (it was in no program that ran); it is "
             "compiled without it", objpath);
    break;
  }
  return why != XPROF_MISSING_UNLINKED;
}
