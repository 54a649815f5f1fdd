// Threads started by the C++ library (std::thread, inside libstdc++.so):
// the runtime must know them to read their thread-local counters.
#include <cstdio>
#include <thread>
#include <vector>

__attribute__((noinline)) static long work(long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += i % 3 == 0 ? i : 1;
  return s;
}

int main() {
  std::vector<std::thread> pool;
  long r[4];
  for (int i = 0; i < 4; i++)
    pool.emplace_back([&r, i] { r[i] = work(1000 * (i + 1)); });
  for (auto &t : pool)
    t.join();
  std::printf("%ld\n", r[0] + r[1] + r[2] + r[3]);
}
