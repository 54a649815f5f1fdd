/*
 * xprof_plan.h - libxprof's compiler-side layer: what both compiler
 * plugins and the drivers decide alike, from a compiler-neutral
 * description of each function (xprof_graph.h's xprof_graph).  Each plugin
 * keeps only what walks or writes its own IR:
 *
 *   options.c   the options, one struct and one parser for the drivers
 *               and both plugins
 *   diag.c      the messages, handed to the compilers' own diagnostics
 *   naming.c    the object file's path and compile time, comdat arrays'
 *               names, which functions to leave alone
 *   collect.c   a collect build's plan: where each function's counters
 *               and states go, and every field of the descriptors
 *   use.c       a use build's plan: its data found, each function
 *               matched, salvaged or solved
 *   lookup.c    the data of one object file in the profiles named
 *   ship.c      compiler caches' digests, and data shipped to another
 *               machine (distcc)
 */
#ifndef XPROF_PLAN_H
#define XPROF_PLAN_H

#include "xprof_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- options (options.c) ----------------------------------------------- */

enum xprof_mode { XPROF_MODE_NONE, XPROF_MODE_COLLECT, XPROF_MODE_USE };

/* How counters are updated: per-thread copies with plain adds (exact, the
 * default), atomic adds in the shared array (exact), or plain adds in the
 * shared array (single-threaded training runs). */
enum xprof_update { XPROF_UPDATE_THREAD, XPROF_UPDATE_ATOMIC, XPROF_UPDATE_SINGLE };

/* What the plugins do with coverage tables: write one when they can (the
 * default; silent when they cannot, as for a configure test's object in
 * /dev), write one the user asked for (-xprofile=tcov: a warning when
 * they cannot), or none. */
enum xprof_coverage_mode { XPROF_COVERAGE_QUIET, XPROF_COVERAGE_ASKED, XPROF_COVERAGE_OFF };

/* The warnings of xprof's compilations, each under an option name that
 * -WNAME, -Wno-NAME, -Werror=NAME and -Wno-error=NAME govern (diag.c):
 * GCC's own names where GCC's profile use has the same warning. */
enum xprof_warning {
  XPROF_W_MISSING_PROFILE,   /* no usable data for an object file */
  XPROF_W_COVERAGE_MISMATCH, /* a function's data does not fit it */
  XPROF_W_INEXACT,           /* counts that may be off (clang: calls that did not return) */
  XPROF_W_COVERAGE_TABLE,    /* collect: a coverage table or CFG dump not written */
  XPROF_W_HIDDEN_RUNTIME,    /* collect: a program that hides the runtime from libraries */
  XPROF_N_WARNINGS
};
/* What the user made of a warning: as the compiler's defaults have it
 * (a warning; -Werror and -w apply), off, on, an error, or a warning
 * even under -Werror. */
enum xprof_warning_state {
  XPROF_WARN_DEFAULT, XPROF_WARN_OFF, XPROF_WARN_ON, XPROF_WARN_ERROR, XPROF_WARN_NO_ERROR
};

/* clang's -fprofile-list files, read as clang reads them for its IR-level
 * profiling (profile_list.c). */
typedef struct xprof_profile_list xprof_profile_list;
xprof_profile_list *xprof_profile_list_new(void);
/* Add a file's entries: 0, or -1 with err set naming the file (and the
 * line of an entry that is wrong).  _parse: the same for a text of len
 * bytes, called `name` in messages. */
int xprof_profile_list_read(xprof_profile_list *l, const char *path, xprof_error *err);
int xprof_profile_list_parse(xprof_profile_list *l, const char *text, size_t len,
                             const char *name, xprof_error *err);
/* Add GCC's REGEX[;REGEX...] list of source files (empty entries left
 * out; each found anywhere in a path): inclusions (-fprofile-filter-files)
 * or, with exclude, exclusions (-fprofile-exclude-files).  0, or -1 with
 * err naming an expression that does not compile. */
int xprof_profile_list_add_regexes(xprof_profile_list *l, const char *list, int exclude,
                                   xprof_error *err);
/* Is a function, by its symbol and its source file (either NULL when not
 * known), out of the profile?  0 for an empty list or none. */
int xprof_profile_list_excludes(const xprof_profile_list *l, const char *symbol,
                                const char *file);
void xprof_profile_list_free(xprof_profile_list *l);

/* The functions the user asked to leave alone (skip-functions and
 * skip-files: fnmatch(3) patterns; file_filter: GCC's
 * -fprofile-filter-files and -fprofile-exclude-files; profile_list:
 * clang's -fprofile-list files; either NULL when not given). */
typedef struct xprof_skip_list {
  const char *const *functions;
  unsigned n_functions;
  const char *const *files;
  unsigned n_files;
  const xprof_profile_list *file_filter, *profile_list;
} xprof_skip_list;

/* A list of strings the options own. */
typedef struct xprof_strings {
  const char **v;
  unsigned n, cap;
} xprof_strings;

typedef struct xprof_options {
  enum xprof_mode mode;
  int tcov;                       /* -xprofile=tcov: collect, for coverage */
  const char *profile_name;       /* collect[:NAME]; NULL: the program's */
  xprof_strings use_names;        /* use[:NAME]..., merged */
  xprof_strings pathmap;          /* COLLECT_PREFIX:USE_PREFIX */
  xprof_strings object_prefix_map; /* OLD=NEW (-xprofile_prefix_map) */
  xprof_strings prefix_map;       /* OLD=NEW: the compilation's -ffile-prefix-map
                                   * (clang; GCC's plugin reads GCC's own) */
  enum xprof_update update;
  int tls_counters;               /* update=thread: thread-local twins in code
                                   * for executables */
  unsigned values_per_site;       /* values kept per value-profile record */
  unsigned salvage;               /* percent of a changed function's counts that
                                   * must match to salvage them; above 100: never */
  xprof_strings skip_functions, skip_files;
  const char *filter_files, *exclude_files; /* REGEX[;REGEX...] as given ... */
  xprof_profile_list *file_filter; /* ... and compiled, or NULL */
  xprof_strings profile_lists;    /* clang's -fprofile-list files ... */
  xprof_profile_list *profile_list; /* ... as read, or NULL */
  int verbose;
  int all_edges;                  /* debug: a counter on every edge as well */
  int cfg_dump;                   /* debug: OBJECT.xpcfg */
  enum xprof_coverage_mode coverage;
  const char *coverage_dir;       /* tcov-dir=DIR: the coverage table goes there */
  int partial_training;           /* use: never-run functions keep their estimate */
  int order;                      /* use: record calls for the link's order (order.c) */
  int function_sections;          /* use, order: every function has its own section (LLVM) */
  int reorder_functions;          /* first-run words (collect), first-run order (use) */
  unsigned ext_tsp_blocks;        /* use: the most blocks that ran, for ext-TSP (0: off; */
                                  /* XPROF_EXT_TSP_DEFAULT: xprof_ext_tsp_blocks's) */
  int specialize;                 /* use: divisions and lengths to their values */
  const char *output;             /* the compiler's -o, when the plugin cannot know it */
  int link;                       /* the command also links */
  int lto;                        /* use: the module goes to a link-time optimizer */
  unsigned compiler;              /* the plugin's: XPROF_OPT_GCC or XPROF_OPT_LLVM */
  unsigned char warning[XPROF_N_WARNINGS]; /* enum xprof_warning_state */
  struct {                        /* the GCC plugin's own */
    int asm_counters;             /* counters as x86-64 asm, not GIMPLE */
    int use_flags_added;          /* the drivers' mark (plain_options.cc) */
    unsigned hot_inline, cold_inline, hot_inline_growth; /* hot_inline.cc */
  } gcc;
  struct {                        /* the LLVM plugin's own */
    int calls_return, pointer_calls_return; /* returning.cpp */
    unsigned pre_inline;          /* inline threshold before counting */
    int promote;                  /* -1: with update=atomic only */
    int inline_bonus, selects, arms;
    unsigned split_cold;          /* IR instructions */
    unsigned replay_inline;       /* use: callees' IR instructions at most (0: off) */
  } llvm;
} xprof_options;

/* Which compiler takes an option (its xprof_option_info flags). */
#define XPROF_OPT_GCC 1u
#define XPROF_OPT_LLVM 2u
#define XPROF_OPT_BOTH (XPROF_OPT_GCC | XPROF_OPT_LLVM)
#define XPROF_OPT_FLAG 4u  /* yes or no: NAME, NAME=yes|no, no-NAME */
#define XPROF_OPT_LIST 8u  /* repeatable: every value counts */
#define XPROF_OPT_DRIVER 16u /* set by the drivers, not by users */

/* Every option the plugins take, in the order of their help: the GCC
 * plugin's -fplugin-arg-xprof-NAME[=VALUE] and the LLVM plugin's
 * -xprof-NAME[=VALUE] (-xprofile=MODE: the mode itself).  A table ends
 * with a NULL name. */
typedef struct xprof_option_info {
  const char *name;
  unsigned flags;
  const char *value; /* what the value is, for help and messages; NULL: a flag */
  const char *help;
  /* How options.c stores it: the kind of field at that offset, and for a
   * number its range. */
  int kind;
  size_t offset;
  unsigned lo, hi;
} xprof_option_info;
extern const xprof_option_info xprof_option_table[];

/* The defaults. */
void xprof_options_init(xprof_options *o);
/* ext_tsp_blocks when not given: each compiler's own default. */
#define XPROF_EXT_TSP_DEFAULT UINT32_MAX
/* The limit of blocks for the ext-TSP layout that o's compiler (o->compiler)
 * takes. */
unsigned xprof_ext_tsp_blocks(const xprof_options *o);
/* Whether a function `name` that ran `ran` blocks in training is laid
 * out by the ext-TSP model under that limit: 1, or 0 with the verbose
 * note that says why not in note[size] (in either plugin's words: its
 * compiler's default, its spelling of the option). */
int xprof_ext_tsp_fits(const xprof_options *o, const char *name, unsigned ran, char *note,
                       size_t size);
void xprof_options_free(xprof_options *o);
/* Set option `name` (a table name, or no-NAME for a flag) to `value`
 * (NULL: given without one) as `compiler` (XPROF_OPT_GCC, _LLVM, or
 * XPROF_OPT_BOTH for the drivers) takes it: 0, or -1 with a message in
 * err that says what it takes (the caller names the option as the user
 * spelled it).  As with Sun
 * Studio, the rightmost -xprofile mode wins; use names add up. */
int xprof_options_set(xprof_options *o, const char *name, const char *value,
                      unsigned compiler, xprof_error *err);
/* After the last option: a mode must have been given (0, or -1 with err);
 * use mode without a name reads a.out's profile. */
int xprof_options_finish(xprof_options *o, xprof_error *err);
/* The options that differ from the defaults, as (name, value) pairs for
 * a plugin of `compiler`, in the table's order (value NULL: a flag that
 * is set; "no-NAME" with a NULL value: a flag that is cleared): what
 * the drivers hand their plugin, and what it parses back to the same
 * struct. */
typedef void (*xprof_option_fn)(void *ctx, const char *name, const char *value);
void xprof_options_each(const xprof_options *o, unsigned compiler, xprof_option_fn fn,
                        void *ctx);
/* The skip lists as xprof_skip_function takes them. */
xprof_skip_list xprof_options_skip(const xprof_options *o);
/* GCC's own options of what its profiling does, as each plugin or driver
 * finds them: -f[no-]profile-values (on: the last one's), where off
 * means a collect build records no values, as GCC's instrumentation
 * then measures none (at use it changes nothing, as in GCC); and
 * -fprofile-prefix-path=DIR, the top of the build tree that GCC strips
 * from its profiles' object paths, as object-prefix-map DIR/=./ with DIR
 * made absolute as object paths are (it need not exist).  0, or -1 with
 * err set. */
void xprof_options_profile_values(xprof_options *o, int on);
int xprof_options_prefix_path(xprof_options *o, const char *dir, xprof_error *err);
/* GCC's option `name` (spelled as on GCC's command line, without "=")
 * with its value, when it is one that says which files are profiled and
 * how they are named: -fprofile-filter-files and -fprofile-exclude-files
 * (the options filter-files and exclude-files) and -fprofile-prefix-path
 * (xprof_options_prefix_path).  1 when taken, 0 when name is none of
 * them, -1 with err set when the value is wrong. */
int xprof_options_gcc_files(xprof_options *o, const char *name, const char *value,
                            xprof_error *err);
/* The name of a warning's option ("missing-profile"), and the warning of
 * a name (this compiler's spelling too: clang's profile-instr-unprofiled
 * and profile-instr-out-of-date); XPROF_N_WARNINGS when none. */
const char *xprof_warning_name(enum xprof_warning w);
enum xprof_warning xprof_warning_of(const char *name);
/* A -W option of one of those warnings (-WNAME, -Wno-NAME, -Werror=NAME,
 * -Wno-error=NAME, in either spelling): 1 with the warning's state set
 * in o, *w the warning and *clang_name whether NAME is clang's spelling;
 * 0 for any other argument (the drivers read the compiler's command line
 * with it). */
int xprof_options_warning_flag(xprof_options *o, const char *arg, enum xprof_warning *w,
                               int *clang_name);

/* Partial training: a function that never ran in training keeps the
 * compiler's own estimate (it is optimized as without a profile) instead
 * of being made cold, optimized for size and moved out of the way; the
 * training run may simply not have reached code that matters
 * (GCC's -fprofile-partial-training).  Off by default, as in GCC. */
#define XPROF_PARTIAL_TRAINING_DEFAULT 0
/* Values kept per value-profile record (values-per-site). */
#define XPROF_VALUES_PER_SITE_DEFAULT 4

/* The share of the count mass that must match, by default: less, and the
 * function was rewritten rather than edited. */
#define XPROF_SALVAGE_DEFAULT_PERCENT 50

/* ---- diagnostics (diag.c) ---------------------------------------------- */

/* How a message goes out: a note (verbose output), a warning, an error (a
 * warning the user made one), or a warning that -Werror leaves alone. */
typedef enum xprof_diag_kind {
  XPROF_DIAG_NOTE, XPROF_DIAG_WARNING, XPROF_DIAG_ERROR, XPROF_DIAG_WARNING_NO_ERROR
} xprof_diag_kind;
/* Where a plugin's messages go: emit(ctx, kind, warning, text), warning
 * XPROF_N_WARNINGS for a note; text begins "xprof: ".  o: the options
 * whose warning states and verbosity apply. */
typedef struct xprof_diag {
  const xprof_options *o;
  void (*emit)(void *ctx, xprof_diag_kind kind, enum xprof_warning w, const char *text);
  void *ctx;
} xprof_diag;
/* Warning w, as the options make it (nothing when it is off). */
void xprof_warn(const xprof_diag *d, enum xprof_warning w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A note of verbose output (nothing unless verbose). */
void xprof_verbose(const xprof_diag *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* " [-WNAME]" or " [-Werror=NAME]", for a compiler that does not name the
 * warning itself ("" for a note). */
void xprof_warning_suffix(xprof_diag_kind kind, enum xprof_warning w, char *buf, size_t size);

/* ---- the object file and its functions (naming.c) ---------------------- */

/* An object file's signature: its procedures' folded in order, starting
 * from XPROF_OBJECT_SIGNATURE_INIT. */
#define XPROF_OBJECT_SIGNATURE_INIT 0xcbf29ce484222325ull
uint64_t xprof_object_signature_add(uint64_t acc, uint64_t proc_signature);

/* The compile time an object file records: now, or SOURCE_DATE_EPOCH when
 * it is set (reproducible builds). */
void xprof_compile_time(uint64_t *sec, uint32_t *usec);

/* The path a profile knows an object file by: `rel` with its directory
 * made absolute and resolved (the file itself need not exist yet);
 * malloc'd. */
char *xprof_object_path_resolve(const char *rel);

/* The object file a compilation of one source writes, before
 * xprof_object_path_resolve: the output's name with its suffix replaced
 * by .o (-S -o x.s names it x.o, as GCC does), else the source's base
 * name with .o, in the current directory; malloc'd. */
char *xprof_compile_object_name(const char *output, const char *source);
/* `path` with its prefix replaced by the first of `maps` ("OLD=NEW", as
 * -ffile-prefix-map and -fprofile-prefix-map take them) whose OLD starts
 * it, the last map first (as GCC applies them); malloc'd.  The object
 * path a profile records and looks up goes through the compilation's
 * prefix maps, so that build trees in different directories, each
 * compiled with -ffile-prefix-map=$PWD=., share one profile. */
char *xprof_remap_prefix(const char *path, const char *const *maps, unsigned n);
/* The object file a compilation of `source` (n bytes) writes as the
 * compiler driver names it: -o when compiling only (as
 * xprof_compile_object_name); the source's base name with .o otherwise,
 * prefixed by "OUTPUT-" when the command links to a differently named
 * output; malloc'd. */
char *xprof_link_object_name(const char *output, int link, const char *source, size_t n);
/* The path a profile knows the object file `file` by: through the
 * compilation's prefix maps, then the object prefix maps; malloc'd. */
char *xprof_map_object_path(const char *file, const xprof_options *o);

/* The name of a comdat function's own array of a kind (`kind`: one of
 * the ABI's prefixes, XPROF_ABI_STR(XPROF_COMDAT_COUNTERS), ...): alike in
 * every translation unit that has a copy of the function -- the prefix,
 * the function's name (cut, with a hash of all of it, when long) and its
 * key (xprof_comdat_key); malloc'd. */
char *xprof_comdat_array_name(const char *kind, const char *function, uint64_t key);

/* Does a call to this C library function end the process without running
 * its exit handlers, so without a profile to get wrong (abort, _exit,
 * failed assertions and checks)? */
int xprof_ends_without_profile(const char *callee);

/* Is a function on the list: its symbol or its name in the source (plain,
 * NULL when the same) matches a function pattern, or its source file
 * (NULL when not known) a file pattern, or the file filter or the
 * profile list leaves it out? */
int xprof_skip_function(const xprof_skip_list *skip, const char *symbol, const char *plain,
                        const char *file);

/* A function's attributes that keep it out of the profile, in collect and
 * use alike, as each plugin reads them from its compiler. */
#define XPROF_ATTR_NO_PROFILE 1u /* no_profile_instrument_function */
#define XPROF_ATTR_NAKED 2u      /* naked */
int xprof_skip_attributes(unsigned attrs);

/* ---- a collect build (collect.c) ----------------------------------------- */

/* A value-profile site's state: its kind and record type, where it starts
 * among its function's states, how many words it takes, and the first
 * word, which the compiler initializes (xprof_abi.h). */
typedef struct xprof_plan_site {
  uint32_t kind, type; /* enum xprof_site_kind, xprof_vp_type */
  uint32_t offset, words;
  uint64_t word0;
} xprof_plan_site;

#define XPROF_NO_FIRST_RUN UINT32_MAX
/* One function of the object file: its counters (the edges', its side
 * counters', then the debug counters of all-edges mode) and its sites'
 * states, in its own arrays (a comdat function: counters, states and the
 * first-run word in one array, which the linker keeps one of) or in its
 * share of the object file's; its first-run word; its shape. */
typedef struct xprof_plan_fn {
  const char *name;
  uint64_t signature, comdat_key;
  int comdat, take_address, shared_atomic;
  uint32_t n_edge_counters, n_side_counters, n_debug, n_counters;
  uint32_t n_sites, first_site; /* first_site: in the object's site table */
  xprof_plan_site *sites;
  uint32_t vp_words; /* of all its sites' states */
  uint32_t base;     /* its first counter, in its counter array */
  uint32_t vp_base;  /* its first state word, in its state array */
  uint32_t first_run; /* its word in its first-run array; XPROF_NO_FIRST_RUN */
  unsigned char *shape;
  size_t shape_size;
} xprof_plan_fn;

/* A word of an array that the compiler initializes: at, to word. */
typedef struct xprof_plan_word {
  uint32_t at;
  uint64_t word;
} xprof_plan_word;

typedef struct xprof_plan {
  const xprof_options *o;
  int twins; /* per-thread counters in thread-local twins */
  xprof_plan_fn *fns;
  uint32_t n_fns, cap_fns, n_sites;
  /* The object file's arrays: counters, states and first-run words. */
  uint32_t n_counters, n_vp_words, n_first_runs;
  xprof_plan_word *vp_init; /* the states' first words */
  uint32_t n_vp_init, cap_vp_init;
} xprof_plan;

/* A plan for an object file; executable: its code goes into an executable
 * (static TLS: per-thread counters may have thread-local twins). */
void xprof_plan_init(xprof_plan *p, const xprof_options *o, int executable);
void xprof_plan_free(xprof_plan *p);
/* Add a function whose graph is placed (xprof_graph_place); NULL when out
 * of memory.  Flags: */
#define XPROF_FN_COMDAT 1u        /* one copy per program: arrays of its own */
#define XPROF_FN_ADDRESS 2u       /* a possible indirect-call target */
#define XPROF_FN_COROUTINE 4u     /* a coroutine, which may resume in another
                                   * thread than the one that made its frame */
#define XPROF_FN_RESOLVER 8u      /* an ifunc resolver: run while the program
                                   * is relocated, which in a static program
                                   * is before thread-local storage exists */
/* With per-thread counting, a coroutine or a resolver counts with atomic
 * adds to the shared array: what its entry would find of its thread
 * (a copy, a twin) may not be its thread's, or may not exist yet. */
xprof_plan_fn *xprof_plan_add(xprof_plan *p, const char *name, const xprof_graph *g,
                              unsigned flags);
/* How f counts: in a thread-local twin of its array; in a copy its entry
 * code finds (per-thread counters without twins); atomically. */
int xprof_plan_in_twin(const xprof_plan *p, const xprof_plan_fn *f);
int xprof_plan_finds_copy(const xprof_plan *p, const xprof_plan_fn *f);
int xprof_plan_atomic(const xprof_plan *p, const xprof_plan_fn *f);
/* Whether the sites' values are recorded: not with values-per-site=0,
 * which GCC's -fno-profile-values sets, as GCC's own instrumentation then
 * records none.  The sites stay in the graph either way, so that a
 * function's signature does not depend on it; their records stay empty,
 * and indirect calls get edge counters. */
int xprof_plan_records_values(const xprof_plan *p);
/* The words of a comdat function's own array. */
uint32_t xprof_plan_fn_words(const xprof_plan *p, const xprof_plan_fn *f);
/* The name of an array (f NULL or not comdat: the object file's; else
 * f's own, alike in every object file that has a copy of it); malloc'd. */
enum xprof_plan_array {
  XPROF_ARRAY_COUNTERS, XPROF_ARRAY_TWIN, XPROF_ARRAY_TWIN_CELL, XPROF_ARRAY_THREAD_WORD
};
char *xprof_plan_array_name(const xprof_plan_fn *f, enum xprof_plan_array a);
/* The object file's signature. */
uint64_t xprof_plan_signature(const xprof_plan *p);

/* What goes into a field of a descriptor: the plugins make a constant of
 * their IR of each.  ELEMENT is &ARRAY[index] of function fn's array
 * (XPROF_OBJECT: the object file's) of that kind -- a comdat function's
 * one array holds all three kinds. */
enum xprof_value_kind {
  XPROF_VALUE_NONE,     /* no value: a field the plan does not know */
  XPROF_VALUE_NUMBER,   /* number */
  XPROF_VALUE_STRING,   /* string, a constant named symbol */
  XPROF_VALUE_BYTES,    /* bytes, size: a constant named symbol */
  XPROF_VALUE_NULL,
  XPROF_VALUE_ELEMENT,  /* fn, array, index */
  XPROF_VALUE_FUNCTION, /* function fn */
  XPROF_VALUE_CELL,     /* the cell of the twin function fn counts in */
  XPROF_VALUE_SITE,     /* &sites[index], the object's site table */
  XPROF_VALUE_PROC      /* &procs[index], the object's procedure table */
};
enum xprof_value_array { XPROF_IN_COUNTERS, XPROF_IN_VP, XPROF_IN_FIRST_RUN };
#define XPROF_OBJECT UINT32_MAX
typedef struct xprof_value {
  enum xprof_value_kind kind;
  uint64_t number;
  const char *string, *symbol;
  const void *bytes;
  uint32_t size, fn, array, index;
} xprof_value;
/* The fields of site s of function fn, of function fn, and of the object
 * file (path: as the profile knows it), indexed by the ABI's field
 * indexes. */
void xprof_plan_site_values(const xprof_plan *p, uint32_t fn, uint32_t s,
                            xprof_value v[XPROF_ABI_SITE_N_FIELDS]);
void xprof_plan_proc_values(const xprof_plan *p, uint32_t fn,
                            xprof_value v[XPROF_ABI_PROC_N_FIELDS]);
void xprof_plan_object_values(const xprof_plan *p, const char *path,
                              xprof_value v[XPROF_ABI_OBJECT_N_FIELDS]);

/* The verbose note of what was instrumented. */
void xprof_plan_note(const xprof_plan *p, const char *objpath, const xprof_diag *d);
/* The CFG dump of the debug option cfg-dump, OBJPATH.xpcfg begun; NULL
 * after a warning when it cannot be written. */
FILE *xprof_plan_cfg_dump(const char *objpath, const xprof_diag *d);
/* Write (and end) the coverage table t as the options say: asked for
 * (-xprofile=tcov), into the tcov directory under the profile's name of
 * the object, `path`, or beside the object file `file`; otherwise (a
 * collect build) into the object file: the result is then the top-level
 * asm that puts it there (malloc'd), which the plugin adds to the
 * module; NULL when the table went to a file or could not be written. */
char *xprof_plan_write_coverage(xprof_linetab *t, const xprof_options *o, const char *file,
                                const char *path, const xprof_diag *d);

/* ---- a use build (use.c, lookup.c) --------------------------------------- */

/* A place a block's code comes from: its line and column (0: unknown),
 * and the functions inlined around it there (innermost first, as
 * xprof_linetab_inlined_line takes them; depth 0: the function's own
 * code). */
typedef struct xprof_line_loc {
  uint32_t node, line;
  const xprof_inline_frame *frames;
  uint32_t depth;
  uint32_t column;
} xprof_line_loc;


/* What a use build found, for its verbose note. */
typedef struct xprof_use_stats {
  unsigned matched, mismatched, missing, promoted, untrained;
  unsigned specialized; /* divisions, string operations... to a value */
  /* Changed procedures whose counts were salvaged (counted as matched
   * too), and the old count mass of theirs, all and matched. */
  unsigned salvaged;
  uint64_t salvage_mass, salvage_matched;
  /* Of those, the functions whose unmatched blocks took counts by line. */
  unsigned filled;
  /* Functions given counts by source line (counted as matched too), the
   * counts of their entries in the line profile, all and placed; those
   * the line profile knew but could not place; lines_folded: counts left
   * out of lines_total, on lines folded away here (xprof_line_match). */
  unsigned by_lines, unplaced;
  uint64_t lines_total, lines_placed, lines_folded;
} xprof_use_stats;

typedef struct xprof_use {
  const xprof_options *o;
  const xprof_diag *d;
  const char *objpath;
  xprof_profile *profile;
  const xprof_objfile *obj; /* the object file's data */
  xprof_use_stats st;       /* the plugins count promoted and specialized */
  /* The line profile of the use names (XPROF_LINES_FILE), read when a
   * function first needs it; lines_read: looked for. */
  xprof_lineprof *lines;
  int lines_read;
  xprof_summary summary; /* an object file known only by lines: see below */
  xprof_objfile lines_obj; /* stands in for obj (xprof_use_values) */
  char pending[1024];    /* a mismatch's warning, until the lines decide */
  /* The sources read so far to tell whether they changed since training
   * (use.c's source_unchanged), with their hashes (0: unreadable). */
  struct xprof_use_source *hashed;
  uint32_t n_hashed, cap_hashed;
} xprof_use;

/* Find the object file's data: the line a driver shipped (distcc), else
 * in the profiles the options name, else the line profile beside them.
 * 1 with u->obj (NULL when only the lines know the object) and the
 * summary set; 0 without, after saying why where that is due
 * (has_functions: the object file has functions to miss the data of). */
int xprof_use_open(xprof_use *u, const xprof_options *o, const xprof_diag *d,
                   const char *objpath, const char *shipped, size_t n_shipped,
                   int has_functions);
/* The summary hot and cold are measured by: the profile's, or, for an
 * object file known only by lines, the whole profile's when it holds
 * counts (every object of a link must have the same: LLVM refuses to
 * link modules that differ), else the line profile's. */
const xprof_summary *xprof_use_summary(const xprof_use *u);
/* Is there anything for the function of that name, declared in source
 * `file` (the path its compilation gives; NULL: unknown): its procedure
 * (*f; NULL when there is none, counted as missing) or its lines?  The
 * object file's data know a static function by its name; the line
 * profile, of the whole program, by its name and source too
 * (xprof_lineprof_find).  1 or 0. */
int xprof_use_find(xprof_use *u, const char *name, const char *file, const xprof_proc **f);

/* The places of a function's blocks, for a match by source line, filled
 * by the plugin's xprof_places_fn only when the match needs them (its
 * storage: valid until the match returns). */
typedef struct xprof_places {
  uint32_t decl_line; /* the line of the function's name */
  const xprof_line_loc *locs;
  uint32_t n_locs;
  /* The places of its value-profile sites (node: the site), for the
   * callees the lines name at its indirect calls. */
  const xprof_line_loc *sites;
  uint32_t n_sites;
  /* Whether the source compiled here had code of function `fn` (as the
   * profile names it) on `line` before the compiler's first
   * simplifications: 1, 0, or -1 when it cannot say (had_line NULL:
   * never can).  A line of the profile that this source had but no place
   * here took was optimized away (a small if/else made a select, its
   * arms' code given the condition's line), not edited away: its counts
   * are left out of the share placed rather than counted against it. */
  int (*had_line)(void *had_ctx, const char *fn, uint32_t line);
  void *had_ctx;
} xprof_places;

/* A compilation's functions and the lines of their own code (not code
 * inlined into them) as the front end gave them, which each plugin notes
 * before its first simplifications; xprof_source_lines_had, an
 * xprof_places had_line, answers from it (had_ctx: the table).  Zeroed
 * to start; xprof_source_lines_free empties it. */
typedef struct xprof_source_fn xprof_source_fn;
typedef struct xprof_source_lines {
  xprof_source_fn *fns;
  uint32_t n, cap;
  int sorted;
} xprof_source_lines;
/* Function `fn` (copied) and its lines lines[0..n) (sorted and made
 * distinct in place); 0, or -1 when out of memory. */
int xprof_source_lines_add(xprof_source_lines *s, const char *fn, uint32_t *lines, uint32_t n);
/* 1 when fn had code on line, 0 when not, -1 when fn was not noted. */
int xprof_source_lines_had(void *s, const char *fn, uint32_t line);
void xprof_source_lines_free(xprof_source_lines *s);
typedef void (*xprof_places_fn)(void *ctx, xprof_places *p);

/* A function matched to its procedure: every edge's and block's count,
 * and, salvaged, the records and side counts that followed their sites;
 * by_lines: the counts placed by source line (no records). */
typedef struct xprof_use_fn {
  const xprof_proc *f;
  uint64_t *edge_count, *node_count;
  int salvaged, by_lines;
  xprof_proc view;     /* salvaged: f with the records that followed;
                          by_lines: records of the callees the lines name */
  xprof_vp_record *vp;
  uint64_t *side;      /* salvaged: per side counter, XPROF_NO_SIDE: none */
  void **owned;        /* by_lines: the records' values and names */
  uint32_t n_owned, cap_owned;
} xprof_use_fn;
/* Match the function `name` (of source `file`, as for xprof_use_find)
 * to graph g (placed; NULL or n_counters -1: the function cannot be
 * counted as the collect build did): its
 * procedure f's counts solved, or salvaged when g changed; failing that
 * (or without f), its counts in the line profile placed on g by the
 * places that places(ctx) gives.  1 with r holding the counts, 0 when
 * there are none (after warning when f's do not fit: the function is
 * compiled without profile data). */
int xprof_use_match(xprof_use *u, const char *name, const char *file, const xprof_proc *f,
                    const xprof_graph *g, xprof_places_fn places, void *ctx, xprof_use_fn *r);
/* The training build's inlining, replayed before a function is matched
 * by its lines, so that the code the training inlined gets the counts of
 * its own call site (the lines keep inlined code apart by call site)
 * rather than its callee's over all calls.  xprof_use_replays: 1 for a
 * function its lines will place -- one that only the lines know, one of
 * a sampled program, or one whose data come from the other compiler's
 * graphs -- else 0.  xprof_use_replay_count: how often the training ran
 * the copy of `callee` inlined at the call at place `call` of function
 * `name` (declared at decl_line) when that makes it hot (the summary's
 * hot count; LLVM's sample loader inlines such calls), else 0. */
int xprof_use_replays(xprof_use *u, const char *name, const char *file, const xprof_proc *f);
uint64_t xprof_use_replay_count(xprof_use *u, const char *name, const char *file,
                                uint32_t decl_line, const xprof_line_loc *call,
                                const char *callee);
/* The counts of a match by lines are estimates: from samples, a block
 * without any may still have run.  1 when they are samples. */
int xprof_use_fn_sampled(const xprof_use *u, const xprof_use_fn *r);
/* Is the profile of this object file time samples alone (no counts of
 * its own)?  Then a function without samples, or whose samples could
 * not be placed, is not known to be cold: it is merely unmeasured.  1 or
 * 0. */
int xprof_use_sampled(const xprof_use *u);
/* The records whose sites are this function's. */
const xprof_proc *xprof_use_records(const xprof_use_fn *r);
/* The object file the records' values are read by (xprof_vp_order; its
 * path names this object in VP_PROC values): the object file's data, or,
 * for an object known only by lines, one that stands in for it. */
const xprof_objfile *xprof_use_values(const xprof_use *u);
/* How often side counter i counted (XPROF_NO_SIDE: not known). */
uint64_t xprof_use_side_count(const xprof_use_fn *r, const xprof_graph *g, uint32_t i);
/* Calls through pointers that did not return (exit, longjmp) in training:
 * the counts of the fake edges out of the blocks that measured calls
 * begin. */
uint64_t xprof_use_unreturned(const xprof_graph *g, const uint64_t *edge_count);
void xprof_use_fn_free(xprof_use_fn *r);
/* The object file's closing warnings (salvaged functions, functions
 * placed by lines) and verbose note; frees the profiles. */
void xprof_use_close(xprof_use *u);

/* The messages of use mode, which the plugins word alike: */
#define XPROF_MSG_MISMATCH                                                    \
  "profile data for %s does not match this compilation (the function or its " \
  "compilation options changed since the training build); it is compiled "    \
  "without profile data"
/* A changed function whose counts were salvaged (verbose): name, blocks
 * matched, old blocks, percent of the count mass matched, value-profile
 * sites matched, sites. */
#define XPROF_MSG_SALVAGED                                                     \
  "%s: changed since the training build; its profile data was salvaged (%u of " \
  "%u blocks matched, %.0f%% of the counts; %u of %u value-profile sites)"
/* Not salvaged: name, percent matched, percent needed. */
#define XPROF_MSG_NOT_SALVAGED                                                 \
  "profile data for %s does not match this compilation (the function or its "  \
  "compilation options changed since the training build) and too little of "   \
  "it matches the new code to "                                                \
  "salvage (%.0f%% of the counts, %u%% needed); it is compiled without "        \
  "profile data"
#define XPROF_MSG_UNSOLVABLE                                                   \
  "profile data for %s cannot be solved; it is compiled without profile data"
#define XPROF_MSG_INCONSISTENT                                                 \
  "%s: inconsistent counts (a racy or damaged profile); negative counts were " \
  "set to 0"
/* Function, target, count, total: */
#define XPROF_MSG_PROMOTED "%s: promoted an indirect call to %s (%llu of %llu calls)"
/* Function, how many: */
#define XPROF_MSG_SPECIALIZED "%s: %u operation%s specialized to profiled values"

/* For a compiler in use mode: this compilation's object file `objpath`
 * from each profile directory NAME.profile of `names` (".profile" added
 * unless present), merged; `pathmap` entries "COLLECT_PREFIX:USE_PREFIX"
 * map objpath back to the name it had at collect time (first match).
 * Problems go to `warn` (never fatal; NULL: nowhere): missing
 * directories, damaged data.
 * Without data for objpath itself: the data of the object file that the
 * training build made of the same source in a one-command build ("cc -o
 * OUT a.c" names it OUT-a.o, or a.o when OUT is a) linked under another
 * name, when the profiles have exactly one such -- so that "-o prog"
 * in training and "-o prog-opt" in the use build find each other.
 * Returns the profile (its one object file is *obj, under the name the
 * training gave it) or NULL when no directory had data; *any_data tells
 * whether some directory was read. */
typedef void (*xprof_warn_fn)(void *ctx, const char *message);
/* The file XPROF_LINES_FILE of profile `name` (malloc'd), or NULL when
 * the profile is no directory or has none. */
char *xprof_use_lines_file(const char *name);
/* The line profile of the profiles named (XPROF_LINES_FILE in each
 * directory, several added up), or NULL when none has one (a file that
 * cannot be read is said through warn). */
xprof_lineprof *xprof_use_lookup_lines(const char *const *names, unsigned n_names,
                                       xprof_warn_fn warn, void *ctx);
/* The summary of the whole of the profiles named: 1, or 0 when they hold
 * no counts. */
int xprof_use_whole_summary(const char *const *names, unsigned n_names, xprof_summary *s);
xprof_profile *xprof_use_lookup(const char *const *names, unsigned n_names,
                                const char *const *pathmap, unsigned n_pathmap,
                                const char *objpath, const xprof_objfile **obj,
                                int *any_data, xprof_warn_fn warn, void *ctx);

/* The pathmap "COLLECT_PREFIX:USE_PREFIX" that maps `use_path` to
 * `collect_path` when the two end in the same path components (at least
 * the file name) and differ before them, malloc'd; NULL otherwise.
 * *depth (when not NULL) gets the number of components they share. */
char *xprof_pathmap_between(const char *collect_path, const char *use_path,
                            unsigned *depth);
/* `path` of the training build as this build names it: the first pathmap
 * entry ("OLD:NEW") whose OLD starts it, with NEW in its place
 * (malloc'd); NULL when none does. */
char *xprof_pathmap_use_path(const char *const *pathmap, unsigned n_pathmap, const char *path);
/* Why `objpath` has no data in the profiles of `names` (read whole: only
 * for the message of a compilation that found none), with `pathmap` as
 * for xprof_use_lookup:
 *   MOVED    no pathmap applied, and one object file there ends like it
 *            over the most components: a build tree that moved; *map gets
 *            the pathmap that would find it (malloc'd);
 *   UNLINKED the profile has other object files of its directory: it was
 *            in no program that ran (an unlinked archive member, a test
 *            program, a configure probe) -- nothing to warn about;
 *   FOREIGN  nothing of its directory: a profile of another build. */
typedef enum xprof_missing {
  XPROF_MISSING_UNLINKED,
  XPROF_MISSING_MOVED,
  XPROF_MISSING_FOREIGN
} xprof_missing;
xprof_missing xprof_use_explain_missing(const char *const *names, unsigned n_names,
                                        const char *const *pathmap, unsigned n_pathmap,
                                        const char *objpath, char **map);
/* The message both plugins print for it; returns 1 when it is a warning
 * (MOVED, FOREIGN), 0 when a note for verbose output only (UNLINKED). */
int xprof_use_missing_text(xprof_missing why, const char *objpath,
                           const char *map, char *buf, size_t size);
/* Does a use build take the line profile lp (NULL: none) for an object
 * file, with data of its own (has_obj: for the functions that changed)
 * or without (why: the reason there is none)?  Time samples know no
 * object files; counts do, and another program's count nothing here. */
int xprof_use_takes_lines(const xprof_lineprof *lp, int has_obj, xprof_missing why);

/* ---- bytes into the object (section_asm.c) ---------------------------- */

/* The top-level asm that puts len bytes into section `section` of the
 * object being compiled, with the ELF flags `flags` ("" or "e", which
 * keeps it out of a link's output); malloc'd, or NULL when out of memory.
 * The plugins add it to the module. */
char *xprof_plan_section_asm(const char *section, const char *flags, const char *bytes,
                             size_t len);

/* ---- function order (order.c) -------------------------------------------- */

/* A use build with -xprofile_order records, per function that ran, its
 * entry count, the blocks it ran and the counts of its direct calls, in
 * a section of its object that the link leaves out of its output:
 *   XPCALLS 1
 *   F <entry count> <blocks run> <function's symbol>
 *   C <count> <callee's symbol>         (calls of the F line before,
 *                                        direct and through pointers)
 * The driver reads it from the objects of the link and orders the
 * functions.  Recording: begin; per function its F, then its calls; end
 * gives the asm to add to the module (NULL when out of memory).  An
 * object none of whose functions ran still gets the section, with the
 * magic line alone: the link can tell it was compiled for the order. */
#define XPROF_CALLS_SECTION ".xprof.calls"
#define XPROF_CALLS_MAGIC "XPCALLS 1"
typedef struct xprof_calls xprof_calls;
xprof_calls *xprof_calls_begin(void);
/* A function's F line from its solved counts (node 0 the entry), and C
 * lines of the indirect calls its value-profile records saw (records:
 * xprof_use_records; n_values: the object file's n_values_per_vp); then
 * the plugin adds its direct calls. */
void xprof_calls_function(xprof_calls *r, const char *name, const uint64_t *node_count,
                          uint32_t n_nodes, const xprof_proc *records, uint32_t n_values);
void xprof_calls_call(xprof_calls *r, const char *callee, uint64_t count);
char *xprof_calls_end(xprof_calls *r);

/* The order, at the link: add each object's calls section (`name` for
 * messages; 0, or -1 with err set on a damaged one), the sizes of its
 * function symbols and the names of its sections; compute gives the functions in their order (*names
 * point into o, the array is malloc'd; 0 or -1 when out of memory), and
 * write puts it as the linker takes it: a GNU ld script that inserts a
 * section of them before .text, gold's section ordering file, or lld's
 * symbol ordering file. */
typedef struct xprof_order xprof_order;
typedef enum { XPROF_LINKER_BFD, XPROF_LINKER_GOLD, XPROF_LINKER_LLD } xprof_linker;
xprof_order *xprof_order_new(void);
int xprof_order_add(xprof_order *o, const char *text, size_t len, const char *name,
                    xprof_error *err);
int xprof_order_size(xprof_order *o, const char *name, uint64_t size);
/* A section of an object of the link, by name: a function's own
 * (.text.NAME, .text.hot.NAME, .text.startup.NAME) makes it placeable;
 * only those are ordered.  0, or -1 when out of memory. */
int xprof_order_section(xprof_order *o, const char *section);
int xprof_order_compute(xprof_order *o, const char ***names, uint32_t *n);
int xprof_order_write(const char *const *names, uint32_t n, xprof_linker linker, FILE *f);
void xprof_order_free(xprof_order *o);

/* ---- compiler caches ------------------------------------------------- */

/* What a use build reads beside its object file's data: what GCC's reads
 * (the hottest count, the training runs and the sum of their largest
 * counters for its gcov summary, and the hot count), or the whole summary
 * (the ProfileSummary LLVM's module carries, and the runs). */
#define XPROF_DIGEST_MAX 1u
#define XPROF_DIGEST_SUMMARY 2u
#define XPROF_DIGEST_HEX 33 /* 32 hex digits and the terminator */
/* A 128-bit digest, in hex, of the profile data of object file `o` (NULL:
 * the profile has none for it) and the parts `what` of summary `s`:
 * equal digests mean the compiler reads equal data. */
void xprof_use_digest(const xprof_objfile *o, const xprof_summary *s, unsigned what,
                      char hex[XPROF_DIGEST_HEX]);

/* A compilation on another machine (distcc) that cannot read the profile
 * gets its data shipped in its preprocessed source: one line, "# xprof
 * use data 4 ...", with the object file's data `o` (NULL: none), the
 * summary `s` and the part of the line profile `lines` (NULL: none) that
 * the source may define (malloc'd; NULL when out of memory).  The drivers
 * put it into a top-level asm statement; the plugins find it in the
 * module's asm (xprof_use_find_shipped: the line and its length, or
 * NULL), take it out, and read it back (xprof_use_unship: a profile of
 * that one object file, or of none, its summary set, and *lines the line
 * profile, NULL when none was shipped; 0, or -1 with both NULL). */
char *xprof_use_ship(const xprof_objfile *o, const xprof_summary *s, const xprof_lineprof *lines);
const char *xprof_use_find_shipped(const char *text, size_t len, size_t *line_len);
int xprof_use_unship(const char *line, size_t len, xprof_profile **out, xprof_lineprof **lines,
                     xprof_error *err);
/* What a driver ships for the use build of object file objpath with
 * profiles `names`, as xprof_use_open would find it on this machine: its
 * data, and the line profile (only what the preprocessed source
 * text[0..len) may define; all of it when text is NULL); NULL when there
 * is neither (or out of memory). */
char *xprof_use_ship_for(const char *const *names, unsigned n_names, const char *const *pathmap,
                         unsigned n_pathmap, const char *objpath, const char *text, size_t len);
/* What of line profile lp a compilation may use whose preprocessed source
 * is text[0..len): the functions whose symbol names (a C++ name's source
 * names) the text has as identifiers -- every function it defines, and
 * some it does not.  0, or -1 when out of memory (lp unchanged). */
int xprof_lines_for_source(xprof_lineprof *lp, const char *text, size_t len);
/* The object file's path travels the same way, in collect builds too (the
 * remote compilation writes a temporary file): "# xprof object PATH"
 * (malloc'd), found again by xprof_find_shipped_object (the path,
 * malloc'd, or NULL).  xprof_drop_shipped: the text without the shipped
 * lines (malloc'd, *out_len set). */
char *xprof_ship_object(const char *objpath);
char *xprof_find_shipped_object(const char *text, size_t len);
char *xprof_drop_shipped(const char *text, size_t len, size_t *out_len);

/* ---- counts by source line (lines.c) ---------------------------------------- */

/* How much of a function a line profile covered: its places in blocks,
 * and those the profile gave a count; the counts its code here could
 * take (the own lines of the profile function and of each instance
 * inlined into it that some place is in: code the training inlined at a
 * call that is a call here is the callee's), and those of the lines some
 * block took. */
typedef struct xprof_line_match {
  uint32_t located, matched;
  uint32_t scaled; /* of matched, by a callee's own lines (inlined here only) */
  uint64_t total, placed;
  uint64_t folded; /* left out of total: on lines folded away here (had_line) */
  uint32_t estimated; /* blocks the lines estimate (not the prior's measured) */
} xprof_line_match;

/* A function's counts on its graph from its entry f of line profile lp
 * (the function declared at p->decl_line, its blocks' places p->locs):
 * each block's estimate the largest
 * count of its places in f (for code of a function inlined here that the
 * training called, its own entry in lp scaled to the call; lp NULL:
 * none) -- but a place shared by several blocks estimates only those
 * that may run more often than the others (not those another of them
 * dominates) -- the entry's f's head, made a flow by xprof_infer_flow.
 * With a prior (NULL: none), counts that are already a flow on this
 * graph (salvage's): its measured blocks keep their counts, which the
 * lines' estimates give way to, and a place of a measured block
 * estimates no other; the blocks the lines do not estimate keep the
 * prior's counts where the flow allows.  Returns 1 with edge_count and
 * node_count filled, 0 when the profile gave none of its places a count
 * (the compiler's own estimates stand), -1 when out of memory or the
 * graph is too large. */
typedef struct xprof_line_prior {
  const uint64_t *count;         /* per node */
  const unsigned char *measured; /* per node: 1 where count was measured */
} xprof_line_prior;
int xprof_line_counts(const xprof_lineprof *lp, const xprof_lp_func *f, const xprof_places *p,
                      uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                      const xprof_line_prior *prior, uint64_t *edge_count,
                      uint64_t *node_count, xprof_line_match *m);

/* The callees that the indirect calls at place l of f's code reached in
 * training (f declared at decl_line; lp as for xprof_line_counts): *n of
 * them (of any discriminator of the line), their counts to be multiplied
 * by *scale when *scale >= 0.  NULL (*n 0) when the line has none. */
const xprof_lp_target *xprof_line_targets(const xprof_lineprof *lp, const xprof_lp_func *f,
                                          uint32_t decl_line, const xprof_line_loc *l,
                                          uint32_t *n, double *scale);

/* How often the training build ran the copy of function `name` that it
 * inlined at the call at place `call` of f's code (f declared at
 * decl_line): that instance's total in the line profile, 0 when the
 * training build did not inline it there (or the profile lacks the
 * context). */
uint64_t xprof_line_inlined(const xprof_lp_func *f, uint32_t decl_line, const xprof_line_loc *call,
                            const char *name);

/* What a plugin does with a module's top-level asm: the shipped object
 * path and data line taken out of `text`.  Returns 1 with s->kept the
 * text without them (each plugin writes it back), 0 when the text holds
 * none (s all zero), -1 when out of memory.  xprof_shipped_free frees
 * what s holds. */
typedef struct xprof_shipped {
  char *objpath; /* "# xprof object" */
  char *data;    /* the data line, n bytes */
  size_t n;
  char *kept;
  size_t kept_len;
} xprof_shipped;
int xprof_take_shipped(const char *text, size_t len, xprof_shipped *s);
void xprof_shipped_free(xprof_shipped *s);

#ifdef __cplusplus
}
#endif
#endif
