/* Instrumented: counted from many threads. */
long work(long n) {
  long s = 0;
  for (long i = 0; i < n; i++) {
    if (i % 3)
      s += i;
    else
      s -= 1;
  }
  return s;
}
