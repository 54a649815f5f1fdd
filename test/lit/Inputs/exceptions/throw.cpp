// Exceptions that leave frames in every way the counts must survive:
// through landing pads that do not catch them (a catch clause for another
// type, no cleanup), rethrown from a handler, out of a frame with
// destructors to run, and an exit from inside a try block, by a callee
// that may throw or by a noreturn function.  Several calls share one
// cleanup pad.  Prints what it computed; the last step of each run exits
// from two frames deep.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct Guard {
  int *depth;
  explicit Guard(int *d) : depth(d) { ++*depth; }
  ~Guard() { --*depth; }
};

static int depth;
static long total;

__attribute__((noinline)) static void leaf(int i) {
  if (i % 7 == 3)
    throw std::runtime_error("seven");
  if (i % 11 == 5)
    throw i;
  total += i;
}

// Nothing to clean up: exceptions pass through with no landing pad.
__attribute__((noinline)) static void relay(int i) {
  leaf(i);
  total += 2;
}

__attribute__((noinline)) static void middle(int i) {
  Guard g(&depth);
  std::string s(40 + i % 5, 'x');
  for (int k = 0; k < i % 4; k++) {
    relay(i + k);
    total += (long)s.size();
  }
}

// Catches runtime_error only: an int passes the landing pad by.
__attribute__((noinline)) static void rethrower(int i) {
  try {
    middle(i);
  } catch (const std::runtime_error &) {
    if (i % 3 == 0)
      throw;
    total -= 1;
  }
}

__attribute__((noinline)) static int nested(int i) {
  int r = 0;
  for (int j = 0; j < 3; j++) {
    try {
      try {
        rethrower(i + j);
        r++;
      } catch (int v) {
        r += v % 3;
        if (v % 2)
          throw std::logic_error("odd");
      }
    } catch (const std::logic_error &) {
      r += 10;
    } catch (...) {
      r += 100;
    }
  }
  return r;
}

__attribute__((noinline)) static void with_unique(int i) {
  auto p = std::make_unique<std::vector<int>>(i % 9);
  if (p->size() == 4)
    throw std::out_of_range("four");
  total += (long)p->size();
}

[[noreturn]] __attribute__((noinline)) static void fatal(long r) {
  printf("fatal %ld %ld %d\n", r, total, depth);
  exit(0);
}

__attribute__((noinline)) static void maybe_exit(int i, int n, long r) {
  if (i == n - 1) {
    printf("exit %ld %ld %d\n", r, total, depth);
    exit(0);
  }
  if (i % 13 == 0)
    throw i;
}

// Two calls that may exit or throw, one cleanup pad for both.
__attribute__((noinline)) static long step(int i, int n, long r, bool die) {
  Guard g(&depth);
  std::string s(30 + i % 3, 'y');
  if (die && i == n - 1)
    fatal(r);
  maybe_exit(i, n, r);
  maybe_exit(i + 1, n + 1, r);
  return (long)s.size();
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  bool die = argc > 2 && strcmp(argv[2], "fatal") == 0;
  long r = 0;
  for (int i = 0; i < n; i++) {
    r += nested(i);
    try {
      with_unique(i);
    } catch (std::exception &) {
      r += 2;
    }
  }
  for (int i = 0; i < n; i++) {
    try {
      r += step(i, n, r, die);
    } catch (int) {
      r++;
    }
  }
  printf("not reached %ld\n", r);
  return 1;
}
