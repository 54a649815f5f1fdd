/* A plugin: opened, used and closed again by the program, several times. */
static int calls;

__attribute__((noinline)) static int helper(int x) { return x % 2 ? x * 3 + 1 : x / 2; }

int plugin_run(int x) {
  calls++;
  int steps = 0;
  while (x > 1 && steps < 1000) {
    x = helper(x);
    steps++;
  }
  return steps;
}

int plugin_calls(void) { return calls; }
