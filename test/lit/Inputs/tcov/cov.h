/* cov.h - a header with code: each object that includes it has its copy. */
static inline int clamp(int v, int lo, int hi) {
  if (v < lo)
    return lo;
  return v > hi ? hi : v;
}
#define ABS_SUM(s, x) do { if ((x) < 0) s -= (x); else s += (x); } while (0)
int classify(int x);
int never_called(int x);
