/* A library that dlcycle/host.c loads and unloads again and again. */
int lib_fn(int x) {
  int s = 0;
  for (int i = 0; i < x % 7; i++)
    s += i % 3 ? i : -i;
  return s;
}
