/* One of two static functions named work (lines-statics.test); its
 * lines are numbered apart from b.c's. */
#line 40
__attribute__((noinline)) static int work(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    if (i % 7 == 0)
      s += i;
  return s;
}
int run_a(int n) { return work(n); }
