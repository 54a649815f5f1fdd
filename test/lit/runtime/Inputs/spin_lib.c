/* A shared library built without xprof, dlopen'ed by sample.c after the
 * runtime started sampling. */
volatile double spin_lib_sink;

void lib_spin(long n) {
  for (long i = 0; i < n; i++)
    spin_lib_sink += (double)i * 0.5;
}
