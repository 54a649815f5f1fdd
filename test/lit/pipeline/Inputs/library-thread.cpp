// A thread that a shared library starts: std::thread calls pthread_create
// from libstdc++, which reaches the runtime's only if the program exports
// it.  work runs 1000 iterations in the thread and 10 in main.
#include <cstdio>
#include <thread>

static volatile long sink;

__attribute__((noinline)) void work(int n) {
  for (int i = 0; i < n; i++)
    sink += i;
}

int main() {
  std::thread t([] { work(1000); });
  t.join();
  work(10);
  std::printf("%ld\n", (long)sink);
  return 0;
}
