/* The second file of two-file programs: a hot helper and a cold one. */
__attribute__((noinline)) int helper_hot(int x) { return (x * 7 + 3) % 101; }
__attribute__((noinline)) int helper_cold(int x) { return x ? x - 1 : 0; }
