/*
 * threads.c - per-thread counters (update=thread, the default).
 *
 * Exact counts under threads without an atomic instruction per event:
 * each thread counts in a private copy of each counter array, with plain
 * adds, and the runtime adds the copies up.  Compiled code finds its copy
 * at function entry:
 *
 *     t = __xprof_tls;                    one TLS load
 *     d = t ? t[(uint32_t)array[0]] : 0;  slot number in the array's header
 *     if (!d) d = __xprof_thread_counters(array);
 *     ... array[d + i] += 1 ...           d: distance to the copy in words
 *
 * so a counter array's word 0 is a header holding the array's slot (0:
 * none).  Slots are given to arrays when their object registers (a comdat
 * array shared by several objects gets one slot) and taken back when the
 * last object using the array unregisters.  Each thread's table maps a
 * slot to the distance of its copy; it is a reservation of address space
 * (RT_MAX_SLOTS words, untouched pages cost nothing) so compiled code
 * needs no bounds check.
 *
 * A copy is followed by a baseline: the values already handed to a
 * snapshot.  A snapshot adds copy - baseline and moves the baseline up,
 * writing nothing the owning thread writes, so threads keep counting
 * while another thread (or the async writer) dumps.  A thread that exits
 * adds what is left of its copies to the shared arrays (atomically) and
 * frees them.  Threads still running at exit are read as they are.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rt_internal.h"

#define RT_MAX_SLOTS (1u << 20)

/* The fast path's entry point into the thread's table (NULL until the
 * thread's first call of __xprof_thread_counters).  Exported, so that a
 * shared library's code binds to the same runtime copy as the program's
 * when both have one. */
RT_EXPORT __thread intptr_t *__xprof_tls __attribute__((tls_model("initial-exec")));

struct rt_slot {
  uint64_t *array; /* NULL: free */
  uint32_t words;  /* header + counters */
  uint32_t refs;   /* registered objects using the array */
  uint64_t mark;   /* the last (un)registration that counted this array */
};

struct rt_thread {
  intptr_t *table;
  struct rt_thread *next;
};

static struct rt_slot *slots; /* slots[0] unused */
static uint32_t n_slots = 1, cap_slots;
static struct rt_thread *threads;
static pthread_key_t thread_key;
static uint64_t pass; /* numbers (un)registrations, for slot marks */
static int key_ok, exiting, warned_full;
static __thread struct rt_thread *self __attribute__((tls_model("initial-exec")));
static __thread int thread_failed; /* no table: count in shared arrays */

static uint32_t header_slot(const uint64_t *array) {
  return (uint32_t)__atomic_load_n(&array[0], __ATOMIC_RELAXED);
}

/* Distances are computed on addresses: the copy and the array are
 * different objects as far as C is concerned. */
static uint64_t *copy_of(const struct rt_thread *t, uint32_t s) {
  intptr_t d = t->table[s];
  return d ? (uint64_t *)((uintptr_t)slots[s].array + (uintptr_t)d * 8) : NULL;
}

static intptr_t distance(const uint64_t *from, const uint64_t *to) {
  return ((intptr_t)(uintptr_t)to - (intptr_t)(uintptr_t)from) / 8;
}

/* ---- slots: caller holds rt_lock -------------------------------------- */

static uint32_t new_slot(uint64_t *array, uint32_t words) {
  if (n_slots == RT_MAX_SLOTS) {
    if (!warned_full++)
      rt_message("more than %u counter arrays; further ones are counted "
                 "without per-thread copies (counts of threads may be lost)",
                 RT_MAX_SLOTS - 1);
    return 0;
  }
  if (n_slots >= cap_slots) {
    uint32_t cap = cap_slots ? 2 * cap_slots : 64;
    struct rt_slot *s = realloc(slots, cap * sizeof *s);
    if (!s)
      return 0;
    slots = s;
    cap_slots = cap;
  }
  slots[n_slots] = (struct rt_slot){array, words, 0, 0};
  return n_slots++;
}

/* The slot of one array of a registering object. */
static void use_array(uint64_t *array, uint32_t words) {
  uint32_t s = header_slot(array);
  if (s && slots[s].array == array) {
    if (slots[s].mark != pass) {
      slots[s].mark = pass;
      slots[s].refs++;
    }
    if (words > slots[s].words)
      slots[s].words = words; /* procedures listed in any order */
    return;
  }
  if (!(s = new_slot(array, words)))
    return;
  slots[s].refs = 1;
  slots[s].mark = pass;
  __atomic_store_n(&array[0], (uint64_t)s, __ATOMIC_RELAXED);
}

static void release_slot(uint32_t s) {
  uint64_t *array = slots[s].array;
  __atomic_store_n(&array[0], 0, __ATOMIC_RELAXED);
  for (struct rt_thread *t = threads; t; t = t->next) {
    uint64_t *copy = copy_of(t, s);
    if (!copy)
      continue;
    t->table[s] = 0;
    /* At exit other threads may still be counting into their copies;
     * after dlclose nobody runs the code that uses them. */
    if (!exiting)
      free(copy);
  }
  slots[s].array = NULL;
}

void rt_threads_register_locked(const struct xprof_rt_object *obj) {
  if (!(obj->flags & XPROF_RT_THREAD_COUNTERS))
    return;
  pass++;
  for (uint32_t j = 0; j < obj->n_procs; j++) {
    const struct xprof_rt_proc *rp = &obj->procs[j];
    if (rp->n_counters && rp->array_offset)
      use_array(rp->counters - rp->array_offset, rp->array_offset + rp->n_counters);
  }
}

void rt_threads_unregister_locked(const struct xprof_rt_object *obj) {
  if (!(obj->flags & XPROF_RT_THREAD_COUNTERS))
    return;
  pass++;
  for (uint32_t j = 0; j < obj->n_procs; j++) {
    const struct xprof_rt_proc *rp = &obj->procs[j];
    if (!rp->n_counters || !rp->array_offset)
      continue;
    uint64_t *array = rp->counters - rp->array_offset;
    uint32_t s = header_slot(array);
    if (!s || slots[s].array != array || slots[s].mark == pass)
      continue;
    slots[s].mark = pass; /* once per object and array */
    if (--slots[s].refs == 0)
      release_slot(s);
  }
}

/* ---- counts of a procedure: caller holds rt_lock ------------------------ */

void rt_threads_take(const struct xprof_rt_proc *rp, uint64_t *sum) {
  if (!rp->array_offset || !threads)
    return;
  uint32_t s = header_slot(rp->counters - rp->array_offset);
  if (!s || !slots[s].array)
    return;
  uint32_t words = slots[s].words;
  for (struct rt_thread *t = threads; t; t = t->next) {
    uint64_t *copy = copy_of(t, s);
    if (!copy)
      continue;
    uint64_t *now = copy + rp->array_offset, *base = now + words;
    for (uint32_t k = 0; k < rp->n_counters; k++) {
      uint64_t v = __atomic_load_n(&now[k], __ATOMIC_RELAXED);
      sum[k] += v - base[k];
      base[k] = v;
    }
  }
}

/* Forget what the threads counted so far (xprof_reset). */
void rt_threads_reset_locked(void) {
  for (struct rt_thread *t = threads; t; t = t->next)
    for (uint32_t s = 1; s < n_slots; s++) {
      uint64_t *copy = copy_of(t, s);
      if (!copy)
        continue;
      for (uint32_t k = 1; k < slots[s].words; k++)
        copy[slots[s].words + k] = __atomic_load_n(&copy[k], __ATOMIC_RELAXED);
    }
}

/* ---- threads ---------------------------------------------------------- */

static void free_thread(struct rt_thread *t) {
  for (uint32_t s = 1; s < n_slots; s++)
    free(copy_of(t, s));
  munmap(t->table, RT_MAX_SLOTS * sizeof(intptr_t));
  free(t);
}

/* The parent's other threads do not exist in a fork child; its own
 * thread counts from zero. */
void rt_threads_fork_child_locked(void) {
  struct rt_thread **pp = &threads;
  while (*pp) {
    struct rt_thread *t = *pp;
    if (t == self) {
      for (uint32_t s = 1; s < n_slots; s++) {
        uint64_t *copy = copy_of(t, s);
        if (copy)
          memset(copy, 0, 2 * (size_t)slots[s].words * 8);
      }
      pp = &t->next;
    } else {
      *pp = t->next;
      free_thread(t);
    }
  }
}

/* A thread ends: what its copies hold goes to the shared arrays. */
static void thread_exit(void *arg) {
  struct rt_thread *t = arg;
  pthread_mutex_lock(&rt_lock);
  for (uint32_t s = 1; s < n_slots; s++) {
    uint64_t *copy = copy_of(t, s);
    if (!copy)
      continue;
    uint64_t *array = slots[s].array;
    uint32_t words = slots[s].words;
    for (uint32_t k = 1; k < words; k++)
      if (copy[k] != copy[words + k])
        __atomic_fetch_add(&array[k], copy[k] - copy[words + k], __ATOMIC_RELAXED);
  }
  struct rt_thread **pp = &threads;
  while (*pp && *pp != t)
    pp = &(*pp)->next;
  if (*pp)
    *pp = t->next;
  __xprof_tls = NULL;
  self = NULL;
  free_thread(t);
  pthread_mutex_unlock(&rt_lock);
}

static struct rt_thread *new_thread_locked(void) {
  if (!key_ok) {
    if (pthread_key_create(&thread_key, thread_exit) != 0)
      return NULL;
    key_ok = 1;
  }
  struct rt_thread *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  void *m = mmap(NULL, RT_MAX_SLOTS * sizeof(intptr_t), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) {
    free(t);
    return NULL;
  }
  t->table = m;
  t->next = threads;
  threads = t;
  pthread_setspecific(thread_key, t);
  __xprof_tls = t->table;
  self = t;
  return t;
}

/* The slow path of the code at function entry: the distance, in words,
 * from `array` to this thread's copy of it, or 0 to count in the array
 * itself (an object not registered yet, or no memory). */
RT_EXPORT intptr_t __xprof_thread_counters(uint64_t *array) {
  uint32_t s = header_slot(array);
  if (!s || thread_failed)
    return 0;
  pthread_mutex_lock(&rt_lock);
  intptr_t d = 0;
  struct rt_thread *t = self;
  if (!t && !(t = new_thread_locked()))
    thread_failed = 1;
  s = header_slot(array); /* may have been released meanwhile */
  if (t && s && slots[s].array == array) {
    if (!(d = t->table[s])) {
      uint64_t *copy = calloc(2 * (size_t)slots[s].words, 8);
      if (copy)
        d = t->table[s] = distance(array, copy);
    }
  }
  pthread_mutex_unlock(&rt_lock);
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
