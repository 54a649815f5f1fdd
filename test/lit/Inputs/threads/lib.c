/* Instrumented shared library, loaded with dlopen. */
long lib_work(long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += i & 1 ? i : -i;
  return s;
}
