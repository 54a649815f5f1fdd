int f(int x) { return x > 2 ? x * 2 : x; }
