int hot_leaf(int x);
int cold_other(int x);

__attribute__((noinline)) int cold_other(int x) { return x * 7 + 1; }

__attribute__((noinline)) int hot_step(int i) {
  int r = hot_leaf(i);
  if (r == -12345)
    r = cold_other(r);
  return r;
}
