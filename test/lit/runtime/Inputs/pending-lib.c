/* pending-lib.c - the library of pending-dlclose.test. */
int lib_fn(int x) {
  int s = 0;
  for (int k = 0; k < x; k++)
    s += k & 1 ? k : 2 * k;
  return s;
}
