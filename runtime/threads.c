/*
 * threads.c - per-thread counters (update=thread, the default).
 *
 * Exact counts under threads without an atomic instruction per event:
 * each thread counts in a private copy of each counter array, with plain
 * adds, and the runtime adds the copies up.  The compiler gives every
 * counter array a thread-local word D (one per object file, one per
 * comdat function) holding the distance, in words, from the array to the
 * running thread's copy; compiled code does at function entry
 *
 *     d = D;  if (!d) d = __xprof_thread_counters(array, &D);
 *     ... array[d + i] += 1 ...
 *
 * The runtime numbers the arrays of registered objects (slots; a comdat
 * array shared by several objects is one) and keeps, per thread, the
 * copy of each array the thread has run and the address of its D.
 *
 * A copy is followed by a baseline: the values already handed to a
 * snapshot.  A snapshot adds copy - baseline and moves the baseline up,
 * writing nothing the owning thread writes, so threads keep counting
 * while another thread (or the async writer) dumps.  A thread that exits
 * adds what is left of its copies to the shared arrays (atomically),
 * clears its Ds and frees the copies.  Threads still running at exit are
 * read as they are.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

struct rt_slot {
  uint64_t *array; /* NULL: released */
  uint32_t words;  /* counters in the array */
  uint32_t refs;   /* registered objects using the array */
  uint64_t mark;   /* the last (un)registration that counted this array */
};

struct rt_copy {
  uint64_t *copy;  /* words counters, then words baseline values */
  intptr_t *tls;   /* the thread's D for the array */
};

struct rt_thread {
  struct rt_copy *copies; /* by slot */
  uint32_t n_copies;
  struct rt_thread *next;
};

static struct rt_slot *slots; /* slots[0] unused */
static uint32_t n_slots = 1, cap_slots;
/* Array address -> slot, open addressing; entries are never removed (a
 * released slot's array is NULL, and the entry is reused when the same
 * address registers again, as after dlclose and dlopen). */
static struct { uint64_t *array; uint32_t slot; } *map;
static size_t map_mask, map_used;
static struct rt_thread *threads;
static uint64_t pass; /* numbers (un)registrations, for slot marks */
static pthread_key_t thread_key;
static int key_ok, exiting;
static __thread struct rt_thread *self __attribute__((tls_model("initial-exec")));

/* Distances are computed on addresses: the copy and the array are
 * different objects as far as C is concerned. */
static intptr_t distance(const uint64_t *from, const uint64_t *to) {
  return ((intptr_t)(uintptr_t)to - (intptr_t)(uintptr_t)from) / 8;
}

static uint64_t *copy_of(const struct rt_thread *t, uint32_t s) {
  return s < t->n_copies ? t->copies[s].copy : NULL;
}

/* ---- slots: caller holds rt_lock -------------------------------------- */

static size_t map_index(const uint64_t *array) {
  size_t h = (size_t)(((uintptr_t)array >> 3) * 0x9e3779b97f4a7c15ull);
  size_t i = h & map_mask;
  while (map[i].array && map[i].array != array)
    i = (i + 1) & map_mask;
  return i;
}

static int map_grow(void) {
  size_t n = map ? 2 * (map_mask + 1) : 256;
  void *old = map;
  size_t old_n = map ? map_mask + 1 : 0;
  map = calloc(n, sizeof *map);
  if (!map) {
    map = old;
    return -1;
  }
  map_mask = n - 1;
  for (size_t i = 0; i < old_n; i++) {
    typeof(map) e = (typeof(map))old + i;
    if (e->array)
      map[map_index(e->array)] = *e;
  }
  free(old);
  return 0;
}

static uint32_t find_slot(const uint64_t *array) {
  if (!map)
    return 0;
  size_t i = map_index(array);
  uint32_t s = map[i].array ? map[i].slot : 0;
  return s && slots[s].array == array ? s : 0;
}

static uint32_t new_slot(uint64_t *array, uint32_t words) {
  if (n_slots >= cap_slots) {
    uint32_t cap = cap_slots ? 2 * cap_slots : 64;
    struct rt_slot *s = realloc(slots, cap * sizeof *s);
    if (!s)
      return 0;
    slots = s;
    cap_slots = cap;
  }
  if ((map_used + 1) * 2 > (map ? map_mask + 1 : 0) && map_grow() < 0)
    return 0;
  size_t i = map_index(array);
  if (!map[i].array)
    map_used++;
  map[i].array = array;
  map[i].slot = n_slots;
  slots[n_slots] = (struct rt_slot){array, words, 1, pass};
  return n_slots++;
}

/* The slot of one array of a registering object. */
static void use_array(uint64_t *array, uint32_t words) {
  uint32_t s = find_slot(array);
  if (!s) {
    new_slot(array, words);
    return;
  }
  if (slots[s].mark != pass) {
    slots[s].mark = pass;
    slots[s].refs++;
  }
  if (words > slots[s].words)
    slots[s].words = words; /* procedures listed in any order */
}

static void release_slot(uint32_t s) {
  for (struct rt_thread *t = threads; t; t = t->next) {
    uint64_t *copy = copy_of(t, s);
    if (!copy)
      continue;
    /* At exit other threads may still be counting into their copies;
     * after dlclose nobody runs the code that uses them, and the Ds went
     * away with the library. */
    if (!exiting)
      free(copy);
    t->copies[s] = (struct rt_copy){NULL, NULL};
  }
  slots[s].array = NULL;
}

void rt_threads_register_locked(const struct xprof_rt_object *obj) {
  if (!(obj->flags & XPROF_RT_THREAD_COUNTERS))
    return;
  pass++;
  for (uint32_t j = 0; j < obj->n_procs; j++) {
    const struct xprof_rt_proc *rp = &obj->procs[j];
    if (rp->n_counters)
      use_array(rp->counters - rp->array_offset, rp->array_offset + rp->n_counters);
  }
}

void rt_threads_unregister_locked(const struct xprof_rt_object *obj) {
  if (!(obj->flags & XPROF_RT_THREAD_COUNTERS))
    return;
  pass++;
  for (uint32_t j = 0; j < obj->n_procs; j++) {
    const struct xprof_rt_proc *rp = &obj->procs[j];
    uint32_t s = rp->n_counters ? find_slot(rp->counters - rp->array_offset) : 0;
    if (!s || slots[s].mark == pass)
      continue;
    slots[s].mark = pass; /* once per object and array */
    if (--slots[s].refs == 0)
      release_slot(s);
  }
}

/* ---- counts of a procedure: caller holds rt_lock ------------------------ */

void rt_threads_take(const struct xprof_rt_object *obj,
                     const struct xprof_rt_proc *rp, uint64_t *sum) {
  if (!(obj->flags & XPROF_RT_THREAD_COUNTERS) || !threads)
    return;
  uint32_t s = find_slot(rp->counters - rp->array_offset);
  if (!s)
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
    for (uint32_t s = 1; s < t->n_copies; s++) {
      uint64_t *copy = copy_of(t, s);
      if (!copy)
        continue;
      for (uint32_t k = 0; k < slots[s].words; k++)
        copy[slots[s].words + k] = __atomic_load_n(&copy[k], __ATOMIC_RELAXED);
    }
}

/* ---- threads ---------------------------------------------------------- */

static void free_thread(struct rt_thread *t) {
  for (uint32_t s = 1; s < t->n_copies; s++)
    free(t->copies[s].copy);
  free(t->copies);
  free(t);
}

/* The parent's other threads do not exist in a fork child; its own
 * thread counts from zero (its Ds stay valid). */
void rt_threads_fork_child_locked(void) {
  struct rt_thread **pp = &threads;
  while (*pp) {
    struct rt_thread *t = *pp;
    if (t == self) {
      for (uint32_t s = 1; s < t->n_copies; s++)
        if (t->copies[s].copy)
          memset(t->copies[s].copy, 0, 2 * (size_t)slots[s].words * 8);
      pp = &t->next;
    } else {
      *pp = t->next;
      free_thread(t);
    }
  }
}

/* A thread ends: what its copies hold goes to the shared arrays, and code
 * that still runs in it (later key destructors) starts over. */
static void thread_exit(void *arg) {
  struct rt_thread *t = arg;
  pthread_mutex_lock(&rt_lock);
  for (uint32_t s = 1; s < t->n_copies; s++) {
    uint64_t *copy = t->copies[s].copy;
    if (!copy)
      continue;
    uint64_t *array = slots[s].array;
    uint32_t words = slots[s].words;
    for (uint32_t k = 0; k < words; k++)
      if (copy[k] != copy[words + k])
        __atomic_fetch_add(&array[k], copy[k] - copy[words + k], __ATOMIC_RELAXED);
    *t->copies[s].tls = 0;
  }
  struct rt_thread **pp = &threads;
  while (*pp && *pp != t)
    pp = &(*pp)->next;
  if (*pp)
    *pp = t->next;
  self = NULL;
  free_thread(t);
  pthread_mutex_unlock(&rt_lock);
}

static struct rt_thread *this_thread_locked(void) {
  if (self)
    return self;
  if (!key_ok) {
    if (pthread_key_create(&thread_key, thread_exit) != 0)
      return NULL;
    key_ok = 1;
  }
  struct rt_thread *t = calloc(1, sizeof *t);
  if (!t || pthread_setspecific(thread_key, t) != 0) {
    free(t);
    return NULL;
  }
  t->next = threads;
  threads = t;
  return self = t;
}

static int copies_room(struct rt_thread *t, uint32_t s) {
  if (s < t->n_copies)
    return 0;
  uint32_t n = t->n_copies ? t->n_copies : 16;
  while (n <= s)
    n *= 2;
  struct rt_copy *c = realloc(t->copies, n * sizeof *c);
  if (!c)
    return -1;
  memset(c + t->n_copies, 0, (n - t->n_copies) * sizeof *c);
  t->copies = c;
  t->n_copies = n;
  return 0;
}

/* The slow path of the code at function entry: the distance, in words,
 * from `array` to this thread's copy of it, also stored in *tls; or 0 to
 * count in the array itself (an object not registered yet, or no
 * memory). */
RT_EXPORT intptr_t __xprof_thread_counters(uint64_t *array, intptr_t *tls) {
  intptr_t d = 0;
  pthread_mutex_lock(&rt_lock);
  uint32_t s = find_slot(array);
  struct rt_thread *t = s ? this_thread_locked() : NULL;
  if (t && copies_room(t, s) == 0) {
    struct rt_copy *c = &t->copies[s];
    if (!c->copy)
      c->copy = calloc(2 * (size_t)slots[s].words, 8);
    if (c->copy) {
      c->tls = tls;
      d = *tls = distance(array, c->copy);
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
