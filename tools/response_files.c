/*
 * response_files.c - reading and writing `@FILE` arguments.
 *
 * The syntax is GCC's (libiberty's buildargv), which clang follows on
 * Linux: arguments are separated by white space; single or double quotes
 * group characters, white space included; a backslash takes the next
 * character as it is, inside quotes too.  Nested `@FILE`s are read
 * relative to the current directory, as GCC reads them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "response_files.h"
#include "xprof_plan.h"

/* GCC gives up after 2000 expansions, which only a file that includes
 * itself reaches. */
enum { MAX_EXPANSIONS = 2000 };

/* White space between arguments, as buildargv's ISSPACE. */
static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

struct vec {
  char **v;
  int n, cap;
};

static int vec_push(struct vec *a, char *s) {
  if (a->n + 2 > a->cap) {
    int cap = a->cap ? 2 * a->cap : 64;
    char **v = realloc(a->v, (size_t)cap * sizeof *v);
    if (!v)
      return -1;
    a->v = v;
    a->cap = cap;
  }
  a->v[a->n++] = s;
  a->v[a->n] = NULL;
  return 0;
}

/* Split `text` into arguments appended to `out`, each malloc'd; returns 0
 * or -1 when memory runs out. */
static int split(const char *text, struct vec *out) {
  const char *p = text;
  for (;;) {
    while (is_space(*p))
      p++;
    if (!*p)
      return 0;
    char *arg = malloc(strlen(p) + 1), *w = arg;
    if (!arg)
      return -1;
    char quote = 0;
    for (; *p; p++) {
      if (*p == '\\' && p[1]) {
        *w++ = *++p;
      } else if (quote) {
        if (*p == quote)
          quote = 0;
        else
          *w++ = *p;
      } else if (*p == '\'' || *p == '"') {
        quote = *p;
      } else if (is_space(*p)) {
        break;
      } else {
        *w++ = *p;
      }
    }
    *w = 0;
    if (vec_push(out, arg) < 0) {
      free(arg);
      return -1;
    }
  }
}

int expand_response_files(int *argc, char ***argv) {
  struct vec cur = {NULL, 0, 0};
  for (int i = 0; i < *argc; i++)
    if (vec_push(&cur, (*argv)[i]) < 0)
      return -1;
  int expansions = 0;
  for (int i = 1; i < cur.n;) {
    const char *a = cur.v[i];
    unsigned char *bytes = NULL;
    size_t len;
    xprof_error err;
    if (a[0] == '@' && a[1] && xprof_slurp(a + 1, &bytes, &len, &err) < 0)
      bytes = NULL; /* unreadable: an argument, as the compilers keep it */
    char *text = (char *)bytes;
    if (!text) {
      i++;
      continue;
    }
    if (++expansions > MAX_EXPANSIONS) {
      xprof_free(text);
      free(cur.v);
      errno = ELOOP;
      return -1;
    }
    /* cur[0..i) + the file's arguments + cur(i..n) */
    struct vec next = {NULL, 0, 0};
    int ok = 1;
    for (int k = 0; ok && k < i; k++)
      ok = vec_push(&next, cur.v[k]) == 0;
    ok = ok && split(text, &next) == 0;
    for (int k = i + 1; ok && k < cur.n; k++)
      ok = vec_push(&next, cur.v[k]) == 0;
    xprof_free(text);
    free(cur.v);
    if (!ok) {
      free(next.v);
      errno = ENOMEM;
      return -1;
    }
    cur = next; /* the file's first argument is looked at next */
  }
  *argc = cur.n;
  *argv = cur.v;
  return 0;
}

/* `s` with every character that the syntax gives a meaning escaped. */
static int write_quoted(FILE *f, const char *s) {
  if (!*s)
    return fputs("''", f) < 0 ? -1 : 0;
  for (; *s; s++) {
    if (strchr(" \t\n\r\f\v'\"\\", *s) && fputc('\\', f) == EOF)
      return -1;
    if (fputc(*s, f) == EOF)
      return -1;
  }
  return 0;
}

char *write_response_file(char *const *argv, int first) {
  const char *dir = getenv("TMPDIR");
  char *path;
  if (asprintf(&path, "%s/xprof-args-XXXXXX", dir && *dir ? dir : "/tmp") < 0)
    return NULL;
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  int ok = f != NULL;
  for (int i = first; ok && argv[i]; i++)
    ok = write_quoted(f, argv[i]) == 0 && fputc('\n', f) != EOF;
  if (f && fclose(f) != 0)
    ok = 0;
  else if (!f && fd >= 0)
    close(fd);
  if (!ok) {
    int e = errno;
    if (fd >= 0)
      unlink(path);
    free(path);
    errno = e;
    return NULL;
  }
  return path;
}
