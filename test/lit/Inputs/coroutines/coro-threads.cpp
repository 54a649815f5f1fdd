// Coroutines made in one thread and resumed in others: a thread starts
// every task, each up to its first suspension, and ends; two threads then
// resume the tasks at once, each task in one of them.
#include <coroutine>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

struct task {
  struct promise_type {
    long value = 0;
    task get_return_object() { return task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(long v) { value = v; }
    void unhandled_exception() { std::abort(); }
  };
  std::coroutine_handle<promise_type> h;
};

static task work(int n) {
  long s = 0;
  for (int i = 0; i < n; i++) {
    if (i % 7 == 0)
      co_await std::suspend_always{};
    s += i % 3 ? i : -i;
  }
  co_return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 64;
  std::vector<task> tasks(n);
  std::thread maker([&] {
    for (int i = 0; i < n; i++)
      tasks[i] = work(20000 + i);
  });
  maker.join();
  long totals[2] = {0, 0};
  auto resume_half = [&](int half) {
    for (bool left = true; left;) {
      left = false;
      for (int i = half; i < n; i += 2)
        if (!tasks[i].h.done()) {
          tasks[i].h.resume();
          left = true;
        }
    }
    for (int i = half; i < n; i += 2) {
      totals[half] += tasks[i].h.promise().value;
      tasks[i].h.destroy();
    }
  };
  std::thread a(resume_half, 0), b(resume_half, 1);
  a.join();
  b.join();
  std::printf("%ld\n", totals[0] + totals[1]);
  return 0;
}
