/*
 * xprof_rt.h - the contract between the compiler plugins and the xprof
 * runtime (libxprof_rt), and the runtime's public API.
 *
 * ABI version 4.  For every object file it instruments, the compiler
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

#define XPROF_RT_ABI_VERSION 4

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
 * of the lengths 0 to 8, 16, 32, 64 and 128 (those LLVM's memop
 * optimization can specialize for) and one for all other lengths,
 * reported as the value XPROF_RT_VP_HIST_OTHER (no real length). */
#define XPROF_RT_VP_HISTOGRAM (1ull << 32)
#define XPROF_RT_VP_HIST_BUCKETS 14
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

struct xprof_rt_vp_site {
  uint32_t type;    /* XPROF_RT_VP_* */
  uint32_t expr_id; /* unique within the procedure */
  uint64_t *state;  /* XPROF_RT_VP_WORDS(n_values_per_vp) words */
};

struct xprof_rt_proc {
  const char *name;   /* linker symbol name (static functions made unique) */
  uint64_t signature; /* CFG signature */
  uint32_t id;        /* compiler-defined */
  uint32_t n_counters;
  uint64_t *counters; /* n_counters words of the object's counter array */
  uint32_t n_vp_sites;
  /* Index of counters[0] in its counter array (counters - array_offset
   * is the array); used with XPROF_RT_THREAD_COUNTERS. */
  uint32_t array_offset;
  const struct xprof_rt_vp_site *vp_sites;
  const void *address; /* the function, to name indirect-call targets */
  /* With XPROF_RT_THREAD_COUNTERS, when the counter array has a
   * thread-local twin (static TLS: at the same distance from the thread
   * pointer in every thread): a word that the object's constructor sets,
   * before registering, to the twin's address in the registering thread.
   * NULL: no twin, the code finds its copy through a thread-local word. */
  uint64_t *const *tls_array;
};

struct xprof_rt_object {
  uint32_t abi_version; /* XPROF_RT_ABI_VERSION */
  uint32_t flags;       /* XPROF_RT_* */
  const char *path;     /* resolved pathname of the object file */
  uint64_t tv_sec;      /* compile time */
  uint32_t tv_usec;
  uint32_t n_values_per_vp;
  uint64_t signature;        /* hash of the procedure signatures */
  const char *profile_name;  /* -xprofile=collect:NAME, or NULL */
  uint32_t n_procs;
  uint32_t n_counters; /* the whole counter array */
  const struct xprof_rt_proc *procs;
  uint64_t *counters;
  /* Owned by the runtime (zero from the compiler). */
  struct xprof_rt_object *next;
  uint64_t runtime_reserved[2];
};

/* Entry points the compiler calls. */
void __xprof_register(struct xprof_rt_object *obj);
void __xprof_unregister(struct xprof_rt_object *obj);
void __xprof_vp_proc(uint64_t *state, const void *callee);
void __xprof_vp_proc_single(uint64_t *state, const void *callee); /* update=single */
void __xprof_vp_int(uint64_t *state, int32_t value);
void __xprof_vp_llong(uint64_t *state, int64_t value);
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
