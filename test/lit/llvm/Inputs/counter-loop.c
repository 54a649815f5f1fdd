int count_big(const int *a, int n, int lim) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] > lim)
      k += a[i];
    else if (a[i] < -lim)
      k -= 2;
  }
  return k;
}
