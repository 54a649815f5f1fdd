int f(int x) { return x > 3 ? x * 2 : x + 1; }
