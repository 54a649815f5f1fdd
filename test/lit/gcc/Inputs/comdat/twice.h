__attribute__((noinline)) inline int twice(int x) { return x > 100 ? x : 2 * x; }
int from_a(int);
int from_b(int);
