__attribute__((noinline)) int scale(int x) { return 3 * x + 1; }
__attribute__((noinline)) int offset(int x) { return x - 7; }
