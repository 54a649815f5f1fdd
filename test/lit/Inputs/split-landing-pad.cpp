// work() is hot, and the only code of it that never runs in training is
// the landing pad that destroys its Guard; filler() makes work's counts
// hot by the profile summary.  A run that throws from step must run the
// destructor and reach main's catch.
#include <cstdio>
#include <cstdlib>
static int live;
struct Guard {
  Guard() { live++; }
  ~Guard() { live--; }
};
struct Oops {
  int at;
};
__attribute__((noinline)) int step(int i, int limit) {
  if (i == limit)
    throw Oops{i};
  return i & 7;
}
__attribute__((noinline)) int work(int i, int limit) {
  Guard g;
  return step(i, limit) + live;
}
__attribute__((noinline)) long filler(int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += i % 7;
  return s;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  int limit = argc > 2 ? atoi(argv[2]) : -1;
  long sum = filler(n / 100);
  try {
    for (int i = 0; i < n; i++)
      sum += work(i, limit);
  } catch (Oops &o) {
    printf("caught at %d, %d guards live\n", o.at, live);
    return live != 0;
  }
  printf("%ld\n", sum);
  return 0;
}
