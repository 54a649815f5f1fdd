/* A second object file, with its own static helper. */
static int helper(int x) { return x - 1; }
int other_entry(int x) {
  int s = 0;
  for (int i = 0; i < x % 5; i++)
    s += helper(i);
  return s;
}
