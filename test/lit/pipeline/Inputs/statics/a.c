/* One of two static functions named work (lines-statics.test); its
 * lines are numbered apart from b.c's. */
/* Inlined where the use build asks (lines-statics.test), called in the
 * training. */
#ifdef LET_INLINE
#define WORK static inline
#else
#define WORK __attribute__((noinline)) static
#endif
#line 40
WORK int work(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    if (i % 7 == 0)
      s += i;
  return s;
}
int run_a(int n) { return work(n); }
