/*
 * xprof_rt.h - the contract between the compiler plugins and the xprof
 * runtime (libxprof_rt), and the runtime's public API.
 *
 * ABI version 7.  For every object file it instruments, the compiler
 * emits (all zero-initialized unless said otherwise):
 *
 *   - one array of 64-bit counters for the whole object file (and one
 *     per comdat function); with per-thread counters (the default), per
 *     array either a thread-local twin of the array (code that goes into
 *     an executable) or a thread-local intptr_t (other code) besides;
 *   - for each value-profiled expression, a state array of
 *     XPROF_RT_VP_WORDS(n) 64-bit words whose first word the compiler
 *     initializes to n, the object file's n_values_per_vp (or, for a
 *     length histogram, XPROF_RT_VP_HIST_WORDS words, the first
 *     n | XPROF_RT_VP_HISTOGRAM);
 *   - a constant table of procedures and of value-profile sites;
 *   - one xprof_rt_object, registered from a constructor with
 *     __xprof_register() and unregistered from a destructor with
 *     __xprof_unregister() (so that dlclose writes the data);
 *   - at the entry of each procedure, a test of its first-run word and,
 *     while that is zero, a store there of the next rank, taken from
 *     __xprof_first_runs with a relaxed atomic add (none, and first_run
 *     NULL, when the user turned the time profile off);
 *   - before each indirect call, __xprof_vp_proc(state, callee); before
 *     each profiled integer expression, __xprof_vp_int / __xprof_vp_llong,
 *     or, for the length of a memory operation, an inline increment of
 *     its histogram bucket (XPROF_RT_VP_HISTOGRAM).
 *
 * Counters are incremented inline by the compiled code: by default with
 * plain adds in the calling thread's copy of the array -- its thread-local
 * twin, or a copy found at function entry through the array's
 * thread-local word and __xprof_thread_counters (threads.c says how); or
 * atomically (relaxed fetch-add) in the array itself; or with plain adds
 * in the array itself (update=single).  Everything else is the runtime's.
 * docs/runtime.md describes the behaviour users see.
 */
#ifndef XPROF_RT_H
#define XPROF_RT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XPROF_RT_ABI_VERSION 7

/* Words of one value-profile site's state for n values per record:
 * word 0: n (set by the compiler) and a lock bit (bit 63, runtime);
 * word 1: zero from the compiler; the runtime counts there the events it
 *         could not give to a value;
 * then n (value, count) pairs. */
#define XPROF_RT_VP_WORDS(n) (2 + 2 * (n))

/* A length histogram (the lengths of a memory operation, VP_LLONG): the
 * compiled code adds 1 to the bucket of each length, with no call; the
 * runtime reports the buckets with the largest counts as values.  Word 0
 * is n | XPROF_RT_VP_HISTOGRAM, word 1 reserved, then one count for each
 * of the lengths 0 to XPROF_RT_VP_HIST_LONGEST (the longest LLVM's memop
 * optimization specializes for) and one for all longer ones, reported
 * as the value XPROF_RT_VP_HIST_OTHER (no real length). */
#define XPROF_RT_VP_HISTOGRAM (1ull << 32)
#define XPROF_RT_VP_HIST_LONGEST 128
#define XPROF_RT_VP_HIST_BUCKETS (XPROF_RT_VP_HIST_LONGEST + 2)
#define XPROF_RT_VP_HIST_WORDS (2 + XPROF_RT_VP_HIST_BUCKETS)
#define XPROF_RT_VP_HIST_OTHER UINT64_MAX

/* Pairs whose value the compiled code compares with the recorded value
 * itself, counting a match with one add (relaxed atomic unless
 * update=single) before it calls the runtime; the runtime keeps the most
 * frequent values in front. */
#define XPROF_RT_VP_INLINE_PAIRS 2

/* Value-profile kinds (the numbers of xprof_vp_type in libxprof). */
#define XPROF_RT_VP_INT 0
#define XPROF_RT_VP_LLONG 1
#define XPROF_RT_VP_PROC 4

/* Priority of the constructor that registers an object and of the
 * destructor that unregisters it (the implementation's range, below the
 * users' 101 and up, as GCC's own coverage code uses): registration comes
 * before any constructor of the program, and the last write after every
 * destructor, so that code they run is counted. */
#define XPROF_RT_CDTOR_PRIORITY 100

/* xprof_rt_object.flags */
#define XPROF_RT_ATOMIC_COUNTERS 1u /* counters are updated atomically */
#define XPROF_RT_THREAD_COUNTERS 2u /* in per-thread copies of the arrays */

/* ---- the descriptors, field by field ------------------------------------
 *
 * The one definition of the descriptors' layout.  This header declares
 * the structs from these lists, and both compiler plugins build the
 * structs they emit from them (by each field's kind) and fill each field
 * by its name: a field added here is given a value by each plugin, or
 * stops the compiler with a message that names it.  F(KIND, NAME), KIND
 * one of the XPROF_RT_T_ kinds below. */

#define XPROF_RT_VP_SITE_FIELDS(F)                                            \
  F(U32, type)    /* XPROF_RT_VP_* */                                         \
  F(U32, expr_id) /* unique within the procedure */                           \
  F(U64P, state)  /* XPROF_RT_VP_WORDS(n_values_per_vp) words */

#define XPROF_RT_PROC_FIELDS(F)                                               \
  F(STR, name)        /* linker symbol name (static functions made unique) */ \
  F(U64, signature)   /* CFG signature */                                     \
  F(U32, id)          /* compiler-defined */                                  \
  F(U32, n_counters)                                                          \
  F(U64P, counters)   /* n_counters words of the object's counter array */    \
  F(U32, n_vp_sites)                                                          \
  /* Index of counters[0] in its counter array (counters - array_offset is  \
   * the array); used with XPROF_RT_THREAD_COUNTERS. */                       \
  F(U32, array_offset)                                                        \
  F(SITES, vp_sites)                                                          \
  F(CODE, address)    /* the function, to name indirect-call targets */       \
  /* With XPROF_RT_THREAD_COUNTERS, when the counter array has a            \
   * thread-local twin (static TLS: at the same distance from the thread    \
   * pointer in every thread): a word that the object's constructor sets,   \
   * before registering, to the twin's address in the registering thread.   \
   * NULL: no twin, the code finds its copy through a thread-local word. */ \
  F(CELL, tls_array)                                                          \
  /* A word the compiled code sets at the procedure's first run to its     \
   * rank (one word per program for a comdat function); NULL: the compiler \
   * does not record first runs. */                                         \
  F(U64P, first_run)                                                          \
  /* The procedure's shape (libxprof's xprof_shape_encode), which the     \
   * runtime writes into the profile unread; NULL: none. */                 \
  F(BYTES, shape)                                                             \
  F(U32, shape_size)

#define XPROF_RT_OBJECT_FIELDS(F)                                             \
  F(U32, abi_version)     /* XPROF_RT_ABI_VERSION */                          \
  F(U32, flags)           /* XPROF_RT_* */                                    \
  F(STR, path)            /* resolved pathname of the object file */          \
  F(U64, tv_sec)          /* compile time */                                  \
  F(U32, tv_usec)                                                             \
  F(U32, n_values_per_vp)                                                     \
  F(U64, signature)       /* hash of the procedure signatures */              \
  F(STR, profile_name)    /* -xprofile=collect:NAME, or NULL */               \
  F(U32, n_procs)                                                             \
  F(U32, n_counters)      /* the whole counter array */                       \
  F(PROCS, procs)                                                             \
  F(U64P, counters)                                                           \
  /* Owned by the runtime (zero from the compiler). */                        \
  F(NEXT, next)                                                               \
  F(RESERVED, runtime_reserved)

/* The kinds of field: their C declarations.  NEXT and RESERVED belong to
 * the runtime; the compiler leaves them zero. */
#define XPROF_RT_T_U32(n) uint32_t n;
#define XPROF_RT_T_U64(n) uint64_t n;
#define XPROF_RT_T_STR(n) const char *n;
#define XPROF_RT_T_BYTES(n) const unsigned char *n;
#define XPROF_RT_T_U64P(n) uint64_t *n;
#define XPROF_RT_T_SITES(n) const struct xprof_rt_vp_site *n;
#define XPROF_RT_T_PROCS(n) const struct xprof_rt_proc *n;
#define XPROF_RT_T_CODE(n) const void *n;
#define XPROF_RT_T_CELL(n) uint64_t *const *n;
#define XPROF_RT_T_NEXT(n) struct xprof_rt_object *n;
#define XPROF_RT_T_RESERVED(n) uint64_t n[2];
#define XPROF_RT_DECLARE(kind, name) XPROF_RT_T_##kind(name)

struct xprof_rt_vp_site {
  XPROF_RT_VP_SITE_FIELDS(XPROF_RT_DECLARE)
};
struct xprof_rt_proc {
  XPROF_RT_PROC_FIELDS(XPROF_RT_DECLARE)
};
struct xprof_rt_object {
  XPROF_RT_OBJECT_FIELDS(XPROF_RT_DECLARE)
};

/* For the plugins: the kinds as numbers, and each struct's fields as an
 * index (XPROF_RT_SITE_type, XPROF_RT_PROC_name, XPROF_RT_OBJECT_path,
 * ..., and XPROF_RT_*_N_FIELDS). */
enum xprof_rt_kind {
  XPROF_RT_K_U32, XPROF_RT_K_U64, XPROF_RT_K_STR, XPROF_RT_K_U64P,
  XPROF_RT_K_SITES, XPROF_RT_K_PROCS, XPROF_RT_K_CODE, XPROF_RT_K_CELL,
  XPROF_RT_K_NEXT, XPROF_RT_K_RESERVED, XPROF_RT_K_BYTES
};
#define XPROF_RT_KIND(kind, name) XPROF_RT_K_##kind,
#define XPROF_RT_NAME(kind, name) #name,
#define XPROF_RT_SITE_INDEX(kind, name) XPROF_RT_SITE_##name,
#define XPROF_RT_PROC_INDEX(kind, name) XPROF_RT_PROC_##name,
#define XPROF_RT_OBJECT_INDEX(kind, name) XPROF_RT_OBJECT_##name,
enum { XPROF_RT_VP_SITE_FIELDS(XPROF_RT_SITE_INDEX) XPROF_RT_SITE_N_FIELDS };
enum { XPROF_RT_PROC_FIELDS(XPROF_RT_PROC_INDEX) XPROF_RT_PROC_N_FIELDS };
enum { XPROF_RT_OBJECT_FIELDS(XPROF_RT_OBJECT_INDEX) XPROF_RT_OBJECT_N_FIELDS };

/* Entry points the compiler calls. */
void __xprof_register(struct xprof_rt_object *obj);
void __xprof_unregister(struct xprof_rt_object *obj);
void __xprof_vp_proc(uint64_t *state, const void *callee);
void __xprof_vp_proc_single(uint64_t *state, const void *callee); /* update=single */
void __xprof_vp_int(uint64_t *state, int32_t value);
void __xprof_vp_llong(uint64_t *state, int64_t value);
/* The procedures that have run so far in the process (first_run.c). */
extern uint64_t __xprof_first_runs;
/* Per-thread counters: the distance in words from `array` to the calling
 * thread's copy of it, also stored in *tls, the array's thread-local
 * word; 0: count in the array itself. */
intptr_t __xprof_thread_counters(uint64_t *array, intptr_t *tls);
/* x86-64 trampolines for calls from asm statements (threads_pm.S): every
 * register but rax kept; arguments in rax/rcx, or in r10/r11 for _r10.
 * Not C functions: declared only to document them. */
void __xprof_thread_counters_asm(void);
void __xprof_thread_counters_asm_r10(void);

/* Public API for programs that want to control collection (servers that
 * never exit, test harnesses).  Both are safe from any thread. */

/* Write the data gathered so far into the profile directory now (merging
 * with what is there) and start counting from zero again.  Returns 0, or
 * -1 after printing why on stderr; the data is then kept for the next
 * write. */
int xprof_dump(void);
/* Forget the data gathered since the last write. */
void xprof_reset(void);

#ifdef __cplusplus
}
#endif
#endif
