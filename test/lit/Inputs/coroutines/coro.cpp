// C++20 coroutines, whose suspend points clang's CoroSplit turns into
// returns and re-entries after the counters are placed: a generator
// resumed to the end or destroyed half way, a task that awaits another
// (symmetric transfer), awaiters that resume themselves or decide not to
// suspend, an exception out of a coroutine body, and an exit from inside
// a resumed coroutine.  Prints what it computed.
#include <coroutine>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <utility>

static long live; // coroutine frames alive

struct Gen {
  // Counted by the promise, which the frame holds once, rather than by a
  // local of the body: clang 16 destroys the locals that were in scope at
  // the last suspension again when the frame of a coroutine whose
  // unhandled_exception rethrew is destroyed (llvm-project issue 61900).
  struct promise_type {
    long value = 0;
    promise_type() { live++; }
    ~promise_type() { live--; }
    Gen get_return_object() { return Gen{Handle::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(long v) {
      value = v;
      return {};
    }
    void return_void() {}
    void unhandled_exception() { throw; }
  };
  using Handle = std::coroutine_handle<promise_type>;
  Handle h;
  explicit Gen(Handle c) : h(c) {}
  Gen(Gen &&o) : h(std::exchange(o.h, {})) {}
  ~Gen() {
    if (h)
      h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
  long value() const { return h.promise().value; }
};

static Gen numbers(int n, int die_at) {
  for (int i = 0; i < n; i++) {
    if (i == die_at) {
      printf("exit live=%ld\n", live);
      exit(0);
    }
    if (i % 3 == 0)
      co_yield i * 2;
    else if (i % 5 == 0)
      co_yield -i;
    else if (i % 97 == 96)
      throw std::runtime_error("97");
  }
}

// A task that runs when awaited and hands control back to its awaiter.
struct Task {
  struct promise_type {
    long result = 0;
    std::coroutine_handle<> waiter;
    Task get_return_object() { return Task{Handle::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto w = h.promise().waiter;
        return w ? w : std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(long v) { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  using Handle = std::coroutine_handle<promise_type>;
  Handle h;
  explicit Task(Handle c) : h(c) {}
  Task(Task &&o) : h(std::exchange(o.h, {})) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> w) {
    h.promise().waiter = w;
    return h;
  }
  long await_resume() { return h.promise().result; }
  long run() {
    h.resume();
    return h.promise().result;
  }
};

// Suspends and resumes itself at once (symmetric transfer to itself).
struct SelfTransfer {
  int v;
  bool await_ready() { return v % 2 == 0; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) { return h; }
  int await_resume() { return v; }
};

// Decides in await_suspend not to suspend after all.
struct NoSuspend {
  int v;
  bool await_ready() { return false; }
  bool await_suspend(std::coroutine_handle<>) { return false; }
  int await_resume() { return v * 3; }
};

static Task leaf_task(int i) {
  long s = 0;
  for (int k = 0; k < i % 7; k++)
    s += k % 3 ? co_await SelfTransfer{k + i} : co_await NoSuspend{k};
  co_return s;
}

static Task outer_task(int i) {
  long a = co_await leaf_task(i);
  long b = co_await leaf_task(i + 1);
  co_return a * 2 + b;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  int die_at = argc > 2 && strcmp(argv[2], "exit") == 0 ? n / 2 : -1;
  long t = 0, thrown = 0;
  for (int r = 0; r < 20; r++) {
    Gen g = numbers(n + r, r == 19 ? die_at : -1);
    int k = 0;
    try {
      while (g.next() && k++ < n / 2 + r)
        t += g.value();
    } catch (const std::exception &) {
      thrown++;
    }
  }
  for (int i = 0; i < n; i++)
    t += outer_task(i).run();
  printf("%ld %ld live=%ld\n", t, thrown, live);
  return 0;
}
