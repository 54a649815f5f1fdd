/* An instrumented shared library for xprof_gprof's tests. */
static volatile double lib_sink;

__attribute__((noinline)) void lib_leaf(int i) {
  for (int k = 0; k < 4000000; k++)
    lib_sink += k * i;
}

void lib_entry(int n) {
  for (int i = 0; i < n; i++)
    lib_leaf(i);
}
