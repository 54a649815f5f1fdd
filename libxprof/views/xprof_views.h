/*
 * xprof_views.h - libxprof's exports and views: what the tools show of a
 * profile and in which files -- coverage by gcov's rules, the exact call
 * graph, gprof's gmon.out, DCPI profile files, aprof reports, time by
 * function from the executables' symbols and line tables, and how alike
 * two trainings are.
 */
#ifndef XPROF_VIEWS_H
#define XPROF_VIEWS_H

#include "xprof_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* Read the ELF file at path as xprof_slurp does, with its compressed
 * sections (SHF_COMPRESSED with zlib: gcc -gz, objcopy
 * --compress-debug-sections, as Debian's debug files are made)
 * inflated: xprof_elf_inflate.  0, or -1 with err. */
int xprof_elf_slurp(const char *path, unsigned char **buf, size_t *len, xprof_error *err);
/* The ELF file buf[0..*len) (xprof_malloc'd) with its compressed
 * sections inflated: when it has any, *buf and *len are replaced by a
 * copy with the inflated bytes after the file's and those sections'
 * headers pointing at them, so that readers of sections need not know.
 * 0 (also when buf is not an ELF file or has none), or -1 with err
 * naming the section that cannot be inflated and why. */
int xprof_elf_inflate(const char *path, unsigned char **buf, size_t *len, xprof_error *err);
/* The bytes of an ELF file's section of that name, buf + *off, *size
 * bytes: 0, or -1 when the file has none usable (missing, compressed,
 * outside the file). */
int xprof_elf_section(const unsigned char *buf, size_t len, const char *name, uint64_t *off,
                      uint64_t *size);

/* Calls each(ctx, name) with the name of every section of the ELF file in
 * buf, in the file's order, until one returns other than 0; returns that,
 * 0 after the last, -1 when buf is not a 64-bit little-endian ELF file
 * with a section table. */
int xprof_elf_section_names(const unsigned char *buf, size_t len,
                            int (*each)(void *ctx, const char *name), void *ctx);

/* Whether the ELF file in buf (64-bit, little-endian, an executable or a
 * PIE) is started by the dynamic linker: 1 when its program headers name
 * an interpreter, 0 when not (-static, -static-pie, and a shared library,
 * which no interpreter starts either); -1 when it is no such file. */
int xprof_elf_program_dynamic(const unsigned char *buf, size_t len);

/* Of the ELF file in buf, a program that the dynamic linker starts (one
 * with an interpreter): whether its dynamic symbol table defines `name`,
 * 1 or 0; -1 when buf is no such program (a shared library, a static
 * program, an object file, damaged, not ELF). */
int xprof_elf_program_exports(const unsigned char *buf, size_t len, const char *name);

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
/* Where the system keeps e's separate debug file, by its build-id
 * (Debian's -dbgsym packages): malloc'd, NULL without a build-id. */
char *xprof_elf_debug_path(const xprof_elf *e);
/* Whether the image's samples were taken of this very file (build-id, or
 * the hash of the segment's bytes). */
int xprof_elf_matches_image(const xprof_elf *e, const xprof_image *img);

/* An ELF file's DWARF line table (.debug_line, versions 2-5): its rows
 * by address; files by the table's own index. */
typedef struct xprof_line_row {
  uint64_t addr;
  uint32_t file, line;
  uint32_t column; /* 0: none given (the line as a whole) */
  uint32_t seq; /* its place in the line program, for rows at one address */
  int is_stmt;  /* a statement begins here */
} xprof_line_row;

/* A unit of the table: its offset in .debug_line (what a unit of
 * .debug_info names it by, DW_AT_stmt_list) and its files. */
typedef struct xprof_line_unit {
  uint64_t off;
  uint32_t first, n; /* its file k is files[unit_files[first + k]] */
} xprof_line_unit;

typedef struct xprof_line_table {
  xprof_line_row *rows;
  uint32_t n_rows, cap_rows;
  char **files; /* paths as the compiler gave them, joined to their directory */
  uint32_t n_files, cap_files;
  xprof_line_unit *units;
  uint32_t n_units, cap_units;
  uint32_t *unit_files;
  uint32_t n_unit_files, cap_unit_files;
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
/* File k of the unit at offset `unit` of .debug_line (DW_AT_decl_file's
 * number in a unit whose DW_AT_stmt_list is `unit`), or NULL. */
const char *xprof_line_unit_file(const xprof_line_table *t, uint64_t unit, uint64_t k);
/* The row whose statement holds addr: the last at or before it (the
 * caller bounds it by the function), or NULL. */
const xprof_line_row *xprof_line_at(const xprof_line_table *t, uint64_t addr);

/* An ELF file's function instances from its DWARF (.debug_info, versions
 * 2-5): each subprogram with code, and after it, in the order of the
 * debugging information, the subroutines inlined into it, each with its
 * code ranges, name (the linkage name, else the name; from its abstract
 * origin or specification when it has none of its own), declaration line
 * and, inlined, the line of the call it replaced. */
typedef struct xprof_dwarf_range {
  uint64_t lo, hi;
} xprof_dwarf_range;

#define XPROF_DWARF_NO_FILE UINT32_MAX

typedef struct xprof_dwarf_scope {
  const char *name;   /* NULL: none found */
  uint32_t decl_line; /* 0: unknown */
  /* The declaration's file: number decl_file of the line table of the
   * unit at decl_unit of .debug_line (xprof_line_unit_file);
   * XPROF_DWARF_NO_FILE: not given. */
  uint32_t decl_file;
  uint64_t decl_unit;
  uint32_t call_line; /* inlined: in the function of `parent` */
  uint32_t parent;    /* the scope it is inlined into; UINT32_MAX: a subprogram */
  uint32_t end;       /* the index past the scopes inlined into it */
  uint32_t first_range, n_ranges;
} xprof_dwarf_scope;

typedef struct xprof_dwarf_info {
  xprof_dwarf_scope *scopes;
  uint32_t n_scopes, cap_scopes;
  xprof_dwarf_range *ranges;
  uint32_t n_ranges, cap_ranges;
  /* Units whose functions are described in a split DWARF file that was
   * not read (a .dwo not found or damaged, a .dwp, DWARF 4's split
   * units): their code has lines but no functions here.  split_missing:
   * why the first was not read, or NULL. */
  uint32_t n_split;
  char *split_missing;
  const unsigned char *buf; /* the file's bytes, which the names point into */
  unsigned char *owned; /* the same, freed with it, when the caller hands it over */
  unsigned char **split_bufs; /* the split files' bytes, which names point into */
  uint32_t n_split_bufs, cap_split_bufs;
} xprof_dwarf_info;

/* Read the function instances of a file (the names point into buf, which
 * must outlive the result, or be handed over in `owned`; a file's bytes
 * as xprof_elf_slurp gives them, its compressed sections inflated); 0, or
 * -1 with err naming the file and the problem. */
int xprof_dwarf_info_parse(const char *name, const unsigned char *buf, size_t len,
                           xprof_dwarf_info **out, xprof_error *err);
void xprof_dwarf_info_free(xprof_dwarf_info *d);
/* The inline stack at addr: the subprogram whose code it is, then the
 * subroutines inlined into it that hold addr, outermost first, as scope
 * indices in stack (at most max); how many (0: no function holds it). */
uint32_t xprof_dwarf_inline_stack(const xprof_dwarf_info *d, uint64_t addr, uint32_t *stack,
                                  uint32_t max);
/* The same within the subprogram `top` (a scope index): 0 when it does not
 * hold addr.  For a walk over one function's code. */
uint32_t xprof_dwarf_inline_stack_in(const xprof_dwarf_info *d, uint32_t top, uint64_t addr,
                                     uint32_t *stack, uint32_t max);

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

/* Coverage tables where they are (table.c): xprof_table_read reads the
 * table of object objpath (its path in the profile) from a file of its
 * own at path, or from the table section (XPROF_TABLE_SECTION) of the
 * ELF file at path: the object file, or a program or library linked
 * from it; 0 or -1.  xprof_table_in_file: whether the ELF file at path
 * holds objpath's table (1) or not (0). */
int xprof_table_read(const char *path, const char *objpath, xprof_profile *owner,
                     xprof_cfgdump *out, xprof_error *err);
int xprof_table_in_file(const char *path, const char *objpath);
/* Where the coverage table of object objpath is: in PROFILE_DIR/tcov
 * (-xprofile=tcov:NAME), else beside the object, which is at
 * objpath_now, else in the program linked from it (`program`, or, NULL,
 * the one the profile directory is named after, PROGRAM.profile), else
 * in that object file (a collect build's): the program first, whose runs
 * the profile holds, as an object compiled since may be another build.
 * The path of the file that holds it (xprof_malloc'd, for
 * xprof_table_read), or NULL. */
char *xprof_table_find(const char *profile_dir, const char *program, const char *objpath,
                      const char *objpath_now);
/* The same for the object as profile p (read from profile_dir) records
 * it, and then in the programs p says were linked from it. */
char *xprof_table_find_in(const xprof_profile *p, const char *profile_dir, const char *objpath);
/* The same as an xprof_table_finder, on an xprof_table_place. */
typedef struct xprof_table_place {
  const char *dir;
  const xprof_profile *p;
} xprof_table_place;
char *xprof_table_find_at(void *place, const char *objpath);

/* Where object objpath's coverage table is (malloc'd: a table file, or
 * the object file holding one), or NULL. */
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

/* ---- line-level profiles from counts and samples (lineprof_counts.c,
 * lineprof_samples.c; the model and its formats: xprof.h) ---------------- */

/* The line profile of p's exact counts, by the coverage tables `find`
 * finds (as xprof_callgraph_build).  0, or -1 when out of memory; what
 * has no table or no lines is in the notes. */
int xprof_lineprof_from_counts(xprof_profile *p, xprof_table_finder find, void *ctx,
                               xprof_lineprof **out, xprof_error *err);
/* The file name of the runtime that xprof_collect(1) preloads (the
 * xprof_collect target of runtime/CMakeLists.txt). */
#define XPROF_COLLECT_LIBRARY "libxprof_collect.so"
/* The line profile of p's time samples (SUN_PROFDATA_SAMPLE=1, or a run
 * under xprof_collect): each sampled address's line from the line table
 * of the file sampled (or its separate debug file by build-id), under
 * the inline stack its debugging information gives.  A file that
 * changed since the run, or has no line table, is left out with a note;
 * the preloaded runtime's own samples (its write at exit, its signal
 * handler) are no part of the program, and left out without one.
 * 0, or -1 when out of memory. */
int xprof_lineprof_from_samples(const xprof_profile *p, xprof_lineprof **out, xprof_error *err);
/* Whether p holds counts that ran / time samples. */
int xprof_profile_has_counts(const xprof_profile *p);
int xprof_profile_has_samples(const xprof_profile *p);

/* A profile directory's line profile (XPROF_LINES_FILE, clang's text),
 * what use builds fall back on where the graphs do not match: made again
 * when older than the directory's data, from its counts (the coverage
 * tables xprof_table_find finds) or, without counts, its samples.  One
 * process makes it while others wait (a lock file beside it); it goes in
 * whole (a rename).  Returns 1 when made, 0 when it was up to date or
 * there was nothing to make it from (no counts or samples, or no lines:
 * a file with none says so, and is not made again until the data
 * change), -1 with err when the directory could not be read or
 * written.  With `note`, a file made from samples of which fewer than
 * half found a line says why through it (a program built without -g,
 * or with -gsplit-dwarf), each message once. */
int xprof_lines_refresh(const char *dir, void (*note)(const char *msg), xprof_error *err);
#ifdef __cplusplus
}
#endif
#endif
