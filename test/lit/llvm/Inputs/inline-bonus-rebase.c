/* pick has counters in each of its five cases; pick_first calls it with
 * a constant, and once pick is inlined there only one case is left. */
int pick(int mode, int x) {
  switch (mode) {
  case 0: return x * 3 + 1;
  case 1: return x ^ 0x55;
  case 2: return x / 7;
  case 3: return x % 11;
  default: return x - 9;
  }
}

int pick_first(int x) { return pick(0, x); }
