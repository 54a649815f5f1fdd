/* A helper the plain build inlines into both callers (its inline cost is
 * under LLVM's threshold of 225 but over the pre-inliner's 75); its
 * counters must not change that in a collect build. */
#include <stdio.h>

static int digest(const char *s, int n) {
  int r = 0;
  for (int i = 0; i < n; i++) {
    char ch = s[i];
    if (ch == 'a')
      r += 3;
    else if (ch == 'b')
      r ^= 5;
    else if (ch == 'c')
      r -= 7;
    else if (ch >= '0' && ch <= '9')
      r = r * 10 + ch - '0';
    else if (ch == ' ')
      r >>= 1;
    else
      r++;
  }
  return r;
}

__attribute__((noinline)) int first(const char *s, int n) { return digest(s, n) + 1; }
__attribute__((noinline)) int second(const char *s, int n) { return digest(s, n) * 2; }

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "abc 123 xyz";
  int n = 0;
  while (s[n])
    n++;
  printf("%d %d\n", first(s, n), second(s, n));
  return 0;
}
