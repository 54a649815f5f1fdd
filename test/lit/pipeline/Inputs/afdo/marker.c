/* An empty macro on line 9 of a loop: GCC with -g marks the statement,
 * gcov counts the line, and no compiler makes code there. */
#define note(x)

int main(int argc, char **argv) {
  (void)argv;
  int s = 0;
  for (int i = 0; i < 1000 + argc; i++) {
    note(i == 0);
    s += i;
  }
  return s == 1;
}
