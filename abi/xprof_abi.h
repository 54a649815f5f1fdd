/*
 * xprof_abi.h - the contract between the compilers and the xprof runtime:
 * every record layout and every name that the code a compiler plugin
 * emits and the runtime share.  The plugins, the drivers, the runtime
 * and libxprof take them from here; nothing else spells them.  (The API
 * a program may call, xprof_dump and xprof_reset, is runtime/xprof_rt.h.)
 *
 * ABI version 7.  For every object file it instruments, the compiler
 * emits (all zero-initialized unless said otherwise):
 *
 *   - one array of 64-bit counters for the whole object file (and one
 *     per comdat function); with per-thread counters (the default), per
 *     array either a thread-local twin of the array (code that goes into
 *     an executable) or a thread-local intptr_t (other code) besides;
 *   - for each value-profiled expression, a state array of
 *     XPROF_ABI_VP_WORDS(n) 64-bit words whose first word the compiler
 *     initializes to n, the object file's n_values_per_vp (or, for a
 *     length histogram, XPROF_ABI_VP_HIST_WORDS words, the first
 *     n | XPROF_ABI_VP_HISTOGRAM);
 *   - a constant table of procedures and of value-profile sites;
 *   - one xprof_abi_object, registered from a constructor with
 *     XPROF_REGISTER and unregistered from a destructor with
 *     XPROF_UNREGISTER (so that dlclose writes the data);
 *   - at the entry of each procedure, a test of its first-run word and,
 *     while that is zero, a store there of the next rank, taken from
 *     XPROF_FIRST_RUNS with a relaxed atomic add (none, and first_run
 *     NULL, when the user turned the time profile off);
 *   - before each indirect call, XPROF_RECORD_PROC(state, callee); before
 *     each profiled integer expression, XPROF_RECORD_INT / XPROF_RECORD_LLONG,
 *     or, for the length of a memory operation, an inline increment of
 *     its histogram bucket (XPROF_ABI_VP_HISTOGRAM).
 *
 * Counters are incremented inline by the compiled code: by default with
 * plain adds in the calling thread's copy of the array -- its thread-local
 * twin, or a copy found at function entry through the array's
 * thread-local word and XPROF_THREAD_COUNTERS (runtime/threads.c says
 * how); or atomically (relaxed fetch-add) in the array itself; or with
 * plain adds in the array itself (update=single).  Everything else is the
 * runtime's.  docs/runtime.md describes the behaviour users see.
 *
 * The names are macros so that the runtime's C and assembler define them
 * by these spellings, and the plugins emit them as XPROF_ABI_STR(NAME).
 * The header is read by the assembler too (runtime/threads_pm.S): its C
 * declarations are for C and C++ only.
 */
#ifndef XPROF_ABI_H
#define XPROF_ABI_H

#define XPROF_ABI_VERSION 7

/* A name as a string constant: XPROF_ABI_STR(XPROF_REGISTER). */
#define XPROF_ABI_STR(name) XPROF_ABI_STR_(name)
#define XPROF_ABI_STR_(name) #name

/* Every name below begins so; a plugin leaves functions so named alone. */
#define XPROF_ABI_PREFIX "__xprof_"

/* ---- entry points and variables of the runtime -------------------------- */

#define XPROF_REGISTER __xprof_register
#define XPROF_UNREGISTER __xprof_unregister
#define XPROF_RECORD_PROC __xprof_vp_proc
#define XPROF_RECORD_PROC_SINGLE __xprof_vp_proc_single /* update=single */
#define XPROF_RECORD_INT __xprof_vp_int
#define XPROF_RECORD_LLONG __xprof_vp_llong
#define XPROF_THREAD_COUNTERS __xprof_thread_counters
/* x86-64 trampolines of XPROF_THREAD_COUNTERS for calls from asm
 * statements (threads_pm.S): every register but rax kept; arguments in
 * rax/rcx, or in r10/r11 for the _R10 one. */
#define XPROF_THREAD_COUNTERS_ASM __xprof_thread_counters_asm
#define XPROF_THREAD_COUNTERS_ASM_R10 __xprof_thread_counters_asm_r10
/* The procedures that have run so far in the process (first_run.c). */
#define XPROF_FIRST_RUNS __xprof_first_runs
/* glibc's __cxa_at_quick_exit in a static link, where there is no
 * dynamic symbol table to find it in (runtime/libc_symbol.c): the drivers
 * define this name as it there (--defsym); elsewhere it is weak and
 * undefined.  No "exit" in it: some libraries' builds look for one. */
#define XPROF_QUICK_REGISTER __xprof_quick_register

/* ---- what each instrumented object file defines -------------------------
 *
 * Local to the object file: its descriptor, its arrays and tables, the
 * constructor and destructor that (un)register it, and the constants its
 * tables point at. */
#define XPROF_OBJECT_VAR __xprof_object
#define XPROF_COUNTERS_VAR __xprof_counters
#define XPROF_VP_VAR __xprof_vp
#define XPROF_FIRST_RUN_VAR __xprof_fr
#define XPROF_SITES_VAR __xprof_sites
#define XPROF_PROCS_VAR __xprof_procs
#define XPROF_CTOR __xprof_ctor
#define XPROF_DTOR __xprof_dtor
#define XPROF_NAME_CONST __xprof_name
#define XPROF_PATH_CONST __xprof_path
#define XPROF_PROFILE_NAME_CONST __xprof_pname
#define XPROF_SHAPE_CONST __xprof_shape

/* Per array with per-thread counters: its thread-local twin, the cell the
 * constructor points at the twin, or its thread-local word (threads.c).
 * The object file's are named so; a comdat function's own arrays are
 * named by these prefixes, the function's name and a key (libxprof's
 * xprof_comdat_array_name), alike in every object file that has a copy
 * of the function, so that the linker keeps one (comdat groups of those
 * names, hidden). */
#define XPROF_COMDAT_COUNTERS __xprof_c
#define XPROF_TWIN_VAR __xprof_t
#define XPROF_TWIN_CELL_VAR __xprof_tc
#define XPROF_THREAD_WORD_VAR __xprof_d

/* ---- value profiles ------------------------------------------------------ */

/* Kinds of value-profile records, which are also the VP types of
 * xprof_binary(5) and xprof_text(4) (libxprof's xprof_vp_type): the
 * compiled code records VP_INT, VP_LLONG and VP_PROC. */
#define XPROF_ABI_VP_INT 0    /* signed int */
#define XPROF_ABI_VP_LLONG 1  /* signed long long */
#define XPROF_ABI_VP_FLOAT 2  /* float */
#define XPROF_ABI_VP_DOUBLE 3 /* double */
#define XPROF_ABI_VP_PROC 4   /* indirectly called procedure */

/* Words of one value-profile site's state for n values per record:
 * word 0: n (set by the compiler) and a lock bit (bit 63, runtime);
 * word 1: zero from the compiler; the runtime counts there the events it
 *         could not give to a value;
 * then n (value, count) pairs. */
#define XPROF_ABI_VP_WORDS(n) (2 + 2 * (n))

/* A length histogram (the lengths of a memory operation, VP_LLONG): the
 * compiled code adds 1 to the bucket of each length, with no call; the
 * runtime reports the buckets with the largest counts as values.  Word 0
 * is n | XPROF_ABI_VP_HISTOGRAM, word 1 reserved, then one count for each
 * of the lengths 0 to XPROF_ABI_VP_HIST_LONGEST (the longest LLVM's memop
 * optimization specializes for) and one for all longer ones, reported
 * as the value XPROF_ABI_VP_HIST_OTHER (no real length). */
#define XPROF_ABI_VP_HISTOGRAM (1ull << 32)
#define XPROF_ABI_VP_HIST_LONGEST 128
#define XPROF_ABI_VP_HIST_BUCKETS (XPROF_ABI_VP_HIST_LONGEST + 2)
#define XPROF_ABI_VP_HIST_WORDS (2 + XPROF_ABI_VP_HIST_BUCKETS)
#define XPROF_ABI_VP_HIST_OTHER UINT64_MAX

/* Pairs whose value the compiled code compares with the recorded value
 * itself, counting a match with one add (relaxed atomic unless
 * update=single) before it calls the runtime; the runtime keeps the most
 * frequent values in front. */
#define XPROF_ABI_VP_INLINE_PAIRS 2

/* Priority of the constructor that registers an object and of the
 * destructor that unregisters it (the implementation's range, below the
 * users' 101 and up, as GCC's own coverage code uses): registration comes
 * before any constructor of the program, and the last write after every
 * destructor, so that code they run is counted. */
#define XPROF_ABI_CDTOR_PRIORITY 100

/* xprof_abi_object.flags */
#define XPROF_ABI_ATOMIC_COUNTERS 1u /* counters are updated atomically */
#define XPROF_ABI_THREAD_COUNTERS 2u /* in per-thread copies of the arrays */
/* No procedures: the object only starts the runtime in a program built
 * without xprof (xprof_collect's preloaded library), whose profile holds
 * the process's time samples and no object file of its own. */
#define XPROF_ABI_SAMPLER_ONLY 4u

/* ---- what a program linked with the runtime exports -------------------
 *
 * So that instrumented shared libraries (dlopen'ed ones too) register with
 * the program's runtime, and threads that libraries start go through its
 * pthread_create and thrd_create; with the dump calls of the compilers' own runtimes
 * (compat.c), and the C library's functions the runtime stands in front
 * of for every caller (runtime/exec.c, runtime/sigprof.c,
 * runtime/notify.c).  The drivers pass them with --export-dynamic-symbol; the
 * build writes them as the runtime's dynamic list (xprof_rt.dynlist). */
#define XPROF_ABI_EXPORTS(X) \
  X(XPROF_ABI_PREFIX "*")    \
  X("xprof_*")               \
  X("__gcov_dump")           \
  X("__gcov_reset")          \
  X("__gcov_flush")          \
  X("__llvm_profile_*")      \
  X("pthread_create")        \
  X("thrd_create")           \
  X("execve")                \
  X("execv")                 \
  X("execvp")                \
  X("execvpe")               \
  X("execl")                 \
  X("execlp")                \
  X("execle")                \
  X("fexecve")               \
  X("execveat")              \
  X("daemon")                \
  X("sigaction")             \
  X("signal")                \
  X("bsd_signal")            \
  X("ssignal")               \
  X("sysv_signal")           \
  X("sigset")                \
  X("sigignore")             \
  X("setitimer")             \
  X("getitimer")             \
  X("sigwait")               \
  X("sigwaitinfo")           \
  X("sigtimedwait")          \
  X("signalfd")              \
  X("timer_create")          \
  X("mq_notify")

#ifndef __ASSEMBLER__
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the descriptors, field by field ------------------------------------
 *
 * The one definition of the descriptors' layout.  This header declares
 * the structs from these lists, and both compiler plugins build the
 * structs they emit from them (xprof_abi_records.h, by each field's kind)
 * and fill each field by its name: a field added here is given a value
 * by libxprof's plan (xprof_plan_*_values), or stops the compiler with a
 * message that names it.  F(KIND, NAME), KIND one of the XPROF_ABI_T_
 * kinds below. */

#define XPROF_ABI_VP_SITE_FIELDS(F)                                           \
  F(U32, type)    /* XPROF_ABI_VP_* */                                        \
  F(U32, expr_id) /* unique within the procedure */                           \
  F(U64P, state)  /* XPROF_ABI_VP_WORDS(n_values_per_vp) words */

#define XPROF_ABI_PROC_FIELDS(F)                                              \
  F(STR, name)        /* linker symbol name (static functions made unique) */ \
  F(U64, signature)   /* CFG signature */                                     \
  F(U32, id)          /* compiler-defined */                                  \
  F(U32, n_counters)                                                          \
  F(U64P, counters)   /* n_counters words of the object's counter array */    \
  F(U32, n_vp_sites)                                                          \
  /* Index of counters[0] in its counter array (counters - array_offset is  \
   * the array); used with XPROF_ABI_THREAD_COUNTERS. */                      \
  F(U32, array_offset)                                                        \
  F(SITES, vp_sites)                                                          \
  F(CODE, address)    /* the function, to name indirect-call targets */       \
  /* With XPROF_ABI_THREAD_COUNTERS, when the counter array has a           \
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

#define XPROF_ABI_OBJECT_FIELDS(F)                                            \
  F(U32, abi_version)     /* XPROF_ABI_VERSION */                             \
  F(U32, flags)           /* XPROF_ABI_* */                                   \
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
#define XPROF_ABI_T_U32(n) uint32_t n;
#define XPROF_ABI_T_U64(n) uint64_t n;
#define XPROF_ABI_T_STR(n) const char *n;
#define XPROF_ABI_T_BYTES(n) const unsigned char *n;
#define XPROF_ABI_T_U64P(n) uint64_t *n;
#define XPROF_ABI_T_SITES(n) const struct xprof_abi_vp_site *n;
#define XPROF_ABI_T_PROCS(n) const struct xprof_abi_proc *n;
#define XPROF_ABI_T_CODE(n) const void *n;
#define XPROF_ABI_T_CELL(n) uint64_t *const *n;
#define XPROF_ABI_T_NEXT(n) struct xprof_abi_object *n;
#define XPROF_ABI_T_RESERVED(n) uint64_t n[2];
#define XPROF_ABI_DECLARE(kind, name) XPROF_ABI_T_##kind(name)

struct xprof_abi_vp_site {
  XPROF_ABI_VP_SITE_FIELDS(XPROF_ABI_DECLARE)
};
struct xprof_abi_proc {
  XPROF_ABI_PROC_FIELDS(XPROF_ABI_DECLARE)
};
struct xprof_abi_object {
  XPROF_ABI_OBJECT_FIELDS(XPROF_ABI_DECLARE)
};

/* The kinds as numbers, and each struct's fields as an index
 * (XPROF_ABI_SITE_type, XPROF_ABI_PROC_name, XPROF_ABI_OBJECT_path, ...,
 * and XPROF_ABI_*_N_FIELDS). */
enum xprof_abi_kind {
  XPROF_ABI_K_U32, XPROF_ABI_K_U64, XPROF_ABI_K_STR, XPROF_ABI_K_U64P,
  XPROF_ABI_K_SITES, XPROF_ABI_K_PROCS, XPROF_ABI_K_CODE, XPROF_ABI_K_CELL,
  XPROF_ABI_K_NEXT, XPROF_ABI_K_RESERVED, XPROF_ABI_K_BYTES
};
#define XPROF_ABI_KIND(kind, name) XPROF_ABI_K_##kind,
#define XPROF_ABI_NAME(kind, name) #name,
#define XPROF_ABI_SITE_INDEX(kind, name) XPROF_ABI_SITE_##name,
#define XPROF_ABI_PROC_INDEX(kind, name) XPROF_ABI_PROC_##name,
#define XPROF_ABI_OBJECT_INDEX(kind, name) XPROF_ABI_OBJECT_##name,
enum { XPROF_ABI_VP_SITE_FIELDS(XPROF_ABI_SITE_INDEX) XPROF_ABI_SITE_N_FIELDS };
enum { XPROF_ABI_PROC_FIELDS(XPROF_ABI_PROC_INDEX) XPROF_ABI_PROC_N_FIELDS };
enum { XPROF_ABI_OBJECT_FIELDS(XPROF_ABI_OBJECT_INDEX) XPROF_ABI_OBJECT_N_FIELDS };

/* The entry points, as the runtime defines them. */
void XPROF_REGISTER(struct xprof_abi_object *obj);
void XPROF_UNREGISTER(struct xprof_abi_object *obj);
void XPROF_RECORD_PROC(uint64_t *state, const void *callee);
void XPROF_RECORD_PROC_SINGLE(uint64_t *state, const void *callee);
void XPROF_RECORD_INT(uint64_t *state, int32_t value);
void XPROF_RECORD_LLONG(uint64_t *state, int64_t value);
extern uint64_t XPROF_FIRST_RUNS;
/* Per-thread counters: the distance in words from `array` to the calling
 * thread's copy of it, also stored in *tls, the array's thread-local
 * word; 0: count in the array itself. */
intptr_t XPROF_THREAD_COUNTERS(uint64_t *array, intptr_t *tls);
/* Not C functions (see above): declared only to document them. */
void XPROF_THREAD_COUNTERS_ASM(void);
void XPROF_THREAD_COUNTERS_ASM_R10(void);

#ifdef __cplusplus
}
#endif
#endif /* __ASSEMBLER__ */
#endif
