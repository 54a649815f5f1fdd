/* -xprofile_order's program: a hot chain across three objects (main,
 * hot_step in hot.c, hot_leaf in cold.c), functions that ran a little
 * (warm), and functions that never ran (cold_path, cold_other) between
 * them in every object's own order. */
int hot_step(int i);
int cold_path(int x);
int warm(int i);
int main(int argc, char **argv) {
  (void)argv;
  int s = 0;
  for (int i = 0; i < 200000; i++)
    s += hot_step(i);
  if (argc > 5)
    s += cold_path(s);
  for (int i = 0; i < 3; i++)
    s += warm(i);
  return s == 42;
}
