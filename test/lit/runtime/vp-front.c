// The compiled code counts the values of a site's first pairs itself and
// calls the runtime for the others, so the runtime moves a value to the
// front once its count is clearly ahead of the first pair's -- with
// atomic recording and with single-threaded recording -- while the counts
// still add up to the events, and two values of equal weight do not swap
// on every event.
// RUN: %cc_rt %s -o %t
// RUN: %t | FileCheck %s
// RUN: %cc_san_rt %s -o %t.san
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.san | FileCheck %s
// CHECK: atomic: front 2 (100), then 1 (10), events 110
// CHECK: single: front 2 (100), then 1 (10), events 110
// CHECK: even: events 2000, swaps at most 2
#include <stdio.h>

#include "handmade.h"

static uint64_t events(const uint64_t *s) {
  uint64_t n = 0;
  for (uint64_t i = 0; i < s[0]; i++)
    n += s[3 + 2 * i];
  return n;
}

static void report(const char *what, const uint64_t *s) {
  printf("%s: front %llu (%llu), then %llu (%llu), events %llu\n", what,
         (unsigned long long)s[2], (unsigned long long)s[3], (unsigned long long)s[4],
         (unsigned long long)s[5], (unsigned long long)events(s));
}

int main(void) {
  uint64_t a[XPROF_ABI_VP_WORDS(4)] = {4}, b[XPROF_ABI_VP_WORDS(4)] = {4};
  for (int i = 0; i < 10; i++) {
    __xprof_vp_llong(a, 1);
    __xprof_vp_proc_single(b, (const void *)1);
  }
  for (int i = 0; i < 100; i++) {
    __xprof_vp_llong(a, 2);
    __xprof_vp_proc_single(b, (const void *)2);
  }
  report("atomic", a);
  report("single", b);

  uint64_t c[XPROF_ABI_VP_WORDS(4)] = {4};
  int swaps = 0;
  uint64_t front = 0;
  for (int i = 0; i < 2000; i++) {
    __xprof_vp_llong(c, 10 + i % 2);
    if (c[2] != front)
      swaps++, front = c[2];
  }
  printf("even: events %llu, swaps at most %d\n", (unsigned long long)events(c),
         swaps <= 2 ? 2 : swaps);
  return 0;
}
