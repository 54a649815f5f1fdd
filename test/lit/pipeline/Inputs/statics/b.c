/* The other static function named work (lines-statics.test), of
 * another shape; its lines are numbered apart from a.c's. */
#line 60
__attribute__((noinline)) static int work(const char *p) {
  int s = 0;
  while (*p) {
    if (*p == 'x')
      s++;
    else
      s--;
    p++;
  }
  return s;
}
int run_b(const char *p) { return work(p); }
