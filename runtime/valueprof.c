/*
 * valueprof.c - the value-profile recorders.
 *
 * Each site keeps n (value, count) pairs with the Space-Saving algorithm
 * (Metwally, Agrawal, El Abbadi, 2005): a value already kept adds one to
 * its count; a new value takes a free pair, or else replaces the pair with
 * the smallest count and inherits that count plus one.  The counts then
 * sum to the exact number of events; any value seen in more than 1/n of
 * the events is kept, and a kept count overestimates the truth by at most
 * the smallest count.  The number of events is the sum of the counts
 * (and of word 1, which counts the rare event that could not wait for
 * the lock, see `holding`).  A value already kept is
 * counted with one atomic add, without the lock; replacing a value takes a
 * spin lock in the site's first word, held for a scan of n pairs.  Under
 * the lock, too, counts change only by atomic adds and exchanges, so that
 * an add made meanwhile without the lock is never lost: the counts keep
 * summing to the number of events.
 *
 * The lengths of memory operations are counted by the compiled code
 * itself in a histogram (xprof_abi.h, XPROF_ABI_VP_HISTOGRAM): exact, and
 * without a call for lengths that vary a lot, as sqlite's do.
 */
#include <sched.h>
#include <string.h>

#include "rt_internal.h"

#define LOCK_BIT (1ull << 63)

/* Set while this thread holds a site's lock.  A signal handler that runs
 * instrumented code can call the recorder in the middle of that: it must
 * not wait for a lock its own thread holds.  Such an event is counted in
 * word 1 of its site, as one the runtime could not give to a value, which
 * keeps the sum of the counts exact. */
static __thread int holding;

static void site_lock(uint64_t *state) {
  unsigned spins = 0;
  holding = 1;
  while (__atomic_fetch_or(&state[0], LOCK_BIT, __ATOMIC_ACQUIRE) & LOCK_BIT) {
    while (__atomic_load_n(&state[0], __ATOMIC_RELAXED) & LOCK_BIT)
      if (++spins % 256 == 0)
        sched_yield();
  }
}

static void site_unlock(uint64_t *state) {
  __atomic_fetch_and(&state[0], ~LOCK_BIT, __ATOMIC_RELEASE);
  holding = 0;
}

/* The compiled code counts the values of the first XPROF_ABI_VP_INLINE_PAIRS
 * pairs itself (a compare and an add) and calls the runtime for the
 * others, so the most frequent value moves to the front once its count is
 * clearly ahead (by a quarter, so that two values of equal weight do not
 * swap back and forth).  The caller holds the lock or is alone. */
static int ahead(uint64_t count, uint64_t first) { return count > first + first / 4 + 16; }

/* Counts move by exchange and add: an add that lands on either pair in
 * between stays in the sum (if perhaps with the other value). */
static void swap_to_front(uint64_t *pair, uint32_t i) {
  uint64_t v0 = __atomic_load_n(&pair[0], __ATOMIC_RELAXED);
  __atomic_store_n(&pair[0], __atomic_load_n(&pair[2 * i], __ATOMIC_RELAXED), __ATOMIC_RELAXED);
  __atomic_store_n(&pair[2 * i], v0, __ATOMIC_RELAXED);
  uint64_t c0 = __atomic_exchange_n(&pair[1], 0, __ATOMIC_RELAXED);
  uint64_t ci = __atomic_exchange_n(&pair[2 * i + 1], 0, __ATOMIC_RELAXED);
  __atomic_add_fetch(&pair[1], ci, __ATOMIC_RELAXED);
  __atomic_add_fetch(&pair[2 * i + 1], c0, __ATOMIC_RELAXED);
}

/* Space-Saving update; the caller holds the lock or is alone. */
static void record_locked(uint64_t *state, uint64_t value) {
  uint32_t n = (uint32_t)state[0];
  uint64_t *pair = state + 2;
  uint32_t min = 0, free_slot = UINT32_MAX;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t count = __atomic_load_n(&pair[2 * i + 1], __ATOMIC_RELAXED);
    if (count && pair[2 * i] == value) {
      count = __atomic_add_fetch(&pair[2 * i + 1], 1, __ATOMIC_RELAXED);
      if (i && ahead(count, __atomic_load_n(&pair[1], __ATOMIC_RELAXED)))
        swap_to_front(pair, i);
      return;
    }
    if (!count && free_slot == UINT32_MAX)
      free_slot = i;
    if (count < pair[2 * min + 1])
      min = i;
  }
  if (n) {
    uint32_t k = free_slot != UINT32_MAX ? free_slot : min;
    __atomic_store_n(&pair[2 * k], value, __ATOMIC_RELAXED);
    __atomic_add_fetch(&pair[2 * k + 1], 1, __ATOMIC_RELAXED);
  }
}

static void move_to_front(uint64_t *state, uint32_t i) {
  if (holding) /* a signal handler's event: the move can wait */
    return;
  site_lock(state);
  if (ahead(state[2 + 2 * i + 1], state[3]))
    swap_to_front(state + 2, i);
  site_unlock(state);
}

/* A value already kept costs one atomic add and no lock: the number of
 * events is the sum of the counts, so it stays exact.  A replacement (or
 * a move to the front) racing with it can give one event to the other
 * value; that is within Space-Saving's own error. */
static void record(uint64_t *state, uint64_t value) {
  uint32_t n = (uint32_t)__atomic_load_n(&state[0], __ATOMIC_RELAXED);
  uint64_t *pair = state + 2;
  for (uint32_t i = 0; i < n; i++)
    if (__atomic_load_n(&pair[2 * i], __ATOMIC_RELAXED) == value &&
        __atomic_load_n(&pair[2 * i + 1], __ATOMIC_RELAXED)) {
      uint64_t c = __atomic_add_fetch(&pair[2 * i + 1], 1, __ATOMIC_RELAXED);
      uint64_t c0 = __atomic_load_n(&pair[1], __ATOMIC_RELAXED);
      if (i && ahead(c, c0))
        move_to_front(state, i);
      return;
    }
  if (holding) {
    __atomic_add_fetch(&state[1], 1, __ATOMIC_RELAXED);
    return;
  }
  site_lock(state);
  record_locked(state, value);
  site_unlock(state);
}

RT_EXPORT void XPROF_RECORD_PROC(uint64_t *state, const void *callee) {
  record(state, (uint64_t)(uintptr_t)callee);
}

/* For objects compiled with single-threaded updates: no atomics at all. */
RT_EXPORT void XPROF_RECORD_PROC_SINGLE(uint64_t *state, const void *callee) {
  record_locked(state, (uint64_t)(uintptr_t)callee);
}

RT_EXPORT void XPROF_RECORD_INT(uint64_t *state, int32_t value) {
  record(state, (uint64_t)(int64_t)value);
}

RT_EXPORT void XPROF_RECORD_LLONG(uint64_t *state, int64_t value) {
  record(state, (uint64_t)value);
}

uint32_t rt_vp_words(const uint64_t *state) {
  uint64_t w0 = __atomic_load_n(&state[0], __ATOMIC_RELAXED);
  return w0 & XPROF_ABI_VP_HISTOGRAM ? XPROF_ABI_VP_HIST_WORDS
                                    : XPROF_ABI_VP_WORDS((uint32_t)w0);
}

/* A histogram's copy grows into one pair per bucket. */
uint32_t rt_vp_copy_words(const uint64_t *state) {
  return state[0] & XPROF_ABI_VP_HISTOGRAM ? XPROF_ABI_VP_WORDS(XPROF_ABI_VP_HIST_BUCKETS)
                                          : rt_vp_words(state);
}

/* The length a histogram bucket stands for. */
static uint64_t bucket_value(uint32_t b) {
  return b <= XPROF_ABI_VP_HIST_LONGEST ? b : XPROF_ABI_VP_HIST_OTHER;
}

uint32_t rt_vp_pairs(uint64_t *copy) {
  if (!(copy[0] & XPROF_ABI_VP_HISTOGRAM))
    return (uint32_t)copy[0];
  /* From the last bucket down, so that no count is overwritten unread. */
  for (uint32_t b = XPROF_ABI_VP_HIST_BUCKETS; b-- > 0;) {
    uint64_t count = copy[2 + b];
    copy[2 + 2 * b] = bucket_value(b);
    copy[3 + 2 * b] = count;
  }
  return XPROF_ABI_VP_HIST_BUCKETS;
}

/* Word by word with exchanges: an add made meanwhile without the lock is
 * either in the copy or left in the site, never lost. */
void rt_vp_take(uint64_t *state, uint64_t *copy, uint32_t words) {
  site_lock(state);
  copy[0] = state[0] & ~LOCK_BIT;
  for (uint32_t k = 1; k < words; k++)
    copy[k] = __atomic_exchange_n(&state[k], 0, __ATOMIC_RELAXED);
  site_unlock(state);
}

int rt_vp_counted(const uint64_t *state) {
  uint32_t words = rt_vp_words(state);
  for (uint32_t k = 1; k < words; k++)
    if (__atomic_load_n(&state[k], __ATOMIC_RELAXED))
      return 1;
  return 0;
}

void rt_vp_clear(uint64_t *state) {
  /* Nothing counted: nothing to write (a write would copy the page in a
   * fork's child).  An event counted meanwhile came after the clear. */
  if (!rt_vp_counted(state))
    return;
  site_lock(state);
  memset(state + 1, 0, (size_t)(rt_vp_words(state) - 1) * sizeof *state);
  site_unlock(state);
}
