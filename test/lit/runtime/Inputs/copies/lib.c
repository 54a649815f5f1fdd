/* lib.c - an instrumented library, built twice (-DNAME=...). */
int NAME(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i & 1 ? i : -i;
  return s;
}
