/* Shared-library code run from many threads. */
static long rotate(long x) { return (x << 7) | ((unsigned long)x >> 57); }

long lib_mix(long x) {
  x ^= rotate(x) + 0x9e3779b97f4a7c15;
  return x % 2 ? x * 3 : x / 2;
}
