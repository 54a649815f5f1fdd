#include <stdio.h>
#include <string.h>
extern char **environ;
/* The program's own getenv, as a shell's is (bash answers it from its
 * shell variables): instrumented code like the rest. */
char *getenv(const char *name) {
  size_t n = strlen(name);
  for (char **e = environ; *e; e++)
    if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
      return *e + n + 1;
  return NULL;
}
int main(void) {
  const char *home = getenv("HOME");
  printf("%s\n", home ? "home" : "none");
  return 0;
}
