/*
 * xprof.h - libxprof: the profile data model, the xprof_text(4) text
 * format, the xprof binary data format (xprof_binary(5)), merging and
 * validation.
 *
 * This is the only place in the project that knows the file formats:
 * the runtime, both compiler plugins and every tool go through it.
 *
 * Memory: a profile owns everything reachable from it (strings, counter
 * arrays, value-profile records); xprof_profile_free() releases it all.
 * Errors: every fallible call returns 0 on success and -1 on failure,
 * filling an xprof_error with a message that names the file, the line
 * (text) or offset (binary), and what was expected.  Nothing here calls
 * exit() or abort(), and no output file is left half written.
 */
#ifndef XPROF_H
#define XPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the text format (xprof_text(4)). */
#define XPROF_TEXT_MAJOR 3
#define XPROF_TEXT_MINOR 1
/* Version of the binary data (SUN_PROFDATA_MAJOR/MINOR_VERSION). */
#define XPROF_BINARY_MAJOR 4
#define XPROF_BINARY_MINOR 7

/* Name of the data file inside a NAME.profile directory. */
#define XPROF_FEEDBACK_FILE "feedback"

/* ---- memory ---------------------------------------------------------- */

/* Every block libxprof allocates or frees goes through these four, and
 * "malloc'd" below means "from xprof_malloc": release such blocks with
 * xprof_free.  libxprof.a defines them on the C library's allocator
 * (memory.c); the runtime linked into instrumented programs defines them
 * on memory of its own (runtime/memory.c), so that a program's own malloc
 * is never called from inside it. */
void *xprof_malloc(size_t size);
void *xprof_calloc(size_t n, size_t size);
void *xprof_realloc(void *block, size_t size);
void xprof_free(void *block);
/* A formatted string (malloc'd), or NULL when out of memory: asprintf on
 * libxprof's allocator. */
char *xprof_format(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* A stable sort (the order of equal elements kept), for everything
 * libxprof sorts: qsort may call malloc. */
void xprof_sort(void *base, size_t n, size_t size,
                int (*cmp)(const void *, const void *));

/* ---- errors ---------------------------------------------------------- */

enum xprof_errc {
  XPROF_OK = 0,
  XPROF_ERR_IO,      /* open/read/write/rename failed; see errno text */
  XPROF_ERR_FORMAT,  /* the input is not valid data of its format */
  XPROF_ERR_VERSION, /* valid data of a version we do not read */
  XPROF_ERR_NOMEM,
  XPROF_ERR_INVALID, /* a profile that violates the model's rules */
  XPROF_ERR_NOTFOUND /* lookup: no such object file (not an error for use) */
};

typedef struct xprof_error {
  enum xprof_errc code;
  char msg[512];
} xprof_error;

/* ---- data model ------------------------------------------------------ */

/* Optional max/sum statistics over all counters of a scope. */
typedef struct xprof_stats {
  unsigned has_max : 1;
  unsigned has_sum : 1;
  uint64_t max;
  uint64_t sum;
} xprof_stats;

typedef enum xprof_vp_type {
  XPROF_VP_INT = 0,    /* signed int */
  XPROF_VP_LLONG = 1,  /* signed long long */
  XPROF_VP_FLOAT = 2,  /* float */
  XPROF_VP_DOUBLE = 3, /* double */
  XPROF_VP_PROC = 4,   /* indirectly called procedure */
  XPROF_VP_NTYPES
} xprof_vp_type;

/* One (count, value) entry of a value-profile record.  Numeric values are
 * kept as bits: VP_INT/VP_LLONG as the sign-extended two's complement
 * integer, VP_FLOAT as the 32 bits of the float (zero-extended),
 * VP_DOUBLE as the 64 bits of the double.  VP_PROC values are the string
 * "entry name:objfile pathname" or NULL when the callee was not profiled.
 * A zero count always has an empty value (bits 0, proc NULL). */
typedef struct xprof_vp_value {
  uint64_t count;
  uint64_t bits;
  const char *proc;
} xprof_vp_value;

typedef struct xprof_vp_record {
  xprof_vp_type type;
  uint32_t expr_id;
  xprof_vp_value *values; /* n_values_per_vp of the object file */
} xprof_vp_record;

typedef struct xprof_proc {
  const char *name; /* linker symbol name */
  uint64_t signature;
  uint32_t id;
  uint32_t n_counters;
  uint32_t *counter_ids; /* strictly increasing; NULL means 0..n-1 */
  uint64_t *counters;
  uint32_t n_vp_sites;   /* value-profiled expressions (= n_vp_exprs) */
  uint32_t n_vp_records; /* sorted by expr_id, ids unique */
  xprof_vp_record *vp;
  xprof_stats stats;
  /* When the procedure first ran: the rank of its first call among the
   * first calls of its process (1 = first), the smallest of the runs
   * merged; 0: not recorded or never ran.  Binary data only (TIME
   * records); GCC orders functions by it (-fprofile-reorder-functions). */
  uint64_t first_run;
  /* The procedure's shape (xprof_shape_encode) as its collect build
   * recorded it, for salvaging its counts when its code changes; NULL:
   * none.  Binary data only (SHAP records). */
  const unsigned char *shape;
  uint32_t shape_size;
} xprof_proc;

typedef struct xprof_objfile {
  const char *path;
  uint64_t tv_sec;
  uint32_t tv_usec;
  uint32_t n_values_per_vp;
  uint64_t signature;
  xprof_stats stats;
  uint32_t n_procs, cap_procs;
  xprof_proc *procs; /* names unique within the object file */
} xprof_objfile;

typedef struct xprof_program {
  const char *path;
  xprof_stats stats;
  uint32_t n_objrefs, cap_objrefs;
  const char **objrefs; /* pathnames of object files of this profile */
} xprof_program;

/* Binary records of kinds this library does not know, kept so that a
 * rewrite preserves them. */
typedef struct xprof_foreign {
  uint32_t tag, flags;
  uint64_t size;
  const unsigned char *data;
} xprof_foreign;

/* Time samples of one executable text segment of one image (executable
 * or shared library), taken by the runtime with sprofil(2) when
 * SUN_PROFDATA_SAMPLE is set (samples.c; SMPL records of xprof_binary(5)).
 * Bin i counts the samples whose program counter, less the image's load
 * address, fell in [text_off + i * bin_width, + bin_width).  The overflow
 * image (XPROF_IMAGE_OVERFLOW, path "") holds the samples outside every
 * known text segment in its one bin, index 0. */
#define XPROF_IMAGE_OVERFLOW 1u
typedef struct xprof_sample_bin {
  uint64_t index, count;
} xprof_sample_bin;

typedef struct xprof_image {
  const char *path;           /* as the dynamic linker knew it */
  const unsigned char *id;    /* its GNU build-id, else a hash of its text */
  uint32_t id_len;            /* at most XPROF_IMAGE_ID_MAX bytes */
  uint32_t flags;
  uint64_t text_off, text_size; /* the segment, relative to the load address */
  uint32_t bin_width;         /* bytes of text per bin */
  uint32_t n_bins;            /* bins with samples, by increasing index */
  xprof_sample_bin *bins;
  uint64_t samples;           /* the sum of the bins */
  uint64_t time_ns;           /* the process CPU time the samples stand for */
} xprof_image;
#define XPROF_IMAGE_ID_MAX 64

struct xprof_arena;

typedef struct xprof_profile {
  uint32_t n_objfiles, cap_objfiles;
  xprof_objfile *objfiles; /* pathnames unique */
  uint32_t n_programs, cap_programs;
  xprof_program *programs; /* pathnames unique */
  uint32_t n_foreign, cap_foreign;
  xprof_foreign *foreign;
  uint32_t n_images, cap_images;
  xprof_image *images; /* (path, text_off) unique */
  struct xprof_arena *arena; /* owns strings and arrays */
  /* The training runs merged into the profile (processes, each counted at
   * its first write), and the sum of each run's largest counter: GCC's
   * gcov summary (runs, sum_max), from which it sets its hot and
   * "probably never executed" thresholds.  Kept by binary data (RUNS),
   * not by text; 0 and 0 when unknown. */
  uint64_t runs, run_max_sum;
  /* The whole profile's counter summary when this profile holds only part
   * of it (set by a lookup through the index, so that a compiler reading
   * one object file sees program-wide hotness); NULL otherwise. */
  struct xprof_summary *summary;
} xprof_profile;

/* A percentile summary of all counters of a profile, as compilers want it
 * for hot and cold thresholds (LLVM's ProfileSummary): for each cutoff
 * (parts per million of the sum of all counters), the smallest counter
 * among the largest ones that make up that share, and how many they are.
 * Computed from a histogram of 4 buckets per power of two, so a threshold
 * is exact to within a quarter of its power of two.  With them, the
 * training runs and the sum of their largest counters (xprof_profile's
 * runs and run_max_sum, GCC's gcov summary): everything program-wide that
 * a compiler reads, so that a compiler cache's key and the data shipped
 * to another machine carry all of it. */
#define XPROF_SUMMARY_CUTOFFS 16
typedef struct xprof_summary {
  uint64_t total_max, total_sum, n_counts, n_procs;
  struct {
    uint32_t cutoff;
    uint64_t min_count, num_counts;
  } entry[XPROF_SUMMARY_CUTOFFS];
  uint64_t runs, run_max_sum; /* 0 and 0 when unknown */
} xprof_summary;

void xprof_compute_summary(const xprof_profile *p, xprof_summary *s);

/* The cutoff from which a count is hot: LLVM's (-profile-summary-cutoff-
 * hot), the counts that make up 99% of the sum of all of them. */
#define XPROF_HOT_CUTOFF 990000u
/* The smallest of the largest counts that make up `cutoff` parts per
 * million of the sum of all counts (one of the summary's cutoffs); 1 when
 * the summary has no such entry or no counts. */
uint64_t xprof_cutoff_count(const xprof_summary *s, uint32_t cutoff);

/* ---- building and querying ------------------------------------------- */

xprof_profile *xprof_profile_new(void);
void xprof_profile_free(xprof_profile *p);

/* Memory owned by the profile (freed with it). */
void *xprof_alloc(xprof_profile *p, size_t size);       /* zeroed */
const char *xprof_strdup(xprof_profile *p, const char *s);
const char *xprof_strndup(xprof_profile *p, const char *s, size_t n);

/* Append records; strings are copied into the profile.  Return NULL when
 * out of memory.  Uniqueness is the caller's duty (see xprof_validate). */
xprof_objfile *xprof_add_objfile(xprof_profile *p, const char *path);
xprof_proc *xprof_add_proc(xprof_profile *p, xprof_objfile *o,
                           const char *name);
xprof_program *xprof_add_program(xprof_profile *p, const char *path);
int xprof_program_add_objref(xprof_profile *p, xprof_program *prog,
                             const char *objpath);
/* Give a procedure n counters (ids 0..n-1, zeroed) and n_vp records. */
int xprof_proc_alloc_counters(xprof_profile *p, xprof_proc *f, uint32_t n);
int xprof_proc_alloc_vp(xprof_profile *p, const xprof_objfile *o,
                        xprof_proc *f, uint32_t n_records);
/* Give a procedure a copy of a shape (none when shape is NULL or size 0). */
int xprof_proc_set_shape(xprof_profile *p, xprof_proc *f, const unsigned char *shape,
                         uint32_t size);

/* ---- time samples (samples.c) ---- */
/* Add an image with no samples (path copied; id may be NULL), or find the
 * one of (path, text_off).  NULL when out of memory. */
xprof_image *xprof_add_image(xprof_profile *p, const char *path, uint64_t text_off);
xprof_image *xprof_find_image(const xprof_profile *p, const char *path, uint64_t text_off);
/* Give an image a copy of id and of bins (sorted by index, counts not 0;
 * samples becomes their sum).  0, or -1 when out of memory. */
int xprof_image_set_id(xprof_profile *p, xprof_image *img, const unsigned char *id,
                       uint32_t id_len);
int xprof_image_set_bins(xprof_profile *p, xprof_image *img, const xprof_sample_bin *bins,
                         uint32_t n_bins);
/* Add src's images into dst, multiplied by weight: the samples of an
 * image in both add up when it is the same build (id, segment and bin
 * width), else src's replace dst's (src is the newer run). */
int xprof_merge_images(xprof_profile *dst, const xprof_profile *src, uint64_t weight);
/* Whether an image is consistent (bins in order, inside the segment, and
 * adding up); with a message naming `file` and the image otherwise. */
int xprof_validate_image(const xprof_image *img, const char *file, xprof_error *err);
/* The image holding the most samples first, then by path: for listings. */
void xprof_sort_images(xprof_image *images, uint32_t n);
/* CPU time one sample stands for in the image, in nanoseconds (0: none). */
double xprof_image_sample_ns(const xprof_image *img);

/* Put object files, programs and each program's object files in the
 * order of their paths: the canonical order, in which the same data
 * gives the same bytes whatever order the runs and merges came in. */
void xprof_profile_sort(xprof_profile *p);

xprof_objfile *xprof_find_objfile(const xprof_profile *p, const char *path);
xprof_proc *xprof_find_proc(const xprof_objfile *o, const char *name);
xprof_program *xprof_find_program(const xprof_profile *p, const char *path);
/* Counter value by id (0 when absent). */
uint64_t xprof_proc_counter(const xprof_proc *f, uint32_t id);
/* The sum of a procedure's counters (saturating): every counted edge
 * traversal, which grows with how often its code ran. */
uint64_t xprof_proc_sum(const xprof_proc *f);

/* Keep the nv largest of n candidate values (distinct, counts above zero)
 * in out[0..nv), largest first, ties in candidate order; slots left over
 * are zeroed.  For VP_PROC what does not fit is not lost: it goes to the
 * empty value ("not profiled": the callees not named), which then takes
 * the last slot, or with nv == 1 to the one value kept.  So an indirect
 * call's counts keep summing to the calls made, as the runtime records
 * them, through every dump and merge (the LLVM pass derives an edge count
 * from the sum: XPROF_EDGE_MEASURED).  Other types drop what does not fit.
 * Reorders vals. */
void xprof_vp_keep_largest(xprof_vp_type type, xprof_vp_value *vals,
                           uint32_t n, xprof_vp_value *out, uint32_t nv);
/* What value-profile sites 0..n_sites-1 of f counted: each record's
 * counts summed (saturating), 0 for a site without a record. */
/* The values of rec that have a count (and, for VP_PROC, a name) as
 * indices into rec->values, by decreasing count, ties in record order;
 * returns how many (at most 64), and the sum of all its counts
 * (saturating) in *total.  What the compilers hand their optimizers. */
uint32_t xprof_vp_order(const xprof_objfile *o, const xprof_vp_record *rec,
                        uint32_t order[64], uint64_t *total);
void xprof_vp_site_totals(const xprof_objfile *o, const xprof_proc *f,
                          uint64_t *total, uint32_t n_sites);

/* Recompute the statistics that are present (has_max/has_sum set), or
 * all of them when `all` is nonzero. */
void xprof_update_stats(xprof_profile *p, int all);

/* Number of distinct VP_PROC values (the text header's n_proc_names). */
uint32_t xprof_count_proc_names(const xprof_profile *p);

/* The largest counter of the profile (0 when it has none). */
uint64_t xprof_max_counter(const xprof_profile *p);

/* The training runs data stands for, and the sum of their largest
 * counters: its own (runs, run_max_sum) when it knows them, else -- older
 * binary data, text -- one run whose largest counter is `max`, the data's
 * own (no run when max is 0), as a compiler takes it. */
void xprof_known_runs(uint64_t runs, uint64_t run_max_sum, uint64_t max, uint64_t *out_runs,
                      uint64_t *out_max_sum);

/* Check the model's rules: unique names, sorted counter ids, sorted
 * unique value-profile expression ids, zero counts with empty values,
 * program references to existing object files, writable names. */
int xprof_validate(const xprof_profile *p, const char *what,
                   xprof_error *err);

/* Names for value-profile types ("VP_INT", ...); NULL if out of range. */
const char *xprof_vp_type_name(xprof_vp_type t);

/* ---- text format (xprof_text(4), version 3.1) ------------------------ */

/* Parse text from memory; `name` is used in messages. */
int xprof_text_parse(const char *name, const char *buf, size_t len,
                     xprof_profile **out, xprof_error *err);
int xprof_text_read_file(const char *path, xprof_profile **out,
                         xprof_error *err);
/* Write canonical text to an open stream / to a file (atomically; "-"
 * is standard output). */
int xprof_text_write_stream(const xprof_profile *p, FILE *f,
                            const char *name, xprof_error *err);
int xprof_text_write_file(const xprof_profile *p, const char *path,
                          xprof_error *err);

/* ---- binary format (xprof_binary(5), version 4.3) -------------------- */

/* Parse a whole binary file held in memory.  The profile takes ownership
 * of `buf` (which must come from xprof_malloc) on success and on failure:
 * counter arrays point into it, so reading costs no copy. */
int xprof_binary_parse(const char *name, unsigned char *buf, size_t len,
                       xprof_profile **out, xprof_error *err);
int xprof_binary_read_file(const char *path, xprof_profile **out,
                           xprof_error *err);
/* Serialize to memory (malloc'd) / write a file atomically. */
int xprof_binary_serialize(const xprof_profile *p, unsigned char **out,
                           size_t *out_len, xprof_error *err);
int xprof_binary_write_file(const xprof_profile *p, const char *path,
                            xprof_error *err);
/* Write an open file descriptor from its current position. */
int xprof_binary_write_fd(const xprof_profile *p, int fd, const char *name,
                          xprof_error *err);

/* Read only the records of one object file, through the file's index:
 * the cost does not grow with the size of the profile.  On success *out
 * holds a profile with that object file (only that one, unless the file
 * has no index, when the whole file is read).  When the file has no data
 * for `objpath` the result is -1 with code XPROF_ERR_NOTFOUND. */
int xprof_binary_lookup(const char *path, const char *objpath,
                        xprof_profile **out, xprof_error *err);

/* ---- files and profile directories ----------------------------------- */

/* Read a feedback file in either format (detected from its first bytes). */
int xprof_read_file(const char *path, xprof_profile **out, xprof_error *err);
/* Read NAME.profile: `dir`/feedback, or `dir`/feedback.text when there is
 * no binary file.  `dir` may also name a data file directly. */
/* The data file that readers of profile directory (or data file) `dir`
 * read: DIR/feedback, else DIR/feedback.text, else `dir` itself when it
 * is not a directory; malloc'd, or NULL (with err) when there is none. */
char *xprof_profile_data_file(const char *dir, xprof_error *err);
int xprof_read_profile_dir(const char *dir, xprof_profile **out,
                           xprof_error *err);
/* Look one object file up in a profile directory or data file: through
 * the index for binary data, by a full read for text. */
int xprof_lookup_objfile(const char *dir, const char *objpath,
                         xprof_profile **out, xprof_error *err);
/* Create `dir` (and missing parents) and write dir/feedback atomically. */
int xprof_write_profile_dir(const xprof_profile *p, const char *dir,
                            xprof_error *err);
/* The directory of profile NAME: NAME.profile, or NAME when it ends in
 * ".profile" already (malloc'd; NULL when out of memory). */
char *xprof_profile_dir_name(const char *name);
/* What -xprofile=use:NAME reads: NAME itself when it is a file of profile
 * data (text from xprof_btoa, kept in version control, say, or binary
 * data), else the directory xprof_profile_dir_name(NAME) (malloc'd). */
char *xprof_use_profile_name(const char *name);
/* Atomic replacement of `path`: the writer gets a temporary file in the
 * same directory; on success it is fsync'd and renamed over `path`, on
 * failure it is removed and `path` is untouched. */
typedef int (*xprof_write_fn)(void *ctx, int fd, const char *tmpname,
                              xprof_error *err);
int xprof_atomic_write(const char *path, xprof_write_fn fn, void *ctx,
                       xprof_error *err);
/* The same without the fsync, for files a build makes again (the
 * compilers' coverage tables): readers never see half a file, and a
 * crash may leave the old one. */
int xprof_replace_file(const char *path, xprof_write_fn fn, void *ctx, xprof_error *err);
/* open(2) with O_CLOEXEC, never on descriptor 0, 1 or 2: in a process
 * that closed a standard stream (`prog 2>&-`, a daemon), the next open
 * takes its number, and the program's (or the runtime's) next write to
 * that stream would go into the file.  A file that lands there is moved
 * above 2.  Returns the descriptor, or -1 with errno set. */
int xprof_open(const char *path, int flags, unsigned mode);
/* The same for a descriptor made another way (a pipe): `fd` itself when
 * it is above 2, else a close-on-exec duplicate above 2 (`fd` closed);
 * -1 with errno set when fd is -1 or no duplicate can be made. */
int xprof_fd_above_stdio(int fd);
/* Read a whole file into an xprof_malloc'd buffer (NUL-terminated, not counted). */
int xprof_slurp(const char *path, unsigned char **buf, size_t *len,
                xprof_error *err);
/* write(2) all bytes, retrying on EINTR and short writes. */
int xprof_write_all(int fd, const void *buf, size_t len, const char *name,
                    xprof_error *err);
/* Create a directory and its missing parents, like mkdir -p. */
int xprof_mkdirs(const char *path, xprof_error *err);

/* For a compiler in use mode: this compilation's object file `objpath`
 * from each profile directory NAME.profile of `names` (".profile" added
 * unless present), merged; `pathmap` entries "COLLECT_PREFIX:USE_PREFIX"
 * map objpath back to the name it had at collect time (first match).
 * Problems go to `warn` (never fatal): missing directories, damaged data.
 * Without data for objpath itself: the data of the object file that the
 * training build made of the same source in a one-command build ("cc -o
 * OUT a.c" names it OUT-a.o, or a.o when OUT is a) linked under another
 * name, when the profiles have exactly one such -- so that "-o prog"
 * in training and "-o prog-opt" in the use build find each other.
 * Returns the profile (its one object file is *obj, under the name the
 * training gave it) or NULL when no directory had data; *any_data tells
 * whether some directory was read. */
typedef void (*xprof_warn_fn)(void *ctx, const char *message);
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

/* Partial training: a function that never ran in training keeps the
 * compiler's own estimate (it is optimized as without a profile) instead
 * of being made cold, optimized for size and moved out of the way; the
 * training run may simply not have reached code that matters
 * (GCC's -fprofile-partial-training).  Off by default in both plugins,
 * as in GCC: untrained code then gets every optimization use mode turns
 * on, and grows (docs/performance-history.md). */
#define XPROF_PARTIAL_TRAINING_DEFAULT 0

/* ---- merging --------------------------------------------------------- */

typedef enum xprof_replace {
  XPROF_REPLACE_OBJFILE = 0, /* a rebuilt object replaces its old data */
  XPROF_REPLACE_PROGRAM,     /* ... and resets its program's objects */
  XPROF_REPLACE_ALL          /* ... and resets the whole profile */
} xprof_replace;

/* Parse "objfile" / "program" / "all"; -1 when unknown. */
int xprof_replace_parse(const char *s, xprof_replace *out);

/* Merge `src` into `dst`, multiplying src's counts by `weight` (>= 1).
 * Counters add and saturate at UINT64_MAX; value profiles keep the
 * n_values_per_vp most frequent values; programs are united; an object
 * file present in both with different signatures is resolved by `mode`,
 * the newer (tv_sec, tv_usec) winning.  `src` is not modified.  The only
 * failure is running out of memory; dst is then valid but partly merged,
 * and callers discard it (nothing is written from it). */
int xprof_merge(xprof_profile *dst, const xprof_profile *src,
                uint64_t weight, xprof_replace mode, xprof_error *err);

/* ---- comparing trainings (overlap.c) ---------------------------------- */

/* What two profiles have in common, in a scope. */
typedef struct xprof_overlap_counts {
  uint64_t sum_a, sum_b;   /* the counts of each side in the scope */
  uint32_t procs_both;     /* procedures of the same build on both sides */
  uint32_t procs_changed;  /* on both sides, different builds */
  uint32_t procs_only_a, procs_only_b;
} xprof_overlap_counts;

/* The overlap of profiles a and b over the whole profile (obj NULL) or
 * one object file: the sum over counters of the smaller of the two
 * shares, each count a share of its side's total in the scope (as
 * gcov-tool and llvm-profdata measure it).  1: the same distribution;
 * 0: nothing in common.  Counters compare only within procedures of the
 * same build (name and signature); others weigh in the totals. */
double xprof_overlap_score(const xprof_profile *a, const xprof_profile *b, const char *obj,
                           xprof_overlap_counts *counts);
/* The overlap of one procedure's two builds on their own totals (b NULL:
 * only in a; 0, or 1 when it never ran), and in *lost its share of the
 * whole difference between the profiles (whole_a, whole_b: the totals
 * the shares are of): half the sum of |a/whole_a - b/whole_b|. */
double xprof_overlap_proc(const xprof_proc *a, const xprof_proc *b, double *lost,
                          uint64_t whole_a, uint64_t whole_b);

/* ---- control flow graphs: counter placement and flow solving ---------- */

/* A procedure's CFG as both compiler plugins describe it: nodes 0 (ENTRY)
 * and 1 (EXIT) plus the blocks, edges in a deterministic order.  The
 * virtual edge EXIT -> ENTRY is implied. */
#define XPROF_ENTRY 0u
#define XPROF_EXIT 1u

/* Edge flags */
#define XPROF_EDGE_FAKE 1u     /* stands for abnormal flow: never counted */
#define XPROF_EDGE_IGNORE 2u   /* replaced by fake edges: not in the graph */
#define XPROF_EDGE_CRITICAL 4u /* counting it would need a new block */
/* Real flow that must stay on the spanning tree: no counter can go there,
 * or (an edge to EXIT from a block with a call that may not return) its
 * derived count must take in what left through that call too. */
#define XPROF_EDGE_NOCOUNT 8u
/* Real flow whose count a value-profile site measures: the edge into an
 * indirect call, made as often as the call (an indirect call's record
 * keeps the sum of its counts: see xprof_vp_keep_largest).  It needs no
 * counter and stays off the tree; `site` names the site (its expr id). */
#define XPROF_EDGE_MEASURED 16u

typedef struct xprof_edge {
  uint32_t src, dst;
  uint32_t flags;
  uint64_t weight; /* estimated frequency: heavier edges stay uncounted */
  uint32_t site;   /* XPROF_EDGE_MEASURED only */
} xprof_edge;

/* counter_of_edge values other than counter ids */
#define XPROF_ON_TREE UINT32_MAX     /* derived by flow conservation */
#define XPROF_NOT_IN_GRAPH (UINT32_MAX - 1) /* XPROF_EDGE_IGNORE */
#define XPROF_MEASURED (UINT32_MAX - 2)     /* XPROF_EDGE_MEASURED */
/* Does counter_of_edge value c name a counter? */
#define XPROF_HAS_COUNTER(c) ((c) < XPROF_MEASURED)

/* Choose the edges to count: a maximum spanning tree by weight (the
 * virtual edge, fake edges and edges into EXIT first, then by decreasing
 * weight, critical edges favoured) stays uncounted; every other edge gets
 * the next counter id in edge order, but measured edges, which need none.
 * Returns the number of counters, or -1 when a fake edge cannot be put on
 * the tree (the procedure cannot be profiled exactly). */
int64_t xprof_place_counters(uint32_t n_nodes, const xprof_edge *edges,
                             uint32_t n_edges, uint32_t *counter_of_edge);

/* The blocks that need a fake edge to EXIT because they cannot reach it
 * (an infinite loop: a server's or a thread's main loop): one block of
 * each such region, written to from[] (room for n_nodes); returns their
 * number, or -1 when out of memory.  Without those edges the flow of a
 * function that never returns would be conserved only as zero: every
 * count derived through EXIT -> ENTRY, its entry count first, would come
 * out 0 however often it ran.  With them, frames still running when the
 * profile is written count as having left by the fake edge. */
int64_t xprof_dead_ends(uint32_t n_nodes, const xprof_edge *edges, uint32_t n_edges,
                        uint32_t *from);

/* The procedure signature: a hash of the graph and of the placement, so
 * that a profile is only applied to the very same counters. */
uint64_t xprof_cfg_signature(uint32_t n_nodes, const xprof_edge *edges,
                             uint32_t n_edges, const uint32_t *counter_of_edge);

/* Whether an edge gets a debug counter of its own (all-edges mode). */
#define XPROF_DEBUG_COUNTED(flags) \
  (!((flags) & (XPROF_EDGE_FAKE | XPROF_EDGE_IGNORE | XPROF_EDGE_NOCOUNT)))

/* The key in the names of a comdat function's counter arrays, which the
 * linker makes one for all copies of the function: copies must agree on
 * the arrays' layout to share them, and the signature does not cover it
 * all.  Copies compiled in different translation units can agree on the
 * signature and not on which edges can be counted (NOCOUNT is not in the
 * signature: a call may be taken as returning where the callee's body is
 * seen), which moves the debug counters; or be compiled with different
 * value-profile options (site_words: each site's state, in words). */
uint64_t xprof_comdat_key(uint64_t signature, const xprof_edge *edges,
                          uint32_t n_edges, int debug_counters,
                          const uint32_t *site_words, uint32_t n_sites);

/* Solve every edge and node count from the counters by flow conservation.
 * counter_value(id) comes from `counters` (n_counters values).  Returns 0
 * when the counts are consistent, 1 when the count of a real edge came
 * out negative and was clamped to 0 (a damaged or racy profile), -1 on
 * bad arguments or when out of memory.  Fake edges may come out negative
 * where a function returns twice (setjmp); they are clamped silently.
 * node_count may be NULL. */
int xprof_solve_flow(uint32_t n_nodes, const xprof_edge *edges,
                     uint32_t n_edges, const uint32_t *counter_of_edge,
                     const uint64_t *counters, uint32_t n_counters,
                     uint64_t *edge_count, uint64_t *node_count);
/* The same for a graph with measured edges: site_total[s] is what site s
 * measured (xprof_vp_site_totals); -1 when a measured edge names a site
 * beyond n_sites. */
int xprof_solve_flow_sites(uint32_t n_nodes, const xprof_edge *edges,
                           uint32_t n_edges, const uint32_t *counter_of_edge,
                           const uint64_t *counters, uint32_t n_counters,
                           const uint64_t *site_total, uint32_t n_sites,
                           uint64_t *edge_count, uint64_t *node_count);

/* ---- shapes and stale-profile salvage (shape.c, salvage.c) ------------ */

/* A procedure's shape as a collect build records it (SHAP records of
 * xprof_binary(5)): its graph, the placement of its counters, and per
 * node a hash of the block's contents (ENTRY and EXIT: 0).  A plugin
 * hashes what a block does and not how the compiler named it: the kinds
 * of its statements and operations and the names of its callees, never
 * SSA names, constants' spelling or line numbers, starting from 0 and
 * adding with these two. */
uint32_t xprof_block_hash_add(uint32_t h, uint64_t v);
uint32_t xprof_block_hash_str(uint32_t h, const char *s);

typedef struct xprof_shape {
  uint32_t n_nodes, n_edges;
  xprof_edge *edges; /* flags FAKE, IGNORE and MEASURED (with site) kept */
  uint32_t *counter_of_edge;
  uint32_t *hash; /* per node */
  /* Per value-profile site (expression id): its node and record type
   * (xprof_vp_type), so that records follow their sites. */
  uint32_t n_sites;
  uint32_t *site_node, *site_type;
  /* Side counters: counters of something in a block other than its edges
   * (the LLVM plugin's counted selects), each one's node and counter id,
   * in the order the plugin keeps them. */
  uint32_t n_side;
  uint32_t *side_node, *side_counter;
} xprof_shape;

/* The shape as bytes (a malloc'd buffer); -1 when out of memory. */
int xprof_shape_encode(const xprof_shape *shape, unsigned char **buf, size_t *len);
/* The shape of those bytes, its arrays malloc'd; -1 with err naming
 * `what` (the procedure) when they are not a shape this library reads. */
int xprof_shape_decode(const unsigned char *buf, size_t len, const char *what,
                       xprof_shape *shape, xprof_error *err);
void xprof_shape_free(xprof_shape *shape);

typedef struct xprof_salvage_result {
  uint32_t old_blocks, new_blocks, matched_blocks; /* ENTRY and EXIT left out */
  /* Sums of the old blocks' counts, all and those matched. */
  uint64_t old_mass, matched_mass;
  uint32_t dropped; /* carried counts that contradicted the new graph */
  uint32_t sites, sites_matched; /* the new value-profile sites, and those
                                  * whose old records follow them */
} xprof_salvage_result;

/* Counts for a procedure whose graph changed since the training run (now:
 * its shape in this compilation; counter_of_edge unused), from the trained
 * procedure's shape and its solved counts (xprof_solve_flow_sites on the
 * shape): blocks matched by their hashes, the counts of matched blocks and
 * edges carried over, the rest inferred by flow conservation (salvage.c).
 * edge_count and node_count are always a consistent flow with the old
 * entry count; old_of_new (room for now->n_nodes, or NULL) gets each new
 * node's old one, or UINT32_MAX.  Returns 0, or -1 when out of memory or
 * when EXIT cannot be reached from ENTRY. */
int xprof_salvage(const xprof_shape *old, const uint64_t *old_edge_count,
                  const uint64_t *old_node_count, const xprof_shape *now,
                  uint64_t *edge_count, uint64_t *node_count, uint32_t *old_of_new,
                  xprof_salvage_result *r);
/* The share of the old count mass that matched (1 when nothing ran). */
double xprof_salvage_fraction(const xprof_salvage_result *r);
/* For a use build: f's counts (f of object file o in the profile) carried
 * over to the changed procedure `now`, through f's recorded shape; and
 * f's value-profile records that follow their sites (the site of the same
 * type in the matched block, the k-th of its type there on both sides),
 * renumbered as the new sites, in *vp (an xprof_malloc'd array the caller
 * frees; the values stay f's), *n_vp of them; side (room for now->n_side,
 * or NULL when it has none) gets the value of the old side counter each
 * new one follows by the same rule, or XPROF_NO_SIDE.  Returns 0 (r says
 * how much matched: the caller decides whether that is enough), or -1
 * with err saying why not (no shape, a damaged one, no flow). */
int xprof_use_salvage(const xprof_objfile *o, const xprof_proc *f, const xprof_shape *now,
                      uint64_t *edge_count, uint64_t *node_count, xprof_vp_record **vp,
                      uint32_t *n_vp, uint64_t *side, xprof_salvage_result *r,
                      xprof_error *err);
#define XPROF_NO_SIDE UINT64_MAX
/* The share of the count mass that must match, by default: less, and the
 * function was rewritten rather than edited. */
#define XPROF_SALVAGE_DEFAULT_PERCENT 50

/* ---- executables and shared libraries (elf.c) --------------------------- */

/* What the tools need of an image's file: its functions (by address, one
 * per address), its executable segments and its build-id.  Addresses are
 * ELF virtual addresses, which are what the runtime records (relative to
 * the image's load address).  64-bit little-endian ELF only. */
#define XPROF_ELF_NO_FILE UINT32_MAX
typedef struct xprof_elf_func {
  const char *name; /* as in the symbol table (C++: mangled) */
  uint64_t addr, size; /* size 0: up to the next function */
  int global;
  uint32_t file; /* a local's source file: its STT_FILE symbol's index */
} xprof_elf_func;

typedef struct xprof_elf_segment {
  uint64_t vaddr, size;
  uint64_t text_hash; /* xprof_hash64 of its bytes: the id of an image without build-id */
} xprof_elf_segment;

typedef struct xprof_elf {
  int type; /* ET_EXEC, ET_DYN, ... */
  int full_symbols; /* a .symtab, not only the exported .dynsym */
  xprof_elf_func *funcs;
  const xprof_elf_func **by_name; /* funcs by name, then address */
  uint32_t n_funcs, n_segs;
  xprof_elf_segment *segs;
  unsigned char build_id[XPROF_IMAGE_ID_MAX];
  uint32_t build_id_len;
  struct xprof_arena *arena;
} xprof_elf;

/* Read an ELF file (0, or -1 with err naming the file and the problem). */
int xprof_elf_read(const char *path, xprof_elf **out, xprof_error *err);
int xprof_elf_parse(const char *path, const unsigned char *buf, size_t len, xprof_elf **out,
                    xprof_error *err);
void xprof_elf_free(xprof_elf *e);
/* The function holding addr, or NULL. */
const xprof_elf_func *xprof_elf_func_at(const xprof_elf *e, uint64_t addr);
/* The function of that symbol name (the lowest address of several), or
 * NULL. */
const xprof_elf_func *xprof_elf_func_named(const xprof_elf *e, const char *name);
/* How many functions have that name (static functions of several source
 * files); they are e->by_name[*first + i]. */
uint32_t xprof_elf_funcs_named(const xprof_elf *e, const char *name, uint32_t *first);
/* Whether the image's samples were taken of this very file (build-id, or
 * the hash of the segment's bytes). */
int xprof_elf_matches_image(const xprof_elf *e, const xprof_image *img);

/* An ELF file's DWARF line table (.debug_line, versions 2-5): its rows
 * by address; files by the table's own index. */
typedef struct xprof_line_row {
  uint64_t addr;
  uint32_t file, line;
  uint32_t seq; /* its place in the line program, for rows at one address */
  int is_stmt;  /* a statement begins here */
} xprof_line_row;

typedef struct xprof_line_table {
  xprof_line_row *rows;
  uint32_t n_rows, cap_rows;
  char **files; /* paths as the compiler gave them, joined to their directory */
  uint32_t n_files, cap_files;
} xprof_line_table;

int xprof_line_table_read(const char *path, xprof_line_table **out, xprof_error *err);
int xprof_line_table_parse(const char *name, const unsigned char *buf, size_t len,
                           xprof_line_table **out, xprof_error *err);
void xprof_line_table_free(xprof_line_table *t);
/* The lowest address in [lo, hi) where a statement of that line of that
 * source begins (source: an absolute path; the table's paths may be
 * relative tails of it): 0, or -1 when there is none. */
int xprof_line_address(const xprof_line_table *t, uint64_t lo, uint64_t hi, const char *source,
                       uint32_t line, uint64_t *addr);

/* ---- time by function (attribute.c) ----------------------------------- */

/* The samples of a profile's images given to the functions of the
 * images' files, busiest first.  An image whose file is missing or was
 * rebuilt since the run keeps its samples in one row named
 * XPROF_NO_FUNCTION, and a note says why; so do samples outside every
 * function symbol and the overflow bin. */
#define XPROF_NO_FUNCTION "(no function)"
typedef struct xprof_func_time {
  const xprof_image *image;
  const char *name; /* symbol name, or XPROF_NO_FUNCTION */
  uint64_t addr;    /* of the function */
  uint64_t samples;
  double ns;        /* the CPU time they stand for */
} xprof_func_time;

typedef struct xprof_time_table {
  xprof_func_time *rows;
  uint32_t n_rows, cap_rows;
  char **notes; /* "IMAGE: why its time is not by function" */
  uint32_t n_notes, cap_notes;
  uint64_t samples; /* all of them */
  double ns;
  struct xprof_elf **elfs; /* the files read, which the names live in */
  uint32_t n_elfs, cap_elfs;
} xprof_time_table;

/* 0, or -1 when out of memory.  The table points into p's images.  With
 * XPROF_TIME_ANY_BUILD an image whose file is not the build sampled is
 * still read for its functions (with a note). */
#define XPROF_TIME_ANY_BUILD 1u
int xprof_time_by_function(const xprof_profile *p, unsigned flags, xprof_time_table **out,
                           xprof_error *err);
void xprof_time_table_free(xprof_time_table *t);
/* The busiest row of that function name, or NULL. */
const xprof_func_time *xprof_time_of(const xprof_time_table *t, const char *name);

/* ---- CFG dumps and coverage tables ------------------------------------ */

/* What a plugin instrumented, in one text format read by xprof_verify
 * (the debug CFG dump, OBJECT.xpcfg) and by xprof_tcov (the coverage
 * table, OBJECT.xpcov).  With the plugins' all-edges debug option every
 * real edge also gets a counter of its own, numbered after the
 * spanning-tree counters.
 *   XPCFG 1 | XPCFG 2 | XPCFG 3
 *   PROC <name> <signature 0x..> <n_nodes> <n_edges> <n_counters> <n_debug>
 *   <src> <dst> <flags> <counter|-|sSITE> <debug counter|-> (n_edges lines)
 * where sSITE marks an edge that value-profile site SITE measures.
 * Version 2 adds, after the header, whose rules its line counts follow
 * (gcc: gcov's; llvm: llvm-cov gcov's):
 *   R gcc | R llvm
 * then, anywhere, source files (before their first use), and after a
 * PROC's edges the procedure's lines:
 *   S <index> <size> <mtime> <hash 0x..> <absolute path>
 *   F <source> <line>          where the procedure is declared
 *   C                          the procedure is a comdat function: copies
 *                              in other objects share its counts
 *   N <line>                   the line where the procedure's body ends
 *   L <node> <source> <line>   a line of block <node>, in the order the
 *                              block's statements first reach it
 *   B <node>                   the next lines of <node> are a piece of it
 *                              that gcov counts as a block of its own
 *                              (GCC's coverage splits blocks after calls)
 *   K <node> <callee>          (version 3) a direct call in block <node> to
 *                              the function of that symbol name, once
 *                              per call (xprof_gprof's call arcs)
 *   E <edge> [<source> <line>] edge <edge> (0, 1, ... in the PROC's order)
 *                              is a block of its own for gcov, with that
 *                              line if any (GCC splits edges that jump
 *                              from another line than the block's last)
 * (index: 0, 1, ... in order; hash: xprof_hash64 of the file's bytes when
 * it was compiled; mtime in seconds). */
void xprof_cfgdump_begin(FILE *f);
void xprof_cfgdump_proc(FILE *f, const char *name, uint64_t signature,
                        uint32_t n_nodes, const xprof_edge *edges,
                        uint32_t n_edges, const uint32_t *counter_of_edge,
                        uint32_t n_counters, int with_debug);

#define XPROF_NO_LINE UINT32_MAX
typedef struct xprof_cfg_line {
  uint32_t node, file, line; /* file: an index of the sources */
  uint32_t piece;            /* of the node (B records before it) */
} xprof_cfg_line;

typedef struct xprof_cfg_edge_block {
  uint32_t edge, file, line; /* file XPROF_NO_LINE: a block without line */
} xprof_cfg_edge_block;

typedef struct xprof_cfg_call {
  uint32_t node;
  const char *callee;
} xprof_cfg_call;

typedef struct xprof_cfg_source {
  const char *path;
  uint64_t size, mtime, hash; /* when compiled */
} xprof_cfg_source;

typedef struct xprof_cfgdump_entry {
  const char *name;
  uint64_t signature;
  uint32_t n_nodes, n_edges, n_counters, n_debug;
  xprof_edge *edges;
  uint32_t *counter_of_edge;
  uint32_t *debug_of_edge; /* XPROF_ON_TREE when none */
  uint32_t decl_file, decl_line; /* XPROF_NO_LINE when unknown */
  uint32_t end_line;             /* XPROF_NO_LINE when unknown */
  int comdat;
  int gcc_rules; /* the table's R record says gcc */
  xprof_cfg_line *lines;
  uint32_t n_lines;
  uint32_t *n_pieces; /* by node (NULL: one each) */
  xprof_cfg_edge_block *edge_blocks;
  uint32_t n_edge_blocks;
  xprof_cfg_call *calls; /* version 3: direct calls, by block */
  uint32_t n_calls;
} xprof_cfgdump_entry;

typedef struct xprof_cfgdump {
  int version;
  xprof_cfgdump_entry *procs;
  uint32_t n_procs;
  xprof_cfg_source *sources;
  uint32_t n_sources;
} xprof_cfgdump;

/* Read a CFG dump or coverage table; everything is owned by `owner`. */
int xprof_cfgdump_read(const char *path, xprof_profile *owner, xprof_cfgdump *out,
                       xprof_error *err);

/* Writing a coverage table (linetab.c), in memory until it is complete:
 * begin; per procedure its graph (as xprof_cfgdump_proc, without debug
 * counters), whether it is a comdat function, and where it is declared
 * (decl_file NULL or decl_line 0: unknown), then the lines of its blocks;
 * then end.  Sources are named as
 * the compiler names them, made absolute and hashed on first use.
 * xprof_linetab_end replaces `path` (NULL: writes nothing) and frees t;
 * 0 or -1. */
typedef struct xprof_linetab xprof_linetab;
xprof_linetab *xprof_linetab_begin(int gcc_rules);
void xprof_linetab_proc(xprof_linetab *t, const char *name, uint64_t signature, uint32_t n_nodes,
                        const xprof_edge *edges, uint32_t n_edges,
                        const uint32_t *counter_of_edge, uint32_t n_counters, int comdat,
                        const char *decl_file, uint32_t decl_line);
/* The line where the last procedure's body ends (gcov's function
 * groups need it; GCC's plugin records it). */
void xprof_linetab_end_line(xprof_linetab *t, uint32_t line);
/* A line of block `node`; repeats of the block's lines are dropped. */
void xprof_linetab_line(xprof_linetab *t, uint32_t node, const char *file, uint32_t line);
/* A direct call in block `node` to the function of symbol `callee` (a K
 * record; one per call). */
void xprof_linetab_call(xprof_linetab *t, uint32_t node, const char *callee);
/* The next lines of `node` are a new piece of it (a B record). */
void xprof_linetab_piece(xprof_linetab *t, uint32_t node);
/* Edge `edge` (its index in the graph given) is a block of its own for
 * gcov, with line `line` of `file` (NULL: none). */
void xprof_linetab_edge_block(xprof_linetab *t, uint32_t edge, const char *file, uint32_t line);
/* Whether any line was recorded (code compiled without line information
 * has none). */
int xprof_linetab_has_lines(const xprof_linetab *t);
int xprof_linetab_end(xprof_linetab *t, const char *path, xprof_error *err);
/* End t and write it as object objpath's table (xprof_linetab_path),
 * making `dir` when it is missing; 0, or -1 with err set. */
int xprof_linetab_write(xprof_linetab *t, const char *objpath, const char *dir,
                        xprof_error *err);
/* What the plugins do with coverage tables: write one when they can (the
 * default; silent when they cannot, as for a configure test's object in
 * /dev), write one the user asked for (-xprofile=tcov: a warning when
 * they cannot), or none. */
enum xprof_coverage_mode { XPROF_COVERAGE_QUIET, XPROF_COVERAGE_ASKED, XPROF_COVERAGE_OFF };
/* Where an object's coverage table goes: OBJECT.xpcov, or with a
 * directory, DIR/ + the object's absolute path with '/' as '#' + .xpcov
 * (malloc'd). */
char *xprof_linetab_path(const char *objpath, const char *dir);

/* Solve a procedure's edge (and, node_counts not NULL, block) counts
 * from its counters, by its table entry `c`: the edges into indirect
 * calls from the sums of their value-profile records.  Returns as
 * xprof_solve_flow (-1 also when out of memory). */
int xprof_solve_proc(const xprof_objfile *o, const xprof_proc *f, const xprof_cfgdump_entry *c,
                     uint64_t *edge_counts, uint64_t *node_counts);

/* ---- the call graph (callgraph.c) ------------------------------------- */

/* The exact call graph of a profile: per procedure its entries and the
 * basic blocks it ran; per caller and callee the calls.  Direct calls
 * come from the coverage tables' K records times their blocks' counts,
 * indirect ones from VP_PROC value profiles. */
typedef struct xprof_cg_proc {
  const char *name;
  uint64_t signature;
  const xprof_objfile *objfile;
  const xprof_proc *proc;
  uint64_t calls;   /* times called */
  uint64_t entries; /* the compilers' entry count: calls, and abnormal entries
                       (into a computed goto's or setjmp's targets) */
  uint64_t blocks;  /* basic blocks run (entries of its blocks) */
  uint64_t unknown; /* calls no arc accounts for (from code not instrumented) */
  int solved;      /* calls and blocks are known (its table was read) */
} xprof_cg_proc;

typedef struct xprof_cg_arc {
  uint32_t caller;      /* index of procs */
  const char *callee;   /* symbol name */
  uint32_t callee_proc; /* index of procs, UINT32_MAX: not in the profile */
  uint64_t count;
  uint64_t indirect;    /* of which through a pointer (value profiles) */
  const char *callee_obj; /* the callee's object file, when the value profile names it */
} xprof_cg_arc;

typedef struct xprof_callgraph {
  xprof_cg_proc *procs;
  uint32_t n_procs, cap_procs;
  xprof_cg_arc *arcs; /* by caller, then callee name */
  uint32_t n_arcs, cap_arcs;
  char **notes; /* what could not be counted, and why */
  uint32_t n_notes, cap_notes;
  xprof_profile *owner; /* holds the tables read */
  uint32_t *comdat_slots; /* a hash of the comdat functions' rows */
  uint32_t comdat_mask, n_comdat;
} xprof_callgraph;

/* Where object objpath's coverage table is (malloc'd), or NULL. */
typedef char *(*xprof_table_finder)(void *ctx, const char *objpath);
/* Build p's call graph (it keeps pointers into p); 0, or -1 when out of
 * memory.  Objects without tables, or with stale ones, are notes. */
int xprof_callgraph_build(xprof_profile *p, xprof_table_finder find, void *ctx,
                          xprof_callgraph **out, xprof_error *err);
void xprof_callgraph_free(xprof_callgraph *g);
/* The index of the procedure of that name, or UINT32_MAX. */
uint32_t xprof_callgraph_find(const xprof_callgraph *g, const char *name);

/* ---- gprof's gmon.out (gmon.c) ----------------------------------------- */

/* The contents of a gmon.out: one histogram (counts not limited to 16
 * bits: the writer splits them into records that gprof adds up), call
 * arcs and basic-block counts.  Addresses as in the executable's symbol
 * table. */
typedef struct xprof_gmon_arc {
  uint64_t from, self, count;
} xprof_gmon_arc;

typedef struct xprof_gmon_bb {
  uint64_t addr, count;
} xprof_gmon_bb;

typedef struct xprof_gmon {
  uint64_t hist_low, hist_high; /* the histogram's text, n_hist equal bins */
  uint64_t *hist;
  uint32_t n_hist;
  uint32_t prof_rate; /* samples per second */
  char dimen[16];     /* "seconds" */
  char dimen_abbrev;  /* 's' */
  xprof_gmon_arc *arcs;
  uint32_t n_arcs, cap_arcs;
  xprof_gmon_bb *bbs;
  uint32_t n_bbs, cap_bbs;
} xprof_gmon;

/* The file's bytes (malloc'd); 0, or -1 when out of memory. */
int xprof_gmon_serialize(const xprof_gmon *g, unsigned char **out, size_t *len, xprof_error *err);
/* Read a gmon.out of a 64-bit little-endian program, adding up records
 * as gprof does; errors name the file and the offset. */
int xprof_gmon_parse(const char *name, const unsigned char *p, size_t len, xprof_gmon *g,
                     xprof_error *err);
void xprof_gmon_free(xprof_gmon *g);

/* ---- DCPI profile files (dcpi.c) --------------------------------------- */

/* A DCPI profile file, format version 0.07 (dcpiformat(4)): its header
 * lines in order (required, optional and unknown alike, so that a
 * rewrite keeps them), and its samples by address offset from tstart. */
typedef struct xprof_dcpi_line {
  char *key, *value;
} xprof_dcpi_line;

typedef struct xprof_dcpi_count {
  uint32_t offset, count;
} xprof_dcpi_count;

typedef struct xprof_dcpi {
  xprof_dcpi_line *lines;
  uint32_t n_lines, cap_lines;
  xprof_dcpi_count *counts; /* by increasing offset, counts not 0 */
  uint32_t n_counts, cap_counts;
} xprof_dcpi;

/* A header line's value (NULL: none); set one (replaced, or added last). */
const char *xprof_dcpi_get(const xprof_dcpi *d, const char *key);
int xprof_dcpi_set(xprof_dcpi *d, const char *key, const char *value);
/* Fill d (zeroed, or holding the lines of an older file, which stay) from
 * an image's samples: epoch "YYMMDDHHMM" (UTC), platform, CPU speed in
 * MHz; event "cputime", period in microseconds.  0, or -1 with err. */
int xprof_dcpi_from_image(const xprof_image *img, const char *epoch, const char *platform,
                          unsigned cpu_mhz, xprof_dcpi *d, xprof_error *err);
/* The file's bytes (malloc'd). */
int xprof_dcpi_serialize(const xprof_dcpi *d, unsigned char **out, size_t *len,
                         xprof_error *err);
/* Read a file: every required line once with a well-formed value, binary
 * data of major version 0, chunks in order and inside the text, a footer
 * that adds up; errors give the offset and what was expected. */
int xprof_dcpi_parse(const char *name, const unsigned char *p, size_t len, xprof_dcpi *d,
                     xprof_error *err);
void xprof_dcpi_free(xprof_dcpi *d);
/* The samples of a file read as an image of p (bin width 1; its path from
 * the path line, else its image id).  0, or -1 when out of memory. */
int xprof_dcpi_to_image(const xprof_dcpi *d, xprof_profile *p, xprof_image **out);

/* ---- aprof reports (aprof.c) ------------------------------------------- */

/* The version of aprof's report format written: p lines of twelve fields
 * (id rms min max sum sqr-sum occ real-sum self-sum self-min self-max
 * self-sqr). */
#define XPROF_APROF_VERSION 3
typedef struct xprof_aprof_options {
  int time;          /* metric time-usec (else bb-count) */
  double total_time; /* time-usec: the k line, all sampled time in microseconds */
  /* time-usec: a routine's self time in microseconds */
  double (*self_time)(void *ctx, const char *name);
  /* the name for an r line (NULL, or returning NULL: as it is) */
  const char *(*demangle)(void *ctx, const char *name);
  void *ctx;
  const char *app;          /* the a line (NULL: none) */
  uint64_t exe_mtime, now;  /* the e line (0: none) and the t line, in seconds */
} xprof_aprof_options;
/* Write the report of p's call graph g (see aprof.c for what each field
 * holds); 0, or -1 when out of memory. */
int xprof_aprof_write(FILE *out, const xprof_profile *p, const xprof_callgraph *g,
                      const xprof_aprof_options *opt, xprof_error *err);

/* ---- coverage (coverage.c): what xprof_tcov reports ------------------- */

/* One procedure's coverage from its coverage-table entry and its solved
 * counts (xprof_solve_flow_sites), by gcov's rules: a line's count is the
 * number of times it was entered (the entries into the blocks it ends,
 * plus the flow around cycles among them; for a line that ends no block,
 * the sum of its blocks' counts).  With gcc_rules, as GCC's gcov: a block
 * ends on its highest line, and its last block ends none.  Lines are sorted by source, then line;
 * blocks are those with lines, at their first line; branches are the
 * edges out of blocks with two real successors or more, at the block's
 * last line.  Returns 0, or -1 when out of memory. */
#define XPROF_COV_BEGINS_BLOCK 1u /* some block's first line */
#define XPROF_COV_ENDS_BLOCK 2u   /* some block's last line */
/* gcov counts a line over every function of its source at once: the
 * entries (and cycles) of all the blocks that end on it, wherever they
 * are, or, when none does, the sum of its blocks.  Adding up functions'
 * lines: their `count`s where ENDS_BLOCK is set in any, else their
 * `blocks`. */
typedef struct xprof_cov_line {
  uint32_t file, line;
  uint64_t count;  /* this procedure's alone, by gcov's rule */
  uint64_t blocks; /* the sum of the counts of its blocks here */
  uint32_t flags;
} xprof_cov_line;
typedef struct xprof_cov_block {
  uint32_t node, file, line;
  uint64_t count;
} xprof_cov_block;
typedef struct xprof_cov_branch {
  uint32_t file, line, node, index; /* index: among the block's branches */
  uint64_t count, block_count;
} xprof_cov_branch;
typedef struct xprof_proc_cov {
  uint64_t entry_count; /* calls */
  xprof_cov_line *lines;
  uint32_t n_lines;
  xprof_cov_block *blocks;
  uint32_t n_blocks;
  xprof_cov_branch *branches;
  uint32_t n_branches;
} xprof_proc_cov;
int xprof_proc_coverage(const xprof_cfgdump_entry *c, const uint64_t *edge_count,
                        const uint64_t *node_count, xprof_proc_cov *cov);
void xprof_proc_coverage_free(xprof_proc_cov *cov);

/* ---- utilities shared with the runtime and plugins ------------------- */

uint32_t xprof_crc32c(uint32_t crc, const void *data, size_t len);
uint64_t xprof_hash64(const void *data, size_t len); /* FNV-1a, 64 bit */

/* Saturating arithmetic on counts. */
static inline uint64_t xprof_sat_add(uint64_t a, uint64_t b) {
  uint64_t r = a + b;
  return r < a ? UINT64_MAX : r;
}
static inline uint64_t xprof_sat_mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* The plural ending of a count's noun, for messages: "1 procedure",
 * "2 procedures". */
static inline const char *xprof_plural(uint64_t n) { return n == 1 ? "" : "s"; }

/* ---- what both compiler plugins share (compile.c) --------------------- */

/* A procedure's signature: its graph's (xprof_cfg_signature) with the
 * number of its value-profile sites, which both builds must agree on. */
uint64_t xprof_proc_signature(uint64_t cfg_signature, uint32_t n_vp_sites);

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
 * use data 2 ...", with the object file's data `o` and the summary `s`
 * (malloc'd; NULL when out of memory).  The drivers put it into a
 * top-level asm statement; the plugins find it in the module's asm
 * (xprof_use_find_shipped: the line and its length, or NULL), take it
 * out, and read it back (xprof_use_unship: a profile of that one object
 * file, its summary set; 0 or -1). */
char *xprof_use_ship(const xprof_objfile *o, const xprof_summary *s);
const char *xprof_use_find_shipped(const char *text, size_t len, size_t *line_len);
int xprof_use_unship(const char *line, size_t len, xprof_profile **out, xprof_error *err);
/* The object file's path travels the same way, in collect builds too (the
 * remote compilation writes a temporary file): "# xprof object PATH"
 * (malloc'd), found again by xprof_find_shipped_object (the path,
 * malloc'd, or NULL).  xprof_drop_shipped: the text without the shipped
 * lines (malloc'd, *out_len set). */
char *xprof_ship_object(const char *objpath);
char *xprof_find_shipped_object(const char *text, size_t len);
char *xprof_drop_shipped(const char *text, size_t len, size_t *out_len);

/* The prefixes of the names of an object file's counter twin, its cell,
 * and its thread-local word D (runtime/threads.c), and the name of a
 * comdat function's own: alike in every translation unit that has a copy
 * of the function -- the prefix, the function's name (cut, with a hash of
 * all of it, when long) and its key (xprof_comdat_key); malloc'd. */
#define XPROF_COMDAT_COUNTERS "__xprof_c"
#define XPROF_COMDAT_TWIN "__xprof_t"
#define XPROF_COMDAT_TWIN_CELL "__xprof_tc"
#define XPROF_COMDAT_THREAD_WORD "__xprof_d"
char *xprof_comdat_array_name(const char *kind, const char *function, uint64_t key);

/* Does a call to this C library function end the process without running
 * its exit handlers, so without a profile to get wrong (abort, _exit,
 * failed assertions and checks)? */
int xprof_ends_without_profile(const char *callee);

/* The functions the user asked to leave alone (the plugins' skip-functions
 * and skip-files options: fnmatch(3) patterns). */
typedef struct xprof_skip_list {
  const char *const *functions;
  unsigned n_functions;
  const char *const *files;
  unsigned n_files;
} xprof_skip_list;
/* Is a function on the list: its symbol or its name in the source (plain,
 * NULL when the same) matches a function pattern, or its source file
 * (NULL when not known) a file pattern? */
int xprof_skip_function(const xprof_skip_list *skip, const char *symbol, const char *plain,
                        const char *file);

/* What a use build found, and the messages it prints. */
typedef struct xprof_use_stats {
  unsigned matched, mismatched, missing, promoted, untrained;
  unsigned specialized; /* divisions, string operations... to a value */
  /* Changed procedures whose counts were salvaged (counted as matched
   * too), and the old count mass of theirs, all and matched. */
  unsigned salvaged;
  uint64_t salvage_mass, salvage_matched;
} xprof_use_stats;
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
/* Whether a use build takes a salvage (xprof_use_salvage returned rc): it
 * succeeded and at least `percent` of the old count mass matched; a
 * taken one is counted in st.  1 or 0. */
int xprof_use_salvage_accept(int rc, const xprof_salvage_result *r, unsigned percent,
                             xprof_use_stats *st);
/* The procedure a salvaged one is read as: f with the value-profile
 * records that followed their sites (n_sites sites now). */
void xprof_use_salvage_view(const xprof_proc *f, xprof_vp_record *vp, uint32_t n_vp,
                            uint32_t n_sites, xprof_proc *view);
/* The summary warning of an object file with salvaged functions. */
void xprof_use_salvage_text(const xprof_use_stats *st, const char *objpath, char *buf,
                            size_t size);
#define XPROF_MSG_UNSOLVABLE                                                   \
  "profile data for %s cannot be solved; it is compiled without profile data"
#define XPROF_MSG_INCONSISTENT                                                 \
  "%s: inconsistent counts (a racy or damaged profile); negative counts were " \
  "set to 0"
/* Function, target, count, total: */
#define XPROF_MSG_PROMOTED "%s: promoted an indirect call to %s (%llu of %llu calls)"
/* The verbose note of a use build's object file. */
void xprof_use_summary_text(const xprof_use_stats *st, const char *objpath,
                            int partial_training, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
