/* The same work in every training (the hottest count of the profile is
 * here), whatever the input: main.o's data stays the same when work.o's
 * changes. */
#include <stdlib.h>
int work(int n);
int main(int argc, char **argv) {
  volatile unsigned s = 0;
  for (int i = 0; i < 1000000; i++)
    s += (unsigned)i * 3u;
  int n = argc > 1 ? atoi(argv[1]) : 10;
  return work(n) == -1 && s == 1;
}
