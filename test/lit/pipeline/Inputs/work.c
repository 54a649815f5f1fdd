/* The input decides which way the branch goes. */
int work(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i < 300)
      s += i / 3;
    else
      s ^= i;
  }
  return s;
}
