/*
 * threads.c - per-thread counters (update=thread, the default).
 *
 * Exact counts under threads without an atomic instruction per event:
 * each thread counts in a private copy of each counter array, with plain
 * adds, and the runtime adds the copies up.  A thread's copy of an array
 * is one of two kinds:
 *
 *   - a thread-local twin of the array, for code that goes into an
 *     executable.  Static TLS sits at the same distance from the thread
 *     pointer in every thread, so the compiled code adds to
 *     %fs:twin@tpoff + 8i with no code at function entry, and the runtime
 *     finds any thread's twin from that distance (measured from a
 *     thread-local of its own, `self`) -- if it knows the thread: threads
 *     are made known by the pthread_create below, which wraps the start
 *     routine, and by registration (the registering thread);
 *   - a copy on the heap, for code that may go into a shared library
 *     (whose TLS may be dynamic), or any code with no-tls-counters.  The
 *     compiler gives such an array a thread-local word D holding the
 *     distance, in words, from the array to the running thread's copy;
 *     compiled code does at function entry
 *
 *         d = D;  if (!d) d = XPROF_THREAD_COUNTERS(array, &D);
 *         ... array[d + i] += 1 ...
 *
 * The runtime numbers the arrays of registered objects (slots; a comdat
 * array shared by several objects is one) and keeps, per thread, its copy
 * of each array it used (and the address of its D), found through a
 * small table of the thread's own.
 *
 * Each copy has a baseline: the values already handed to a snapshot.  A
 * snapshot adds copy - baseline and moves the baseline up, writing nothing
 * the owning thread writes, so threads keep counting while another thread
 * (or the async writer) dumps.  A thread that ends adds what its twins
 * hold to the shared arrays (atomically), and hands its heap copies, with
 * their counts and baselines, to a pool per array, from which the next
 * thread that runs the array's code takes one: a thread's end then costs
 * a few pointer moves per array, whatever the array's size.  Snapshots
 * read the pools as they read the threads.  Threads still running at exit
 * are read as they are.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "rt_internal.h"

struct rt_slot {
  uint64_t *array;    /* NULL: released */
  uint32_t words;     /* counters in the array */
  uint32_t refs;      /* registered objects using the array */
  uint64_t mark;      /* the last (un)registration that counted this slot */
  intptr_t tls_twin;  /* bytes from a thread's `self` to its twin; 0: none */
  /* Heap copies of threads that ended, their counts and baselines kept,
   * for the next threads to count on in: a thread's end then moves no
   * counts, and threads that end on one processor and start on another
   * do not pass the shared counters' cache lines back and forth. */
  uint64_t **pool;
  uint32_t n_pool, cap_pool;
};

struct rt_copy {
  uint32_t slot;
  int heap;       /* now is ours, with the baseline after it */
  uint64_t *now;  /* the thread's counters; NULL: none */
  uint64_t *base; /* values already taken; NULL: all zero */
  intptr_t *tls;  /* the thread's D for the slot, or NULL */
};

struct rt_thread {
  struct rt_copy *copies; /* in the order made */
  uint32_t n_copies, cap_copies;
  uint32_t *index;        /* slot -> 1 + position in copies; 0: none */
  uint32_t index_mask;
  unsigned rounds;        /* of thread_exit */
  char *anchor;           /* the thread's `self` */
  struct rt_thread *next;
};

static struct rt_slot *slots; /* slots[0] unused */
static uint32_t n_slots = 1, cap_slots;
/* Address -> slot, open addressing; entries are not removed when their
 * slot is released (its array is then NULL, or another's): the entry is
 * reused when the same address registers again, as after dlclose and
 * dlopen, and dropped when the map is rebuilt. */
static struct { uint64_t *array; uint32_t slot; } *map;
static size_t map_mask, map_used;
/* A growing list of slot numbers. */
struct slot_list {
  uint32_t *v, n, cap;
};
/* Numbers of released slots. */
static struct slot_list free_slots;
/* The slots with twins: each new thread gets them all. */
static struct slot_list twin_slots;
static struct rt_thread *threads;
static size_t twin_bytes; /* of all twins: TLS that each thread's stack holds */
static uint64_t pass; /* numbers (un)registrations, for slot marks */
static pthread_key_t thread_key;
static int key_ok, exiting;
/* Static TLS, at a fixed distance from the counter arrays' twins. */
static __thread struct rt_thread *self;
/* `self` of a thread whose copies were added up for the last time. */
static struct rt_thread gone;
/* Records of threads that ended, emptied, for new threads (with their
 * tables): at most SPARE_THREADS. */
#define SPARE_THREADS 16
static struct rt_thread *spare_threads;
static unsigned n_spare_threads;

/* Distances are computed on addresses: the copy and the array are
 * different objects as far as C is concerned. */
static intptr_t distance(const uint64_t *from, const uint64_t *to) {
  return ((intptr_t)(uintptr_t)to - (intptr_t)(uintptr_t)from) / 8;
}

/* The counter array that holds a procedure's counters: its slot's key. */
static uint64_t *proc_array(const struct xprof_abi_proc *rp) {
  return rp->counters - rp->array_offset;
}

/* ---- a thread's copies -------------------------------------------------- */

static uint32_t *index_entry(const struct rt_thread *t, uint32_t s) {
  size_t i = (size_t)s * 0x9e3779b9u & t->index_mask;
  while (t->index[i] && t->copies[t->index[i] - 1].slot != s)
    i = (i + 1) & t->index_mask;
  return &t->index[i];
}

/* t's copy of slot s, made or not; NULL: none. */
static struct rt_copy *find_copy(const struct rt_thread *t, uint32_t s) {
  if (!t->index)
    return NULL;
  uint32_t e = *index_entry(t, s);
  return e ? &t->copies[e - 1] : NULL;
}

/* t's copy of slot s, while the slot is in use. */
static struct rt_copy *copy_of(const struct rt_thread *t, uint32_t s) {
  struct rt_copy *c = find_copy(t, s);
  return c && c->now && slots[s].array ? c : NULL;
}

static int index_grow(struct rt_thread *t) {
  uint32_t n = t->index ? 2 * (t->index_mask + 1) : 32;
  uint32_t *old = t->index;
  t->index = xprof_calloc(n, sizeof *t->index);
  if (!t->index) {
    t->index = old;
    return -1;
  }
  t->index_mask = n - 1;
  for (uint32_t i = 0; i < t->n_copies; i++)
    *index_entry(t, t->copies[i].slot) = i + 1;
  xprof_free(old);
  return 0;
}

/* t's entry for slot s, made empty when new; NULL when out of memory. */
static struct rt_copy *copy_entry(struct rt_thread *t, uint32_t s) {
  struct rt_copy *c = find_copy(t, s);
  if (c)
    return c;
  if ((t->n_copies + 1) * 2 > (t->index ? t->index_mask + 1 : 0) && index_grow(t) < 0)
    return NULL;
  if (t->n_copies == t->cap_copies) {
    uint32_t cap = t->cap_copies ? 2 * t->cap_copies : 16;
    c = xprof_realloc(t->copies, cap * sizeof *c);
    if (!c)
      return NULL;
    t->copies = c;
    t->cap_copies = cap;
  }
  c = &t->copies[t->n_copies++];
  *c = (struct rt_copy){s, 0, NULL, NULL, NULL};
  *index_entry(t, s) = t->n_copies;
  return c;
}

static void free_copy(struct rt_copy *c) {
  if (c->heap)
    xprof_free(c->now);
  else
    xprof_free(c->base);
  c->heap = 0;
  c->now = c->base = NULL;
  c->tls = NULL;
}

/* Counts and baseline to zero; only the owning thread may do this. */
/* Zero n words, writing only the stretches (of a page) that are not zero
 * already: in a fork's child every page written is a copy of the
 * parent's, and most of a program's counters never ran. */
static void zero_words(uint64_t *p, size_t n) {
  const size_t stretch = 4096 / sizeof *p;
  for (size_t i = 0; i < n; i += stretch) {
    size_t m = n - i < stretch ? n - i : stretch, k = 0;
    while (k < m && !p[i + k])
      k++;
    if (k < m)
      memset(p + i + k, 0, (m - k) * sizeof *p);
  }
}

static void zero_copy(struct rt_copy *c, uint32_t words) {
  zero_words(c->now, (c->heap ? 2 : 1) * (size_t)words);
  if (!c->heap) {
    xprof_free(c->base);
    c->base = NULL;
  }
}

/* Whether the FLUSH_BLOCK words at p are all zero, read with vector
 * loads (two words each, at any 8-byte alignment): a twin is read whole
 * at every thread's end, and scalar loads took twice as long. */
#define FLUSH_BLOCK 16
typedef uint64_t word_pair __attribute__((vector_size(16), aligned(8)));
static int block_is_zero(const uint64_t *p) {
  const word_pair *v = (const word_pair *)(const void *)p;
  word_pair any = v[0] | v[1] | v[2] | v[3] | v[4] | v[5] | v[6] | v[7];
  return (any[0] | any[1]) == 0;
}

/* Add now - base (base NULL: zero) to array, n words, skipping zeros. */
static void flush_words(const uint64_t *now, const uint64_t *base, uint64_t *array,
                        uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    uint64_t v = now[i] - (base ? base[i] : 0);
    if (v)
      __atomic_fetch_add(&array[i], v, __ATOMIC_RELAXED);
  }
}

/* Add what c counted since its baseline to the shared counters, for the
 * last time: the copy is freed, or dies with its thread, next.  A twin is
 * large and mostly untouched: it is read a block at a time, and only the
 * words of blocks found non-zero cost more.  (Counters only grow: a word
 * still zero has a zero baseline.) */
static void flush_copy(const struct rt_copy *c, uint64_t *array, uint32_t words) {
  const uint64_t *now = c->now, *base = c->base;
  uint32_t k = 0;
  for (; words - k >= FLUSH_BLOCK; k += FLUSH_BLOCK)
    if (!block_is_zero(now + k))
      flush_words(now + k, base ? base + k : NULL, array + k, FLUSH_BLOCK);
  flush_words(now + k, base ? base + k : NULL, array + k, words - k);
}

/* ---- slots: caller holds rt_lock -------------------------------------- */

static size_t map_index(const uint64_t *array) {
  size_t i = rt_hash_ptr(array) & map_mask;
  while (map[i].array && map[i].array != array)
    i = (i + 1) & map_mask;
  return i;
}

/* The map again, of a size for its entries in use (a library that is
 * loaded and unloaded again and again, somewhere else each time, leaves
 * entries of released slots behind). */
static int map_rebuild(void) {
  size_t old_n = map ? map_mask + 1 : 0, live = 0;
  for (size_t i = 0; i < old_n; i++)
    live += map[i].array && slots[map[i].slot].array == map[i].array;
  size_t n = 256;
  while (n < 4 * (live + 1))
    n *= 2;
  void *old = map;
  map = xprof_calloc(n, sizeof *map);
  if (!map) {
    map = old;
    return -1;
  }
  map_mask = n - 1;
  map_used = 0;
  for (size_t i = 0; i < old_n; i++) {
    typeof(map) e = (typeof(map))old + i;
    if (e->array && slots[e->slot].array == e->array) {
      map[map_index(e->array)] = *e;
      map_used++;
    }
  }
  xprof_free(old);
  return 0;
}

static uint32_t find_slot(const uint64_t *array) {
  if (!map)
    return 0;
  size_t i = map_index(array);
  uint32_t s = map[i].array ? map[i].slot : 0;
  return s && slots[s].array == array ? s : 0;
}

/* A slot for array: a released one, or a new one; 0 when out of memory. */
static uint32_t new_slot(uint64_t *array, uint32_t words) {
  if ((map_used + 1) * 2 > (map ? map_mask + 1 : 0) && map_rebuild() < 0)
    return 0;
  uint32_t s = free_slots.n && !exiting ? free_slots.v[--free_slots.n] : n_slots;
  if (s == n_slots && n_slots >= cap_slots) {
    uint32_t cap = cap_slots ? 2 * cap_slots : 64;
    struct rt_slot *grown = xprof_realloc(slots, cap * sizeof *grown);
    if (!grown)
      return 0;
    slots = grown;
    cap_slots = cap;
  }
  size_t i = map_index(array);
  if (!map[i].array)
    map_used++;
  map[i].array = array;
  map[i].slot = s;
  slots[s] = (struct rt_slot){array, words, 1, pass, 0, NULL, 0, 0};
  if (s == n_slots)
    n_slots++;
  return s;
}

/* Add s to l; out of memory, l stays as it was. */
static void list_push(struct slot_list *l, uint32_t s) {
  if (l->n == l->cap) {
    uint32_t cap = l->cap ? 2 * l->cap : 16;
    uint32_t *v = xprof_realloc(l->v, cap * sizeof *v);
    if (!v)
      return;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = s;
}

/* The slot of one array of a registering object; twin: the array's
 * thread-local twin in this thread, or NULL. */
static void use_array(uint64_t *array, uint32_t words, uint64_t *twin) {
  uint32_t s = find_slot(array);
  if (!s) {
    s = new_slot(array, words);
  } else {
    if (slots[s].mark != pass) {
      slots[s].mark = pass;
      slots[s].refs++;
    }
    if (words > slots[s].words) { /* procedures listed in any order */
      if (slots[s].tls_twin)
        __atomic_store_n(&twin_bytes, twin_bytes + (size_t)(words - slots[s].words) * 8,
                         __ATOMIC_RELAXED);
      slots[s].words = words;
    }
  }
  if (s && twin && !slots[s].tls_twin) {
    slots[s].tls_twin = (char *)twin - (char *)&self;
    list_push(&twin_slots, s);
    __atomic_store_n(&twin_bytes, twin_bytes + (size_t)words * 8, __ATOMIC_RELAXED);
  }
}

/* Keep the heap copy c of slot s, counts and all, for a later thread;
 * returns 0, or -1 when out of memory. */
static int retire_copy(uint32_t s, struct rt_copy *c) {
  struct rt_slot *sl = &slots[s];
  if (sl->n_pool == sl->cap_pool) {
    uint32_t cap = sl->cap_pool ? 2 * sl->cap_pool : 4;
    uint64_t **v = xprof_realloc(sl->pool, cap * sizeof *v);
    if (!v)
      return -1;
    sl->pool = v;
    sl->cap_pool = cap;
  }
  sl->pool[sl->n_pool++] = c->now;
  c->heap = 0;
  c->now = c->base = NULL;
  c->tls = NULL;
  return 0;
}

static void drop_pool(uint32_t s) {
  while (slots[s].n_pool)
    xprof_free(slots[s].pool[--slots[s].n_pool]);
  xprof_free(slots[s].pool);
  slots[s].pool = NULL;
  slots[s].cap_pool = 0;
}

static void release_slot(uint32_t s) {
  for (struct rt_thread *t = threads; t; t = t->next) {
    struct rt_copy *c = copy_of(t, s);
    if (!c)
      continue;
    /* At exit other threads may still be counting into their heap copies:
     * those stay where they are, reachable from the thread's record.
     * After dlclose nobody runs the code that uses them, and the Ds went
     * away with the library. */
    if (exiting && c->heap)
      continue;
    free_copy(c);
  }
  drop_pool(s);
  for (uint32_t i = 0; slots[s].tls_twin && i < twin_slots.n; i++)
    if (twin_slots.v[i] == s)
      twin_slots.v[i] = twin_slots.v[--twin_slots.n];
  slots[s].array = NULL;
  slots[s].tls_twin = 0;
  /* Its number, for a later slot: threads' entries for it are empty now
   * (at exit, heap copies stay, and numbers are not given again). */
  list_push(&free_slots, s);
}

/* ---- threads: caller holds rt_lock ------------------------------------ */

/* Give t its twins of the arrays that have them. */
static void attach_twins(struct rt_thread *t) {
  for (uint32_t i = 0; i < twin_slots.n; i++) {
    uint32_t s = twin_slots.v[i];
    struct rt_copy *c = copy_of(t, s) ? NULL : copy_entry(t, s);
    if (c) {
      free_copy(c);
      c->now = (uint64_t *)(void *)(t->anchor + slots[s].tls_twin);
    }
  }
}

static void thread_exit(void *arg);
static void check_thread_hook(void);
static void free_thread(struct rt_thread *t);

/* The calling thread's record, made on first use; NULL when out of memory
 * or when the thread is past its last count. */
static struct rt_thread *this_thread_locked(void) {
  if (self)
    return self == &gone ? NULL : self;
  if (!key_ok) {
    if (pthread_key_create(&thread_key, thread_exit) != 0)
      return NULL;
    key_ok = 1;
  }
  struct rt_thread *t = spare_threads;
  if (t) {
    spare_threads = t->next;
    n_spare_threads--;
  } else {
    t = xprof_calloc(1, sizeof *t);
  }
  if (!t || pthread_setspecific(thread_key, t) != 0) {
    free_thread(t);
    return NULL;
  }
  t->anchor = (char *)&self;
  t->next = threads;
  threads = t;
  attach_twins(t);
  return self = t;
}

/* Free t's copies; keep the record for a new thread, or free it too. */
static void free_thread(struct rt_thread *t) {
  if (!t)
    return;
  for (uint32_t i = 0; i < t->n_copies; i++)
    if (t->copies[i].now)
      free_copy(&t->copies[i]);
  if (n_spare_threads < SPARE_THREADS) {
    if (t->index)
      memset(t->index, 0, (t->index_mask + 1) * sizeof *t->index);
    t->n_copies = 0;
    t->rounds = 0;
    t->next = spare_threads;
    spare_threads = t;
    n_spare_threads++;
    return;
  }
  xprof_free(t->copies);
  xprof_free(t->index);
  xprof_free(t);
}

/* ---- registration: caller holds rt_lock ---------------------------------- */

void rt_threads_register_locked(const struct xprof_abi_object *obj) {
  if (!(obj->flags & XPROF_ABI_THREAD_COUNTERS))
    return;
  pass++;
  int twins = 0;
  for (uint32_t j = 0; j < obj->n_procs; j++) {
    const struct xprof_abi_proc *rp = &obj->procs[j];
    if (!rp->n_counters)
      continue;
    uint64_t *twin = rp->tls_array ? *rp->tls_array : NULL;
    use_array(proc_array(rp), rp->array_offset + rp->n_counters, twin);
    twins |= twin != NULL;
  }
  if (!twins)
    return;
  check_thread_hook();
  /* The registering thread counts in the twins already, and threads that
   * exist count there too from now on. */
  this_thread_locked();
  for (struct rt_thread *t = threads; t; t = t->next)
    attach_twins(t);
}

void rt_threads_unregister_locked(const struct xprof_abi_object *obj) {
  if (!(obj->flags & XPROF_ABI_THREAD_COUNTERS))
    return;
  pass++;
  for (uint32_t j = 0; j < obj->n_procs; j++) {
    const struct xprof_abi_proc *rp = &obj->procs[j];
    uint32_t s = rp->n_counters ? find_slot(proc_array(rp)) : 0;
    if (!s || slots[s].mark == pass)
      continue;
    slots[s].mark = pass; /* once per object and slot */
    if (--slots[s].refs == 0)
      release_slot(s);
  }
}

/* ---- counts of a procedure: caller holds rt_lock ------------------------ */

/* The baseline of a twin, made when first needed; NULL when out of
 * memory (the counts then wait for a later call). */
static uint64_t *baseline(struct rt_copy *c, uint32_t words) {
  if (!c->base)
    c->base = xprof_calloc(words, 8);
  return c->base;
}

/* Add now - base to sum and move the baseline up, n words.  Only the
 * words that moved are stored: most counters of a program never run, and
 * a baseline left untouched stays the system's zero page. */
static void take_range(const uint64_t *now, uint64_t *base, uint32_t n, uint64_t *sum) {
  for (uint32_t k = 0; k < n; k++) {
    uint64_t v = __atomic_load_n(&now[k], __ATOMIC_RELAXED);
    if (v != base[k]) {
      sum[k] += v - base[k];
      base[k] = v;
    }
  }
}

void rt_threads_take(const struct xprof_abi_object *obj,
                     const struct xprof_abi_proc *rp, uint64_t *sum) {
  if (!(obj->flags & XPROF_ABI_THREAD_COUNTERS))
    return;
  uint32_t s = find_slot(proc_array(rp));
  if (!s)
    return;
  uint32_t words = slots[s].words, offset = rp->array_offset;
  for (struct rt_thread *t = threads; t; t = t->next) {
    struct rt_copy *c = copy_of(t, s);
    uint64_t *base = c ? baseline(c, words) : NULL;
    if (!base)
      continue;
    take_range(c->now + offset, base + offset, rp->n_counters, sum);
  }
  for (uint32_t i = 0; i < slots[s].n_pool; i++) {
    uint64_t *now = slots[s].pool[i];
    take_range(now + offset, now + words + offset, rp->n_counters, sum);
  }
}

/* Do n words of now differ from base (NULL: zeros)? */
static int range_moved(const uint64_t *now, const uint64_t *base, uint32_t n) {
  for (uint32_t k = 0; k < n; k++)
    if (__atomic_load_n(&now[k], __ATOMIC_RELAXED) != (base ? base[k] : 0))
      return 1;
  return 0;
}

int rt_threads_counted(const struct xprof_abi_object *obj, const struct xprof_abi_proc *rp,
                       const uint64_t **looked) {
  if (!(obj->flags & XPROF_ABI_THREAD_COUNTERS) || proc_array(rp) == *looked)
    return 0;
  *looked = proc_array(rp);
  uint32_t s = find_slot(proc_array(rp));
  if (!s)
    return 0;
  uint32_t words = slots[s].words;
  for (struct rt_thread *t = threads; t; t = t->next) {
    const struct rt_copy *c = copy_of(t, s);
    if (c && range_moved(c->now, c->base, words))
      return 1;
  }
  for (uint32_t i = 0; i < slots[s].n_pool; i++) {
    const uint64_t *now = slots[s].pool[i];
    if (range_moved(now, now + words, words))
      return 1;
  }
  return 0;
}

/* Forget what the threads counted so far (xprof_reset). */
void rt_threads_reset_locked(void) {
  for (struct rt_thread *t = threads; t; t = t->next)
    for (uint32_t i = 0; i < t->n_copies; i++) {
      struct rt_copy *c = copy_of(t, t->copies[i].slot);
      uint32_t words = c ? slots[c->slot].words : 0;
      uint64_t *base = c ? baseline(c, words) : NULL;
      for (uint32_t k = 0; base && k < words; k++)
        base[k] = __atomic_load_n(&c->now[k], __ATOMIC_RELAXED);
    }
  for (uint32_t s = 1; s < n_slots; s++)
    for (uint32_t i = 0; i < slots[s].n_pool; i++)
      memcpy(slots[s].pool[i] + slots[s].words, slots[s].pool[i], slots[s].words * 8ul);
}

/* The parent's other threads do not exist in a fork child; the calling
 * thread counts from zero (its Ds stay valid). */
void rt_threads_fork_child_locked(void) {
  struct rt_thread **pp = &threads;
  while (*pp) {
    struct rt_thread *t = *pp;
    if (t == self) {
      pp = &t->next;
    } else {
      *pp = t->next;
      free_thread(t);
    }
  }
  for (uint32_t s = 1; s < n_slots; s++)
    drop_pool(s); /* the parent's counts */
  /* A thread not known yet: its twins hold the parent's counts. */
  struct rt_thread *t = this_thread_locked();
  for (uint32_t i = 0; t && i < t->n_copies; i++)
    if (copy_of(t, t->copies[i].slot))
      zero_copy(&t->copies[i], slots[t->copies[i].slot].words);
}

/* ThreadSanitizer's runtime (in the program, or libtsan) ends its own
 * record of a thread in the last round of destructors as well, and when
 * it goes first, the thread's next call of a function it intercepts
 * (pthread_mutex_lock, free) crashes in it (GCC 12's libtsan: SEGV in
 * MutexPreLock).  Under it a thread's counts are taken in the first
 * round; what later destructors count in twins is lost. */
extern void __tsan_init(void) __attribute__((weak));

/* A thread ends: its heap copies go to their slots' pools, with what
 * they hold, and what its twins hold goes to the shared counters.  Code
 * that runs in the thread later (other keys' destructors) counts again,
 * so the record stays for every round of destructors that glibc makes,
 * and the copies move after the last. */
static void thread_exit(void *arg) {
  struct rt_thread *t = arg;
  rt_enter();
  int last = ++t->rounds >= PTHREAD_DESTRUCTOR_ITERATIONS || __tsan_init;
  for (uint32_t i = 0; last && i < t->n_copies; i++) {
    struct rt_copy *c = copy_of(t, t->copies[i].slot);
    if (!c)
      continue;
    if (c->tls)
      *c->tls = 0;
    if (!c->heap || retire_copy(c->slot, c) < 0)
      flush_copy(c, slots[c->slot].array, slots[c->slot].words);
  }
  if (last) {
    struct rt_thread **pp = &threads;
    while (*pp && *pp != t)
      pp = &(*pp)->next;
    if (*pp)
      *pp = t->next;
    self = &gone;
    free_thread(t);
  } else {
    pthread_setspecific(thread_key, t);
  }
  rt_leave();
}

/* The slow path of the code at function entry: the distance, in words,
 * from `array` to this thread's copy of it, also stored in *tls, the
 * array's thread-local word; or 0 to count in the array itself (an object
 * not registered yet, no memory, or a thread past its last count).  An
 * array with a twin (a comdat array also compiled for an executable) is
 * counted in the twin. */
RT_EXPORT intptr_t XPROF_THREAD_COUNTERS(uint64_t *array, intptr_t *tls) {
  intptr_t d = 0;
  /* Called back from inside the runtime (an interposed C library function
   * or a signal handler that runs instrumented code): the shared array,
   * this once, rather than waiting for a lock this thread holds. */
  if (rt_busy)
    return 0;
  rt_enter();
  uint32_t s = find_slot(array);
  struct rt_thread *t = s ? this_thread_locked() : NULL;
  struct rt_copy *c = t ? copy_entry(t, s) : NULL;
  if (c && !c->now) {
    struct rt_slot *sl = &slots[s];
    c->now = sl->n_pool ? sl->pool[--sl->n_pool] : xprof_calloc(2 * (size_t)sl->words, 8);
    c->heap = c->now != NULL;
    c->base = c->now ? c->now + slots[s].words : NULL;
  }
  if (c && c->now) {
    c->tls = tls;
    d = *tls = distance(array, c->now);
  }
  rt_leave();
  return d;
}

void rt_threads_exiting_locked(void) { exiting = 1; }

/* A copy of the runtime in a shared library being unloaded: its threads'
 * destructor would point into unmapped code. */
void rt_threads_unload(void) {
  if (key_ok)
    pthread_key_delete(thread_key);
  key_ok = 0;
}

/* ---- pthread_create: new threads are known from their first instruction */

struct rt_start {
  void *(*routine)(void *);
  int (*c11)(void *); /* a C11 thread's (thrd_create), instead */
  void *arg;
};

/* The calling thread is known from here on: what it counted before in
 * twins is read too, when it ends. */
void rt_threads_adopt(void) {
  rt_enter();
  this_thread_locked();
  rt_leave();
}

/* A C11 thread's int is its result as the C library keeps it (thrd_join
 * takes it back from the pointer). */
static void *thread_start(void *p) {
  struct rt_start start = *(struct rt_start *)p;
  xprof_free(p);
  rt_threads_adopt();
  if (start.c11)
    return (void *)(uintptr_t)start.c11(start.arg);
  return start.routine(start.arg);
}

/* glibc carves a thread's static TLS (the twins among it) out of its
 * stack and refuses stacks too small for it: a thread whose stack size is
 * the program's choice gets the twins' size on top.  Changing the
 * caller's attributes for the call is serialized. */
static pthread_mutex_t attr_lock = PTHREAD_MUTEX_INITIALIZER;

/* The caller gave the stack itself.  glibc reports an unset stack as
 * ending at address 0 (pthread_attr_getstackaddr, which says it plainly,
 * warns at every link). */
static int stack_is_callers(const pthread_attr_t *attr) {
  void *addr = NULL;
  size_t size = 0;
  return pthread_attr_getstack(attr, &addr, &size) == 0 &&
         (uintptr_t)addr + size != 0;
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                         void *);

/* The program's attributes attr, for a call that starts threads with
 * them: their stack size grown by the twins' until rt_threads_room_end,
 * the callers serialized.  The size before, or 0 where nothing changed
 * (no twins, no attributes, a stack of the caller's own). */
size_t rt_threads_room_begin(pthread_attr_t *attr) {
  size_t extra = __atomic_load_n(&twin_bytes, __ATOMIC_RELAXED), size;
  if (!extra || !attr || stack_is_callers(attr))
    return 0;
  pthread_mutex_lock(&attr_lock);
  if (pthread_attr_getstacksize(attr, &size) == 0 && size &&
      pthread_attr_setstacksize(attr, size + extra) == 0)
    return size;
  pthread_mutex_unlock(&attr_lock);
  return 0;
}

void rt_threads_room_end(pthread_attr_t *attr, size_t before) {
  if (!before)
    return;
  pthread_attr_setstacksize(attr, before);
  pthread_mutex_unlock(&attr_lock);
}

/* A thread on a stack of the program's own could not start (EINVAL):
 * the runtime cannot give that stack more room, and the program would
 * only see the error.  Said once. */
static void say_no_room(const pthread_attr_t *attr, size_t extra) {
  static int said;
  void *addr;
  size_t size;
  if (__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED) ||
      pthread_attr_getstack(attr, &addr, &size) != 0)
    return;
  rt_message("pthread_create: a thread on a stack of the program's own (%zu bytes) could not "
             "start (EINVAL): the executable's thread-local counters take %zu bytes of every "
             "thread's stack; build this program's collect objects with "
             "-fplugin-arg-xprof-no-tls-counters or -mllvm -xprof-tls-counters=false",
             size, extra);
}

static int create_with_room(create_fn real, pthread_t *thread,
                            const pthread_attr_t *attr, void *(*routine)(void *),
                            void *arg) {
  size_t extra = __atomic_load_n(&twin_bytes, __ATOMIC_RELAXED), size;
  if (attr) {
    pthread_attr_t *a = (pthread_attr_t *)attr; /* restored below */
    size_t before = rt_threads_room_begin(a);
    int rc = real(thread, a, routine, arg);
    rt_threads_room_end(a, before);
    if (rc == EINVAL && extra && stack_is_callers(attr))
      say_no_room(attr, extra);
    return rc;
  }
  /* No attributes: the defaults, in attributes of our own. */
  pthread_attr_t own;
  if (!extra || pthread_getattr_default_np(&own) != 0)
    return real(thread, attr, routine, arg);
  if (pthread_attr_getstacksize(&own, &size) == 0)
    pthread_attr_setstacksize(&own, size + extra);
  int rc = real(thread, &own, routine, arg);
  pthread_attr_destroy(&own);
  return rc;
}

/* The C library's function: the next definition after ours (as the
 * exec and signal stand-ins find theirs), or in a static link (no
 * dynamic symbols) under its own name, which the drivers make the linker
 * take from libc.a (--undefined=__pthread_create_2_1). */
static int rt_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
extern int __pthread_create_2_1(pthread_t *, const pthread_attr_t *,
                                void *(*)(void *), void *) __attribute__((weak));

static create_fn libc_pthread_create(void) {
  static int said;
  static void *found;
  create_fn f = (create_fn)rt_next_function_once(&found, "pthread_create",
                                                 (void *)rt_pthread_create,
                                                 (void *)__pthread_create_2_1);
  if (!f && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    rt_message("cannot find the C library's pthread_create (a static link: "
               "link with -Wl,--undefined=__pthread_create_2_1, as the xprof "
               "drivers do)");
  return f;
}

/* A thread that runs `routine`, or with `c11` that C11 thread function,
 * on arg; 0 or an error number. */
static int start_thread(pthread_t *thread, const pthread_attr_t *attr,
                        void *(*routine)(void *), int (*c11)(void *), void *arg) {
  create_fn real = libc_pthread_create();
  if (!real)
    return EAGAIN;
  struct rt_start *start = xprof_malloc(sizeof *start);
  if (!start && c11)
    return ENOMEM;
  if (!start)
    return create_with_room(real, thread, attr, routine, arg);
  start->routine = routine;
  start->c11 = c11;
  start->arg = arg;
  int rc = create_with_room(real, thread, attr, thread_start, start);
  if (rc != 0)
    xprof_free(start);
  return rc;
}

/* The runtime's pthread_create, exported under the C library's name as a
 * weak alias, so that a program or runtime that defines its own (a
 * sanitizer's, linked statically; a program that counts its threads and
 * calls the C library's through dlsym) links.  The threads those start
 * stay unknown, and what they count in twins is lost: see
 * check_thread_hook. */
static int rt_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             void *(*routine)(void *), void *arg) {
  return start_thread(thread, attr, routine, NULL, arg);
}

RT_EXPORT int pthread_create(pthread_t *, const pthread_attr_t *,
                             void *(*)(void *), void *)
    __attribute__((weak, alias("rt_pthread_create")));

/* C11's thrd_create.  The C library's calls its own pthread_create, not
 * the one a program calls, so its threads never passed through the
 * runtime's.  The thread gets the default attributes, as the C library
 * gives it; its function's int is its result (thread_start).  Weak and
 * exported, as pthread_create. */
RT_WRAPPER int thrd_create(thrd_t *thr, thrd_start_t func, void *arg) {
  _Static_assert(sizeof(thrd_t) == sizeof(pthread_t), "thrd_t is a pthread_t");
  int rc = start_thread((pthread_t *)thr, NULL, NULL, func, arg);
  return rc == 0 ? thrd_success : rc == ENOMEM ? thrd_nomem : rc == EBUSY ? thrd_busy
                                                                          : thrd_error;
}

/* Say once when the pthread_create that the program calls is not the
 * runtime's while executable code counts in twins. */
static void check_thread_hook(void) {
  static int said;
  if (said || (void *)pthread_create == (void *)rt_pthread_create)
    return;
  said = 1;
  rt_message("the program defines pthread_create itself: the threads it "
             "starts are unknown to the runtime, and what the executable's "
             "code counts in them is lost when they end (for exact counts "
             "build it with per-thread copies, -fplugin-arg-xprof-no-tls-counters "
             "or -mllvm -xprof-tls-counters=false, or with -xprofile_update=atomic)");
}
