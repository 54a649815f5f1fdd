__attribute__((noinline)) int cold_path(int x) { return x / 3 + 11; }

__attribute__((noinline)) int warm(int i) { return i * i; }

__attribute__((noinline)) int hot_leaf(int x) { return (x ^ (x >> 3)) & 15; }
