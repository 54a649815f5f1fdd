/*
 * xprof.h - libxprof's ground floor: the profile data model, the
 * xprof_text(4) text format, the xprof binary data format
 * (xprof_binary(5)), profile directories, merging and validation.
 *
 * This is the only place in the project that knows the file formats:
 * the runtime, both compiler plugins and every tool go through it.  The
 * runtime, linked into every instrumented program, links this layer
 * alone; the layers above it (xprof_graph.h: control flow graphs;
 * xprof_plan.h: what the compilers decide; xprof_views.h: the exports)
 * include it.
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

#include "xprof_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the text format (xprof_text(4)). */
#define XPROF_TEXT_MAJOR 3
#define XPROF_TEXT_MINOR 1
/* Version of the binary data (SUN_PROFDATA_MAJOR/MINOR_VERSION). */
#define XPROF_BINARY_MAJOR 4
#define XPROF_BINARY_MINOR 8

/* Name of the data file inside a NAME.profile directory. */
#define XPROF_FEEDBACK_FILE "feedback"
/* The shapes of a profile directory's procedures, once per build. */
#define XPROF_SHAPES_FILE "shapes"
/* The profile by source line beside them (xprof_afdo(1)): what a use
 * build falls back on where the graphs do not match. */
#define XPROF_LINES_FILE "lines"

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

/* The types of value-profile records: the ABI's numbers (xprof_abi.h),
 * which the runtime writes. */
typedef enum xprof_vp_type {
  XPROF_VP_INT = XPROF_ABI_VP_INT,
  XPROF_VP_LLONG = XPROF_ABI_VP_LLONG,
  XPROF_VP_FLOAT = XPROF_ABI_VP_FLOAT,
  XPROF_VP_DOUBLE = XPROF_ABI_VP_DOUBLE,
  XPROF_VP_PROC = XPROF_ABI_VP_PROC,
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
   * merged; 0: not recorded or never ran.  TIME records, "#+ FIRST-RUN"
   * lines of text; GCC orders functions by it (-fprofile-reorder-functions). */
  uint64_t first_run;
  /* The procedure's shape (xprof_shape_encode) as its collect build
   * recorded it, for salvaging its counts when its code changes; NULL:
   * none.  SHAP records, "#+ SHAPE" lines of text. */
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
   * "probably never executed" thresholds.  A RUNS record, a "#+ RUNS"
   * line of text; 0 and 0 when unknown. */
  uint64_t runs, run_max_sum;
  /* The whole profile's counter summary when this profile holds only part
   * of it (set by a lookup through the index, so that a compiler reading
   * one object file sees program-wide hotness); NULL otherwise. */
  struct xprof_summary *summary;
  /* Why the shapes file of the profile directory this was read from
   * could not be read (its procedures then have no shapes), for the
   * message of a salvage that finds none; NULL: no problem. */
  const char *shapes_problem;
  /* Merges into this profile leave the shapes of src's procedures out:
   * set on a profile directory's counts (DIR/feedback), whose shapes are
   * kept in DIR/shapes, so that a training run's exit write does not
   * copy every procedure's shape only to leave it unwritten. */
  int no_shapes;
} xprof_profile;

/* A percentile summary of all counters of a profile, as compilers want it
 * for hot and cold thresholds (LLVM's ProfileSummary): for each cutoff
 * (parts per million of the sum of all counters), the smallest counter
 * among the largest ones that make up that share, and how many they are,
 * exactly as LLVM's ProfileSummaryBuilder computes them.  With them, the
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

/* The same from counts of another kind: `walk` gives every count of
 * `src` to take(acc, count), and is called twice (zeros are passed
 * over).  The first walk places each cutoff's threshold in a histogram
 * bucket (4 per power of two); the second keeps the counts of those
 * buckets, so that the threshold is exact (without memory for them, the
 * bucket's least count stands). */
typedef struct xprof_summary_acc xprof_summary_acc;
typedef void xprof_count_walk(const void *src, xprof_summary_acc *acc,
                              void (*take)(xprof_summary_acc *, uint64_t));
void xprof_summary_of(xprof_count_walk *walk, const void *src, xprof_summary *s);

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
 * image in both add up when it is the same build (id and segment; at the
 * wider bin width where the runs' differ), else src's replace dst's (src
 * is the newer run). */
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
/* Whether any counter or value count of f (of an object file with
 * n_values_per_vp values per record) is not zero. */
int xprof_proc_ran(const xprof_proc *f, uint32_t n_values_per_vp);
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
/* The same without the procedures' shapes: a profile directory's
 * feedback file, whose shapes are in its shapes file (below). */
int xprof_binary_write_counts_fd(const xprof_profile *p, int fd, const char *name,
                                 xprof_error *err);
int xprof_binary_write_counts_file(const xprof_profile *p, const char *path,
                                   xprof_error *err);

/* Read only the records of one object file, through the file's index:
 * the cost does not grow with the size of the profile.  On success *out
 * holds a profile with that object file (only that one, unless the file
 * has no index, when the whole file is read).  When the file has no data
 * for `objpath` the result is -1 with code XPROF_ERR_NOTFOUND. */
int xprof_binary_lookup(const char *path, const char *objpath,
                        xprof_profile **out, xprof_error *err);

/* ---- a profile directory's shapes (shapes_file.c) --------------------- */

/* A profile directory keeps its procedures' shapes apart from the counts,
 * in DIR/shapes, written when a build's object files first come in and
 * not again by every training run (as GCC keeps a build's graphs in its
 * .gcno files, beside the .gcda files of the runs).  The file is binary
 * data: per object file an OBJF record of its procedures' names,
 * signatures and ids (no counts), then its SHAP record; object files in
 * path order, and an index. */

/* The shapes of p's object files, but those that `known` (may be NULL)
 * holds with the same signature, as such a profile; NULL when out of
 * memory (an empty profile when there are none). */
xprof_profile *xprof_shapes_of(const xprof_profile *p, const xprof_profile *known);
/* *shapes with the object files of `update` in place of (or beside)
 * those of the same path, in path order: a new profile replaces *shapes
 * (freed).  Returns 0, or -1 when out of memory (*shapes unchanged). */
int xprof_shapes_update(xprof_profile **shapes, const xprof_profile *update);
/* Procedures of p without a shape take theirs from `shapes`: the same
 * object path and signature, the same procedure name and signature.
 * Returns 0, or -1 when out of memory. */
int xprof_attach_shapes(xprof_profile *p, const xprof_profile *shapes);
/* Whether any procedure of p has a shape. */
int xprof_has_shapes(const xprof_profile *p);

/* ---- files and profile directories ----------------------------------- */

/* Read a feedback file in either format (detected from its first bytes). */
int xprof_read_file(const char *path, xprof_profile **out, xprof_error *err);
/* A tool's profile input: "-" (the standard input) or a pipe (`<(...)`)
 * read to its end as one data file in either format, or else
 * xprof_read_profile_dir(name). */
int xprof_read_input(const char *name, xprof_profile **out, xprof_error *err);
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
/* Create `dir` (and missing parents) and write dir/feedback atomically,
 * and dir/shapes: the shapes of p, or none (a shapes file there is
 * removed).  Reading a directory, or looking an object file up in it,
 * gives its procedures the shapes of dir/shapes; a shapes file that
 * cannot be read costs them their shapes, not the read
 * (p->shapes_problem says why). */
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
 * failure it is removed and `path` is untouched.  A symbolic link's
 * target is replaced (the link stays); a device, FIFO or socket is
 * written where it is (a failed write there cannot be undone). */
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
/* The same into the caller's buffer *buf of *cap bytes (NULL and 0 at
 * first), grown with xprof_realloc as the file needs and kept, whatever
 * the outcome, for the next file and the caller's xprof_free: for a
 * reader of many files in turn (a link's objects), which would otherwise
 * pay for a fresh buffer, or a mapping and its unmapping, per file.  0,
 * or -1 with err set naming the file. */
int xprof_slurp_into(const char *path, unsigned char **buf, size_t *cap, size_t *len,
                     xprof_error *err);
/* xprof_slurp for a tool's input, which may also be a pipe or a socket
 * (`<(...)`, /dev/stdin in a pipeline) read to its end, or "-" for the
 * standard input (named "<stdin>" in messages).  Not for what the
 * runtime or a compiler reads: a FIFO put where a profile belongs would
 * stop them until someone writes it. */
int xprof_slurp_input(const char *path, unsigned char **buf, size_t *len, xprof_error *err);
/* Map a whole regular file read-only (*buf NULL when it is empty): for
 * readers that touch a few sections of a large object and would pay for
 * copying (and faulting in) all of it.  0, or -1 with err set naming the
 * file.  A file truncated while mapped faults on access (SIGBUS): map
 * only files no one is writing (a link's inputs, a built program). */
int xprof_map(const char *path, const unsigned char **buf, size_t *len, xprof_error *err);
void xprof_unmap(const unsigned char *buf, size_t len);
/* write(2) all bytes, retrying on EINTR and short writes. */
int xprof_write_all(int fd, const void *buf, size_t len, const char *name,
                    xprof_error *err);
/* Create a directory and its missing parents, like mkdir -p. */
int xprof_mkdirs(const char *path, xprof_error *err);

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

/* Whether dst holds every object file of src, each of the same build
 * (as xprof_merge decides it): then merging src adds its procedures'
 * counts and nothing else, and a procedure src leaves out changes
 * nothing (the runtime's snapshots list only what counted).  1 or 0;
 * -1 when out of memory. */
int xprof_knows_builds(const xprof_profile *dst, const xprof_profile *src);

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

/* ---- line-level profiles (lineprof.c, sample_formats.c; views/ makes
 * them from counts and samples) ------------------------------------------ */

/* A profile by source line, as the compilers' sample-based PGO takes one
 * (clang's -fprofile-sample-use, GCC's -fauto-profile): per function its
 * lines as offsets from the line where it is declared (so that an edit
 * above the function moves nothing), each with how often it ran.  Made
 * from exact counts (a line's count: the count of its busiest block, as
 * AutoFDO gives a line the count of its busiest instruction; a line of
 * code that never ran is there with 0, so that a line not there means
 * "not known") or from time samples (a line's count: the samples that
 * fell on it; a line without samples is not there).  Code inlined
 * into a function is kept apart, by call site, as the compilers' formats
 * nest it (GCC needs it so: its early inliner runs before it reads the
 * profile).  Discriminators are 0: the coverage tables have none, and
 * GCC 12 ignores them; a line's counts by source column come too
 * (xprof_lp_func's columns), where the coverage tables (exact counts) or
 * line tables (samples) have them.  The callees of indirect calls go with the line of
 * their call, as both formats carry them, and the values of the other
 * value-profile sites (divisors, lengths) with theirs, which clang's
 * text carries in comment lines of xprof's: from exact counts, the
 * value-profile records of the sites; time samples have none. */
typedef struct xprof_lp_line {
  uint32_t offset, discr;
  uint64_t count;
  /* From exact counts, how many blocks' code is on the line and the
   * count of the least busy: below `count` where they ran unevenly (a
   * macro's test and the call it guards share the expansion's place).  A
   * use build needs to know it where several of its blocks share the
   * place (lines.c).  Samples: 1 and `count`. */
  uint32_t blocks;
  uint64_t least;
  /* From exact counts, the training's block that ran `count` times (its
   * busiest there), numbered from 1 across the profile (the text numbers
   * each function's from 1: XPROF_LP_BUSIEST); 0: not known
   * (samples, or copies of different blocks added up).  Two places of
   * one block ran together: where a use build has one conditional on the
   * other, the training's compiler ran the first's code unconditionally
   * (an if-converted arm), and its count says nothing of the branch. */
  uint32_t block;
} xprof_lp_line;

/* What a value-profile site measures: both plugins find the same kinds
 * (a urem is two sites in a row, its divisor then its quotient). */
enum xprof_site_kind {
  XPROF_SITE_CALL,     /* an indirect call's callee (VP_PROC) */
  XPROF_SITE_DIVISOR,  /* a division's or modulo's divisor (VP_INT, VP_LLONG) */
  XPROF_SITE_LENGTH,   /* a memory operation's length (a VP_LLONG histogram) */
  XPROF_SITE_QUOTIENT, /* a / b of an unsigned a % b (VP_INT, VP_LLONG) */
  XPROF_SITE_KINDS
};

/* What a value-profile site on a line measured, and how often: a callee
 * that its indirect calls reached, or a value (a divisor, a length, a
 * quotient). */
typedef struct xprof_lp_target {
  uint32_t offset, discr;
  char *name; /* XPROF_SITE_CALL: the callee's symbol name; else NULL */
  uint64_t count;
  uint32_t kind;  /* enum xprof_site_kind */
  uint64_t value; /* the other kinds: the value (its bits) */
} xprof_lp_target;

typedef struct xprof_lp_func xprof_lp_func;
/* A call site whose callee was inlined: the callee's lines there. */
typedef struct xprof_lp_call {
  uint32_t offset, discr;
  xprof_lp_func *callee; /* an instance of its own (decl_line: the callee's) */
} xprof_lp_call;

struct xprof_lp_func {
  char *name;         /* symbol name (C++: mangled) */
  char *file;         /* the source it is declared in (NULL: unknown) */
  uint32_t decl_line; /* the line of its name (DW_AT_decl_line) */
  /* Top-level functions of exact counts: xprof_hash64 of the bytes of
   * `file` when the collect build compiled it (0: not known).  A use
   * build whose source has the same hash compiles the training's source,
   * so that a graph that differs is another compiler's, version's or
   * option's, not an edit's, and the lines are where the counts belong. */
  uint64_t source_hash;
  int comdat;         /* one function, whichever objects hold a copy */
  uint64_t head;      /* entries (top-level functions; exact counts) */
  uint64_t total;     /* the sum of its lines' counts and its calls' totals */
  xprof_lp_line *lines; /* by offset, then discriminator; 0: never ran */
  uint32_t n_lines, cap_lines;
  xprof_lp_call *calls; /* by offset, then callee name */
  uint32_t n_calls, cap_calls;
  xprof_lp_target *targets; /* by offset, discriminator, kind, name or
                               value; each on a line */
  uint32_t n_targets, cap_targets;
  /* A line's count by source column, where the coverage table or line
   * table gave columns: the code of one line that is several blocks (a
   * condition and its arms, a loop's test and its step) has a count
   * each.  A line without columns has every column at its count.  A
   * refinement of `lines`, not counted in `total`: `discr` holds the
   * column; by offset, then column; each on a line. */
  xprof_lp_line *columns;
  uint32_t n_columns, cap_columns;
};

typedef struct xprof_lineprof {
  /* By name, the busiest first; a name more than once only for functions
   * of different sources (same-named static functions). */
  xprof_lp_func *funcs;
  uint32_t n_funcs, cap_funcs;
  char **notes; /* what could not be placed, and why */
  uint32_t n_notes, cap_notes;
  int from_samples; /* counts are time samples: a line's add up */
  unsigned made_by; /* exact counts: the compilers of the graphs, XPROF_LP_BY_* */
  uint64_t samples, placed; /* from_samples: all of them, and those on a line */
  uint32_t blocks_numbered; /* exact counts: training blocks numbered so far */
} xprof_lineprof;

/* Building one: a new top-level function (names copied; the pointer
 * lasts until the next new function), the instance of callee `name`
 * inlined at line offset `offset` of f (found, or made), a line count
 * (kept sorted by xprof_lineprof_finish).  NULL, or -1, when out of
 * memory. */
xprof_lp_func *xprof_lineprof_func(xprof_lineprof *lp, const char *name, const char *file,
                                   uint32_t decl_line);
/* The instance of `name` inlined at line offset.discr of f (made on
 * first use), or NULL when out of memory. */
xprof_lp_func *xprof_lineprof_inlined(xprof_lp_func *f, uint32_t offset, uint32_t discr,
                                      const char *name, const char *file, uint32_t decl_line);
int xprof_lineprof_add(xprof_lp_func *f, uint32_t offset, uint32_t discr, uint64_t count);
/* The count of column `column` (above 0) of f's line at offset; a column
 * given twice is merged as lines are, one on a line f does not have is
 * dropped (xprof_lineprof_finish).  0 or -1. */
int xprof_lineprof_column(xprof_lp_func *f, uint32_t offset, uint32_t column, uint64_t count);
/* The same from exact counts: the count of training block `block` (see
 * xprof_lp_line) at f's line at offset (column 0), or at one of its
 * columns.  0 or -1. */
int xprof_lineprof_block(xprof_lp_func *f, uint32_t offset, uint32_t column, uint64_t count,
                         uint32_t block);
/* A callee (name copied) that indirect calls at a line of f reached
 * `count` times; a target given twice adds up, one on a line that f does
 * not have is dropped (xprof_lineprof_finish).  0 or -1. */
int xprof_lineprof_target(xprof_lp_func *f, uint32_t offset, uint32_t discr, const char *name,
                          uint64_t count);
/* A value that a site of kind `kind` (not XPROF_SITE_CALL) at a line of
 * f measured `count` times; as for xprof_lineprof_target. */
int xprof_lineprof_value(xprof_lp_func *f, uint32_t offset, uint32_t discr, uint32_t kind,
                         uint64_t value, uint64_t count);
/* A note (msg xprof_malloc'd, taken; NULL: out of memory); 0 or -1. */
int xprof_lineprof_note(xprof_lineprof *lp, char *msg);
/* Sort the functions by name and their lines and calls by offset, merging
 * repeats: a name seen twice adds up (copies of one static or inline
 * function), unless both are comdat copies (the same counts: one is
 * kept), or they are declared in different sources (static functions of
 * one name in two files: both are kept), or in different places of a
 * source or of sources unknown (the busier is kept, with a note).  0, or
 * -1 when out of memory. */
int xprof_lineprof_finish(xprof_lineprof *lp);
void xprof_lineprof_free(xprof_lineprof *lp);
/* Keep the functions i of lp whose keep[i] is set, in their order (the
 * others go). */
void xprof_lineprof_keep(xprof_lineprof *lp, const unsigned char *keep);

/* The summary of a line profile's counts (each line's count in each
 * inline context a counter; runs unknown), for a use build whose profile
 * holds no counts of its own. */
void xprof_lineprof_summary(const xprof_lineprof *lp, xprof_summary *s);
/* For a function that ran only inlined into others, an entry of its own:
 * the sum of its inlined instances (as llvm-profdata's
 * --sample-profile-merge-inlinee keeps it), for a compilation that has it
 * out of line; with `all`, every function's instances are added to its
 * entry (for a compilation that has inlined nothing yet).  lp must be
 * finished; it is again.  0, or -1 when out of memory. */
int xprof_lineprof_fold_inlined(xprof_lineprof *lp, int all);
/* Each function's source file (inlined instances' too) replaced by what
 * map(ctx, file) returns, malloc'd (NULL: it stays, as when map is out
 * of memory); a build in another directory names the training's sources
 * so (-xprofile_pathmap). */
void xprof_lineprof_map_files(xprof_lineprof *lp, char *(*map)(void *ctx, const char *file),
                             void *ctx);
/* For the formats that name functions only (the compilers' sample
 * profiles): keep the busiest of each name, with a note on the others.
 * lp must be finished; 0, or -1 when out of memory. */
int xprof_lineprof_unique(xprof_lineprof *lp);
/* The busiest top-level function of that name in a finished profile
 * whose source is `file` (xprof_same_source; NULL: any), or NULL. */
const xprof_lp_func *xprof_lineprof_find(const xprof_lineprof *lp, const char *name,
                                         const char *file);
/* Can paths a and b name the same source file, as two compilations
 * spell it (one relative to its directory, one absolute, "../" before
 * it)?  Their last components are compared as far as both have them,
 * stopping at "." and ".."; at least the file names must agree.  A path
 * not known (NULL) agrees with any. */
int xprof_same_source(const char *a, const char *b);

/* A profile of exact counts says so in its first line, a comment to
 * clang and llvm-profdata; without it a file's counts are taken for
 * samples (which a use build trusts less: a block without samples may
 * still have run). */
#define XPROF_LP_EXACT_MARK "# xprof line profile: exact counts"
/* ... followed by " from gcc", " from llvm" or " from gcc and llvm": the
 * compilers whose graphs were counted (a use build by the same compiler
 * prefers salvage by shape, made for edits, to the lines). */
#define XPROF_LP_BY_GCC 1u
#define XPROF_LP_BY_LLVM 2u
/* Does text begin with the mark?  1 with *made_by set, else 0. */
int xprof_lineprof_mark(const char *text, size_t len, unsigned *made_by);

/* The tag of xprof's comment lines in clang's text that carry a line's
 * values (xprof_lineprof_write_llvm). */
#define XPROF_LP_VALUES "#xprof-values"
/* ... and a line's counts by column:
 * "#xprof-columns OFFSET COLUMN:COUNT ...". */
#define XPROF_LP_COLUMNS "#xprof-columns"
/* ... and, from exact counts, where the code of several blocks is on a
 * line (or on a column written), how many and the least busy one's count:
 * "#xprof-blocks OFFSET N:LEAST [COLUMN:N:LEAST ...]". */
#define XPROF_LP_BLOCKS "#xprof-blocks"
/* ... and, from exact counts, the training block whose count each line's
 * is (its busiest), and its columns' where theirs is another:
 * "#xprof-busiest OFFSET BLOCK [COLUMN:BLOCK ...]". */
#define XPROF_LP_BUSIEST "#xprof-busiest"
/* ... and, first after a function's head (top-level or inlined), the
 * line of its name and its source file: "#xprof-source DECL_LINE
 * [PATH]". */
#define XPROF_LP_SOURCE "#xprof-source"
/* ... and after it, for a top-level function of exact counts, the hash
 * of its source file as the collect build compiled it (source_hash):
 * "#xprof-file-hash 0xHEX". */
#define XPROF_LP_SOURCE_HASH "#xprof-file-hash"

/* clang's sample-profile text (-fprofile-sample-use=FILE):
 * "NAME:TOTAL:HEAD" then " OFFSET[.DISCR]: COUNT" per line and
 * " OFFSET: CALLEE:TOTAL" per inlined call, its lines one space further
 * in. */
int xprof_lineprof_write_llvm(FILE *out, const xprof_lineprof *lp);
/* Read clang's sample-profile text (as written above, or by AutoFDO's
 * create_llvm_prof or llvm-profdata --text): len bytes of text, `name`
 * in messages.  Indirect-call targets and metadata lines are passed
 * over; context-sensitive profiles are refused.  0, or -1 with err
 * naming the line. */
int xprof_lineprof_read_llvm(const char *name, const char *text, size_t len,
                             xprof_lineprof **out, xprof_error *err);
/* GCC's AutoFDO data (-fauto-profile=FILE), version 2 of the gcov
 * container as GCC 12 reads it. */
int xprof_lineprof_write_gcc(FILE *out, const xprof_lineprof *lp);

#ifdef __cplusplus
}
#endif
#endif
