/* The other static function named work (lines-statics.test), of
 * another shape; its lines are numbered apart from a.c's. */
/* Inlined where the use build asks (lines-statics.test), called in the
 * training. */
#ifdef LET_INLINE
#define WORK static inline
#else
#define WORK __attribute__((noinline)) static
#endif
#line 60
WORK int work(const char *p) {
  int s = 0;
  while (*p) {
    if (*p == 'x')
      s++;
    else
      s--;
    p++;
  }
  return s;
}
int run_b(const char *p) { return work(p); }
