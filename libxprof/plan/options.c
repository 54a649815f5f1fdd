/*
 * options.c - the options of xprof's compilations: one table, one parser
 * and one struct for the drivers (which parse the user's -xprofile...
 * options with it and hand the result on) and both plugins (which parse
 * what the driver handed them), so that the three read every option
 * alike.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

#include "internal.h"
#include "xprof_plan.h"

/* How an option's value is stored (xprof_option_info.kind). */
enum {
  K_FLAG,    /* int, 0 or 1 */
  K_NUMBER,  /* unsigned, lo to hi */
  K_STRING,  /* const char *, a copy */
  K_REGEXES, /* K_STRING of extended regular expressions separated by ';' */
  K_PROFILE_LIST, /* K_LIST of files, each read into profile_list */
  K_LIST,    /* xprof_strings, a copy of each */
  K_MAP,     /* K_LIST of OLD<sep>NEW, sep the character in lo */
  K_PATTERNS, /* xprof_strings, comma-separated values split */
  K_MODE,    /* xprofile=collect[:NAME] | tcov[:NAME] | use[:NAME] */
  K_UPDATE,  /* thread | atomic | single */
  K_SALVAGE, /* 0-100 | no */
  K_WARNING, /* NAME:off|on|error|no-error */
  K_PROMOTE, /* a flag whose default depends on update */
  K_COVERAGE_ON, /* the flag of coverage tables: off clears it */
  K_TCOV     /* tcov: coverage tables asked for */
};

#define OFF(field) offsetof(xprof_options, field)
#define B XPROF_OPT_BOTH
#define G XPROF_OPT_GCC
#define L XPROF_OPT_LLVM
#define F XPROF_OPT_FLAG
#define R XPROF_OPT_LIST
#define D XPROF_OPT_DRIVER

const xprof_option_info xprof_option_table[] = {
    {"xprofile", B | R, "collect[:NAME]|tcov[:NAME]|use[:NAME]",
     "the mode; use names add up (their profiles are merged)", K_MODE, 0, 0, 0},
    {"pathmap", B | R, "COLLECT_PREFIX:USE_PREFIX",
     "use: object files compiled under COLLECT_PREFIX at collect time are under USE_PREFIX now",
     K_MAP, OFF(pathmap), ':', 0},
    {"object-prefix-map", B | R, "OLD=NEW",
     "object paths as the profile records and looks them up (-xprofile_prefix_map)", K_MAP,
     OFF(object_prefix_map), '=', 0},
    {"prefix-map", L | R | D, "OLD=NEW", "the compilation's -ffile-prefix-map", K_MAP,
     OFF(prefix_map), '=', 0},
    {"update", B, "thread|atomic|single",
     "collect: counters per thread (the default), atomic, or plain in one array", K_UPDATE,
     OFF(update), 0, 0},
    {"tls-counters", B | F, NULL,
     "collect: per-thread counters in thread-local twins in code for executables", K_FLAG,
     OFF(tls_counters), 0, 0},
    {"values-per-site", B, "N", "values kept per value-profile record", K_NUMBER,
     OFF(values_per_site), 0, 64},
    {"salvage", B, "PERCENT|no",
     "use: a changed function keeps its counts when PERCENT of them match the new code",
     K_SALVAGE, OFF(salvage), 0, 100},
    {"ext-tsp-blocks", B, "N",
     "use, optimizing for speed: lay out blocks by the ext-TSP model (BOLT's) where a "
     "function ran at most N blocks (0: off; default 10000 with GCC, 1000 with clang, whose "
     "model takes time with the cube of every function's blocks in the module)",
     K_NUMBER, OFF(ext_tsp_blocks), 0, 1000000000},
    {"skip-functions", B | R, "PATTERN[,PATTERN...]",
     "leave alone the functions whose name matches", K_PATTERNS, OFF(skip_functions), 0, 0},
    {"skip-files", B | R, "PATTERN[,PATTERN...]",
     "leave alone the functions whose source file matches", K_PATTERNS, OFF(skip_files), 0, 0},
    {"filter-files", B, "REGEX[;REGEX...]",
     "leave alone the functions whose source file matches none of these extended regular "
     "expressions (GCC's -fprofile-filter-files)", K_REGEXES, OFF(filter_files), 0, 0},
    {"exclude-files", B, "REGEX[;REGEX...]",
     "leave alone the functions whose source file matches one of these (GCC's "
     "-fprofile-exclude-files)", K_REGEXES, OFF(exclude_files), 0, 0},
    {"profile-list", B | R, "FILE",
     "leave alone the functions that clang's -fprofile-list FILE leaves out of its IR-level "
     "profiling", K_PROFILE_LIST, OFF(profile_lists), 0, 0},
    {"warning", B | R, "NAME:off|on|error|no-error",
     "a warning as -Wno-NAME, -WNAME, -Werror=NAME, -Wno-error=NAME make it (the drivers pass "
     "them)", K_WARNING, OFF(warning), 0, 0},
    {"verbose", B | F, NULL, "a note of what was done, per object file and function", K_FLAG,
     OFF(verbose), 0, 0},
    {"tcov", B | F, NULL, "collect: the coverage table is asked for (-xprofile=tcov)", K_TCOV,
     OFF(coverage), 0, 0},
    {"tcov-dir", B, "DIR", "collect: the coverage table goes into DIR", K_STRING,
     OFF(coverage_dir), 0, 0},
    {"coverage-table", B | F, NULL,
     "collect: keep the coverage table (in the object; OBJECT.xpcov with tcov)",
     K_COVERAGE_ON, OFF(coverage), 0, 0},
    {"all-edges", B | F, NULL, "debug: a counter on every edge as well", K_FLAG,
     OFF(all_edges), 0, 0},
    {"cfg-dump", B | F, NULL, "debug: write the instrumented graphs to OBJECT.xpcfg", K_FLAG,
     OFF(cfg_dump), 0, 0},
    {"order", B | F, NULL,
     "use: record each function's calls for the link's order of functions "
     "(-xprofile_order)", K_FLAG, OFF(order), 0, 0},
    {"function-sections", L | F, NULL,
     "use, with order: every function is in a section of its own already "
     "(-ffunction-sections), none is given one", K_FLAG, OFF(function_sections), 0, 0},
    {"partial-training", L | F, NULL,
     "use: functions that never ran are optimized as without a profile (GCC: "
     "-fprofile-partial-training)", K_FLAG, OFF(partial_training), 0, 0},
    {"reorder-functions", L | F, NULL,
     "first-run words (collect) and first-run order (use) (GCC: "
     "-fprofile-reorder-functions)", K_FLAG, OFF(reorder_functions), 0, 0},
    {"specialize", L | F, NULL,
     "use: divisions, modulos and memory-operation lengths specialized to their values (GCC: "
     "-fvpt)", K_FLAG, OFF(specialize), 0, 0},
    {"output", L | D, "FILE", "the compiler's -o", K_STRING, OFF(output), 0, 0},
    {"link", L | F | D, NULL, "the command links too", K_FLAG, OFF(link), 0, 0},
    {"lto", L | F | D, NULL,
     "use: the module goes to a link-time optimizer: calls are promoted to other objects' "
     "public functions too", K_FLAG, OFF(lto), 0, 0},
    {"asm-counters", G | F, NULL, "collect: counters as x86-64 asm statements, not GIMPLE",
     K_FLAG, OFF(gcc.asm_counters), 0, 0},
    {"use-flags-added", G | F | D, NULL,
     "use: the drivers added -fprofile-use's flags before this (partial training undoes "
     "them)", K_FLAG, OFF(gcc.use_flags_added), 0, 0},
    {"hot-inline", G, "N",
     "use: inlining limit in functions that ran in training (0: GCC's own)", K_NUMBER,
     OFF(gcc.hot_inline), 0, 100000},
    {"cold-inline", G, "N",
     "use: growth inlined at any call site in those functions (0: GCC's own)", K_NUMBER,
     OFF(gcc.cold_inline), 0, 1000},
    {"hot-inline-growth", G, "N", "use: unit growth (%) where hot-inline applies", K_NUMBER,
     OFF(gcc.hot_inline_growth), 0, 1000},
    {"calls-return", L | F, NULL,
     "take calls that cannot throw as returning (fewer counters, counts off by one per exit "
     "or longjmp out of such a call); both builds must agree", K_FLAG, OFF(llvm.calls_return),
     0, 0},
    {"pointer-calls-return", L | F, NULL,
     "no fake edge for a call whose callee may leave only through a call through a pointer; "
     "both builds must agree", K_FLAG, OFF(llvm.pointer_calls_return), 0, 0},
    {"pre-inline", L, "N",
     "inline threshold before counting when optimizing (0: off); both builds must agree",
     K_NUMBER, OFF(llvm.pre_inline), 0, 100000},
    {"promote", L | F, NULL,
     "collect: count in registers in loops (default: with update=atomic only)", K_PROMOTE,
     OFF(llvm.promote), 0, 0},
    {"inline-bonus", L | F, NULL,
     "collect: raise the inliner's threshold for a function by what its counters add",
     K_FLAG, OFF(llvm.inline_bonus), 0, 0},
    {"arms", L | F, NULL,
     "keep small if-arms as blocks until they are counted (not speculated into selects); "
     "both builds must agree", K_FLAG, OFF(llvm.arms), 0, 0},
    {"selects", L | F, NULL,
     "count the conditions of selects outside loops in functions with loops; both builds "
     "must agree", K_FLAG, OFF(llvm.selects), 0, 0},
    {"split-cold", L, "N",
     "use: move code that never ran out of functions of at least N IR instructions (0: off)",
     K_NUMBER, OFF(llvm.split_cold), 0, 1000000000},
    {"replay-inline", L, "N",
     "use: before counts are placed by source line, inline the hot calls that the training "
     "build inlined, to functions of at most N IR instructions (0: off)",
     K_NUMBER, OFF(llvm.replay_inline), 0, 1000000},
    {NULL, 0, NULL, NULL, 0, 0, 0, 0}};

#undef B
#undef G
#undef L
#undef F
#undef R
#undef D

/* The defaults of the drivers, which call this too; the plugins' own.
 * Partial training is off by default in both plugins, as in GCC:
 * untrained code then gets every optimization use mode turns on. */
void xprof_options_init(xprof_options *o) {
  memset(o, 0, sizeof *o);
  o->update = XPROF_UPDATE_THREAD;
  o->tls_counters = 1;
  o->values_per_site = XPROF_VALUES_PER_SITE_DEFAULT;
  o->salvage = XPROF_SALVAGE_DEFAULT_PERCENT;
  o->coverage = XPROF_COVERAGE_QUIET;
  o->reorder_functions = 1;
  o->ext_tsp_blocks = XPROF_EXT_TSP_DEFAULT;
  o->specialize = 1;
  o->gcc.asm_counters = 1;
  o->gcc.hot_inline = 400;
  o->gcc.cold_inline = 12;
  o->gcc.hot_inline_growth = 10;
  o->llvm.pointer_calls_return = 1;
  o->llvm.pre_inline = 75;
  o->llvm.promote = -1;
  o->llvm.inline_bonus = 1;
  o->llvm.selects = 1;
  o->llvm.arms = 1;
  o->llvm.split_cold = 1000;
  o->llvm.replay_inline = 600; /* about the cost LLVM allows a hot call site */
}

/* The two models differ in cost.  LLVM's tries every cut of every chain
 * and its time grows with about the cube of the blocks that ran, in every
 * function of the module at once (its option is the module's):
 * CPython's interpreter loop, of 1,485 such blocks, took 13 s more to
 * compile.  libxprof's (exttsp.c), which xprof-gcc runs per function,
 * cuts chains only next to the blocks the other chain has edges with,
 * and leaves out jumps that cannot fall through: a few seconds for 8,000
 * blocks, under one for that loop, which then falls within the limit. */
unsigned xprof_ext_tsp_blocks(const xprof_options *o) {
  if (o->ext_tsp_blocks != XPROF_EXT_TSP_DEFAULT)
    return o->ext_tsp_blocks;
  return o->compiler == XPROF_OPT_LLVM ? 1000 : 10000;
}

int xprof_ext_tsp_fits(const xprof_options *o, const char *name, unsigned ran, char *note,
                       size_t size) {
  unsigned limit = xprof_ext_tsp_blocks(o);
  if (limit && ran <= limit)
    return 1;
  int llvm = o->compiler == XPROF_OPT_LLVM;
  if (size)
    snprintf(note, size,
             "blocks placed by %s default: %s ran %u blocks, more than %sext-tsp-blocks=%u",
             llvm ? "LLVM's" : "GCC's", name, ran, llvm ? "-xprof-" : "", limit);
  return 0;
}

static void free_strings(xprof_strings *s) {
  for (unsigned i = 0; i < s->n; i++)
    xprof_free((void *)s->v[i]);
  xprof_free(s->v);
  memset(s, 0, sizeof *s);
}

void xprof_options_free(xprof_options *o) {
  xprof_free((void *)o->profile_name);
  xprof_free((void *)o->coverage_dir);
  xprof_free((void *)o->output);
  free_strings(&o->use_names);
  free_strings(&o->pathmap);
  free_strings(&o->object_prefix_map);
  free_strings(&o->prefix_map);
  free_strings(&o->skip_functions);
  free_strings(&o->skip_files);
  xprof_free((void *)o->filter_files);
  xprof_free((void *)o->exclude_files);
  xprof_profile_list_free(o->file_filter);
  free_strings(&o->profile_lists);
  xprof_profile_list_free(o->profile_list);
  xprof_options_init(o);
}

static int push(xprof_strings *s, const char *v, size_t len, xprof_error *err) {
  char *copy = xprof_format("%.*s", (int)len, v);
  if (!copy || xprof_grow((void **)&s->v, &s->cap, s->n, sizeof *s->v) < 0) {
    xprof_free(copy);
    return xprof_fail_nomem(err, "options");
  }
  s->v[s->n++] = copy;
  return 0;
}

static int set_string(const char **field, const char *v, xprof_error *err) {
  char *copy = xprof_format("%s", v);
  if (!copy)
    return xprof_fail_nomem(err, "options");
  xprof_free((void *)*field);
  *field = copy;
  return 0;
}

/* yes/no of a flag's value; -1 when it is neither. */
static int yes_or_no(const char *v) {
  static const char *const yes[] = {"", "1", "yes", "true", "on"};
  static const char *const no[] = {"0", "no", "false", "off"};
  for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
    if (strcasecmp(v, yes[i]) == 0)
      return 1;
  for (size_t i = 0; i < sizeof no / sizeof *no; i++)
    if (strcasecmp(v, no[i]) == 0)
      return 0;
  return -1;
}

/* filter-files or exclude-files (*field, one of o's) set to v, and o's
 * file filter compiled again from both: 0, or -1 with err set and
 * nothing changed when an expression does not compile. */
static int set_file_filter(xprof_options *o, const char **field, const char *v,
                           xprof_error *err) {
  const char *filter = field == &o->filter_files ? v : o->filter_files;
  const char *exclude = field == &o->exclude_files ? v : o->exclude_files;
  xprof_profile_list *l = xprof_profile_list_new();
  if (!l)
    return xprof_fail_nomem(err, "options");
  if ((filter && xprof_profile_list_add_regexes(l, filter, 0, err) < 0) ||
      (exclude && xprof_profile_list_add_regexes(l, exclude, 1, err) < 0) ||
      set_string(field, v, err) < 0) {
    xprof_profile_list_free(l);
    return -1;
  }
  xprof_profile_list_free(o->file_filter);
  o->file_filter = l;
  return 0;
}

/* A decimal number from lo to hi: 0, or -1 when v is none. */
static int number(const char *v, unsigned lo, unsigned hi, unsigned *out) {
  char *end;
  errno = 0;
  unsigned long n = strtoul(v, &end, 10);
  if (!*v || *v < '0' || *v > '9' || *end || errno || n < lo || n > hi)
    return -1;
  *out = (unsigned)n;
  return 0;
}

/* xprofile=MODE[:NAME].  "collect:" with nothing after the colon is a name
 * left out by mistake (an unset variable in "collect:$NAME"), not a
 * request for the default. */
static int set_mode(xprof_options *o, const char *v, xprof_error *err) {
  const char *colon = strchr(v, ':');
  size_t len = colon ? (size_t)(colon - v) : strlen(v);
  const char *name = colon ? colon + 1 : NULL;
  enum xprof_mode m;
  int tcov = 0;
  if (len == 7 && strncmp(v, "collect", 7) == 0)
    m = XPROF_MODE_COLLECT;
  else if (len == 4 && strncmp(v, "tcov", 4) == 0)
    m = XPROF_MODE_COLLECT, tcov = 1;
  else if (len == 3 && strncmp(v, "use", 3) == 0)
    m = XPROF_MODE_USE;
  else
    return xprof_fail(err, XPROF_ERR_INVALID,
                      "expected collect[:NAME], tcov[:NAME] or use[:NAME]");
  if (name && !*name)
    return xprof_fail(err, XPROF_ERR_INVALID,
                      "a profile name must follow the colon (leave the colon out for the "
                      "default name)");
  if (m != XPROF_MODE_USE || o->mode != XPROF_MODE_USE)
    free_strings(&o->use_names); /* the rightmost mode wins */
  xprof_free((void *)o->profile_name);
  o->profile_name = NULL;
  o->mode = m;
  o->tcov = tcov;
  if (tcov)
    o->coverage = XPROF_COVERAGE_ASKED;
  if (m == XPROF_MODE_COLLECT)
    return name ? set_string(&o->profile_name, name, err) : 0;
  return name ? push(&o->use_names, name, strlen(name), err) : 0;
}

/* warning=NAME:STATE */
static int set_warning(xprof_options *o, const char *v, xprof_error *err) {
  static const char *const states[] = {"default", "off", "on", "error", "no-error"};
  const char *colon = strrchr(v, ':');
  char *name = colon ? xprof_format("%.*s", (int)(colon - v), v) : NULL;
  enum xprof_warning w = name ? xprof_warning_of(name) : XPROF_N_WARNINGS;
  xprof_free(name);
  for (unsigned s = 0; w != XPROF_N_WARNINGS && s < sizeof states / sizeof *states; s++)
    if (strcmp(colon + 1, states[s]) == 0) {
      o->warning[w] = (unsigned char)s;
      return 0;
    }
  return xprof_fail(err, XPROF_ERR_INVALID,
                    "expected NAME:off|on|error|no-error, NAME one of missing-profile, "
                    "coverage-mismatch, xprof-inexact, xprof-coverage-table");
}

/* Comma-separated patterns, each kept (empty ones dropped). */
static int set_patterns(xprof_strings *s, const char *v, xprof_error *err) {
  for (const char *p = v; *p;) {
    size_t n = strcspn(p, ",");
    if (n && push(s, p, n, err) < 0)
      return -1;
    p += n + (p[n] == ',');
  }
  return 0;
}

static const xprof_option_info *find_option(const char *name, int *negated) {
  *negated = 0;
  for (const xprof_option_info *i = xprof_option_table; i->name; i++)
    if (strcmp(i->name, name) == 0)
      return i;
  if (strncmp(name, "no-", 3) != 0)
    return NULL;
  for (const xprof_option_info *i = xprof_option_table; i->name; i++)
    if ((i->flags & XPROF_OPT_FLAG) && strcmp(i->name, name + 3) == 0) {
      *negated = 1;
      return i;
    }
  return NULL;
}

/* The value of an option that takes one, as its kind stores it. */
static int set_value(xprof_options *o, const xprof_option_info *i, const char *v,
                     xprof_error *err) {
  char *field = (char *)o + i->offset;
  switch (i->kind) {
  case K_NUMBER:
    if (number(v, i->lo, i->hi, (unsigned *)field) < 0)
      return xprof_fail(err, XPROF_ERR_INVALID, "expected a number from %u to %u", i->lo,
                        i->hi);
    return 0;
  case K_REGEXES:
    return set_file_filter(o, (const char **)field, v, err);
  case K_STRING:
    return set_string((const char **)field, v, err);
  case K_MAP:
    if (!strchr(v, (int)i->lo) || v[0] == (char)i->lo)
      return xprof_fail(err, XPROF_ERR_INVALID, "expected %s", i->value);
    /* fall through */
  case K_LIST:
    return push((xprof_strings *)field, v, strlen(v), err);
  case K_PROFILE_LIST:
    if (!o->profile_list && !(o->profile_list = xprof_profile_list_new()))
      return xprof_fail_nomem(err, "options");
    if (xprof_profile_list_read(o->profile_list, v, err) < 0)
      return -1;
    return push((xprof_strings *)field, v, strlen(v), err);
  case K_PATTERNS:
    return set_patterns((xprof_strings *)field, v, err);
  case K_MODE:
    return set_mode(o, v, err);
  case K_WARNING:
    return set_warning(o, v, err);
  case K_UPDATE:
    if (strcmp(v, "thread") == 0)
      o->update = XPROF_UPDATE_THREAD;
    else if (strcmp(v, "atomic") == 0)
      o->update = XPROF_UPDATE_ATOMIC;
    else if (strcmp(v, "single") == 0)
      o->update = XPROF_UPDATE_SINGLE;
    else
      return xprof_fail(err, XPROF_ERR_INVALID, "expected thread, atomic or single");
    return 0;
  case K_SALVAGE:
    if (strcmp(v, "no") == 0)
      o->salvage = 101;
    else if (number(v, 0, 100, &o->salvage) < 0)
      return xprof_fail(err, XPROF_ERR_INVALID, "expected a percentage (0 to 100) or no");
    return 0;
  }
  return xprof_fail(err, XPROF_ERR_INVALID, "no value expected");
}

/* The value of a flag: yes or no. */
static void set_flag(xprof_options *o, const xprof_option_info *i, int yes) {
  char *field = (char *)o + i->offset;
  switch (i->kind) {
  case K_TCOV:
    if (yes)
      o->coverage = XPROF_COVERAGE_ASKED;
    else if (o->coverage == XPROF_COVERAGE_ASKED)
      o->coverage = XPROF_COVERAGE_QUIET;
    break;
  case K_COVERAGE_ON:
    if (!yes)
      o->coverage = XPROF_COVERAGE_OFF;
    else if (o->coverage == XPROF_COVERAGE_OFF)
      o->coverage = XPROF_COVERAGE_QUIET;
    break;
  default: /* K_FLAG, K_PROMOTE */
    *(int *)field = yes;
  }
}

int xprof_options_set(xprof_options *o, const char *name, const char *value,
                      unsigned compiler, xprof_error *err) {
  int negated;
  const xprof_option_info *i = find_option(name, &negated);
  if (!i)
    return xprof_fail(err, XPROF_ERR_NOTFOUND, "unknown option");
  if (!(i->flags & compiler))
    return xprof_fail(err, XPROF_ERR_INVALID, "an option of the %s plugin only",
                      i->flags & XPROF_OPT_GCC ? "GCC" : "LLVM");
  if (i->flags & XPROF_OPT_FLAG) {
    int yes = negated ? (value ? -1 : 0) : yes_or_no(value ? value : "");
    if (yes < 0)
      return xprof_fail(err, XPROF_ERR_INVALID, "expected yes or no%s",
                        negated ? " (no value after no-)" : "");
    set_flag(o, i, yes);
    return 0;
  }
  if (!value || !*value)
    return xprof_fail(err, XPROF_ERR_INVALID, "a value is expected (%s=%s)", name, i->value);
  return set_value(o, i, value, err);
}

int xprof_options_finish(xprof_options *o, xprof_error *err) {
  if (o->mode == XPROF_MODE_NONE)
    return xprof_fail(err, XPROF_ERR_INVALID, "no mode given");
  if (o->mode == XPROF_MODE_USE && o->use_names.n == 0 && push(&o->use_names, "a.out", 5, err) < 0)
    return -1;
  if (o->coverage_dir && o->coverage != XPROF_COVERAGE_OFF)
    o->coverage = XPROF_COVERAGE_ASKED;
  return 0;
}

/* ---- back to options ------------------------------------------------------ */

static void each_string(const xprof_strings *s, const char *name, xprof_option_fn fn,
                        void *ctx) {
  for (unsigned k = 0; k < s->n; k++)
    fn(ctx, name, s->v[k]);
}

/* The flag's value in o, as set_flag would read it back. */
static int flag_value(const xprof_options *o, const xprof_option_info *i) {
  switch (i->kind) {
  case K_TCOV:
    return o->coverage == XPROF_COVERAGE_ASKED;
  case K_COVERAGE_ON:
    return o->coverage != XPROF_COVERAGE_OFF;
  default:
    return *(const int *)((const char *)o + i->offset);
  }
}

static void each_value(const xprof_options *o, const xprof_options *dflt,
                       const xprof_option_info *i, xprof_option_fn fn, void *ctx) {
  static const char *const updates[] = {"thread", "atomic", "single"};
  static const char *const states[] = {"default", "off", "on", "error", "no-error"};
  const char *field = (const char *)o + i->offset;
  char buf[64];
  switch (i->kind) {
  case K_MODE: {
    char *mode = xprof_format("%s%s%s",
                              o->mode == XPROF_MODE_USE ? "use" : o->tcov ? "tcov" : "collect",
                              o->profile_name ? ":" : "", o->profile_name ? o->profile_name : "");
    if (o->mode == XPROF_MODE_COLLECT && mode)
      fn(ctx, i->name, mode);
    xprof_free(mode);
    for (unsigned k = 0; o->mode == XPROF_MODE_USE && k < o->use_names.n; k++) {
      char *use = xprof_format("use:%s", o->use_names.v[k]);
      if (use)
        fn(ctx, i->name, use);
      xprof_free(use);
    }
    return;
  }
  case K_LIST:
  case K_MAP:
  case K_PATTERNS:
  case K_PROFILE_LIST:
    each_string((const xprof_strings *)field, i->name, fn, ctx);
    return;
  case K_STRING:
  case K_REGEXES:
    if (*(const char *const *)field)
      fn(ctx, i->name, *(const char *const *)field);
    return;
  case K_NUMBER:
    if (*(const unsigned *)field != *(const unsigned *)((const char *)dflt + i->offset)) {
      snprintf(buf, sizeof buf, "%u", *(const unsigned *)field);
      fn(ctx, i->name, buf);
    }
    return;
  case K_UPDATE:
    if (o->update != dflt->update)
      fn(ctx, i->name, updates[o->update]);
    return;
  case K_SALVAGE:
    if (o->salvage != dflt->salvage) {
      snprintf(buf, sizeof buf, "%u", o->salvage);
      fn(ctx, i->name, o->salvage > 100 ? "no" : buf);
    }
    return;
  case K_WARNING:
    for (unsigned w = 0; w < XPROF_N_WARNINGS; w++)
      if (o->warning[w] != XPROF_WARN_DEFAULT) {
        snprintf(buf, sizeof buf, "%s:%s", xprof_warning_name(w), states[o->warning[w]]);
        fn(ctx, i->name, buf);
      }
    return;
  }
}

void xprof_options_each(const xprof_options *o, unsigned compiler, xprof_option_fn fn,
                        void *ctx) {
  xprof_options dflt;
  xprof_options_init(&dflt);
  for (const xprof_option_info *i = xprof_option_table; i->name; i++) {
    if (!(i->flags & compiler))
      continue;
    if (i->flags & XPROF_OPT_FLAG) {
      int v = flag_value(o, i), d = flag_value(&dflt, i);
      if (v != d) {
        char *no = v ? NULL : xprof_format("no-%s", i->name);
        fn(ctx, v ? i->name : no ? no : i->name, NULL);
        xprof_free(no);
      }
      continue;
    }
    each_value(o, &dflt, i, fn, ctx);
  }
}

/* ---- GCC's own options of what is profiled ------------------------------ */

void xprof_options_profile_values(xprof_options *o, int on) {
  if (o->mode == XPROF_MODE_COLLECT && !on)
    o->values_per_site = 0;
}

int xprof_options_prefix_path(xprof_options *o, const char *dir, xprof_error *err) {
  if (!*dir)
    return 0;
  char *real = realpath(dir, NULL), *joined = NULL, *cwd = NULL;
  if (!real && *dir != '/' && (cwd = getcwd(NULL, 0)))
    joined = xprof_format("%s/%s", cwd, dir);
  free(cwd);
  const char *top = real ? real : joined ? joined : dir;
  size_t n = strlen(top);
  char *map = xprof_format("%s%s=./", top, top[n - 1] == '/' ? "" : "/");
  int rc = map ? xprof_options_set(o, "object-prefix-map", map, XPROF_OPT_BOTH, err)
               : xprof_fail_nomem(err, "options");
  xprof_free(map);
  xprof_free(joined);
  free(real);
  return rc;
}

int xprof_options_gcc_files(xprof_options *o, const char *name, const char *value,
                            xprof_error *err) {
  static const struct {
    const char *gcc, *xprof;
  } filters[] = {{"-fprofile-filter-files", "filter-files"},
                 {"-fprofile-exclude-files", "exclude-files"}};
  if (strcmp(name, "-fprofile-prefix-path") == 0)
    return xprof_options_prefix_path(o, value, err) < 0 ? -1 : 1;
  for (size_t k = 0; k < sizeof filters / sizeof *filters; k++)
    if (strcmp(name, filters[k].gcc) == 0)
      return xprof_options_set(o, filters[k].xprof, value, XPROF_OPT_BOTH, err) < 0 ? -1 : 1;
  return 0;
}

xprof_skip_list xprof_options_skip(const xprof_options *o) {
  xprof_skip_list s = {o->skip_functions.v, o->skip_functions.n, o->skip_files.v,
                       o->skip_files.n, o->file_filter, o->profile_list};
  return s;
}

/* ---- warnings --------------------------------------------------------------- */

static const struct {
  const char *name, *clang; /* xprof's, and clang's name for the same */
} warnings[XPROF_N_WARNINGS] = {
    {"missing-profile", "profile-instr-unprofiled"},
    {"coverage-mismatch", "profile-instr-out-of-date"},
    {"xprof-inexact", NULL},
    {"xprof-coverage-table", NULL},
    {"xprof-hidden-runtime", NULL},
};

const char *xprof_warning_name(enum xprof_warning w) {
  return (unsigned)w < XPROF_N_WARNINGS ? warnings[w].name : NULL;
}

enum xprof_warning xprof_warning_of(const char *name) {
  for (unsigned w = 0; w < XPROF_N_WARNINGS; w++)
    if (strcmp(name, warnings[w].name) == 0 ||
        (warnings[w].clang && strcmp(name, warnings[w].clang) == 0))
      return (enum xprof_warning)w;
  return XPROF_N_WARNINGS;
}

int xprof_options_warning_flag(xprof_options *o, const char *arg, enum xprof_warning *w,
                               int *clang_name) {
  static const struct {
    const char *prefix;
    unsigned char state;
  } forms[] = {{"-Wno-error=", XPROF_WARN_NO_ERROR},
               {"-Werror=", XPROF_WARN_ERROR},
               {"-Wno-", XPROF_WARN_OFF},
               {"-W", XPROF_WARN_ON}};
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
    size_t n = strlen(forms[i].prefix);
    if (strncmp(arg, forms[i].prefix, n) != 0)
      continue;
    enum xprof_warning which = xprof_warning_of(arg + n);
    if (which == XPROF_N_WARNINGS)
      return 0;
    unsigned char *state = &o->warning[which];
    /* -Wno-error=NAME leaves a warning that is off off, and makes one
     * that is an error a warning again. */
    if (forms[i].state != XPROF_WARN_NO_ERROR || *state != XPROF_WARN_OFF)
      *state = forms[i].state;
    *w = which;
    *clang_name = strcmp(arg + n, warnings[which].name) != 0;
    return 1;
  }
  return 0;
}
