/*
 * fuzz_lists.c - libFuzzer target for what a user's command line names
 * as lists of what to profile: clang's -fprofile-list files
 * (profile_list.c) and GCC's -fprofile-filter-files expressions
 * (naming.c).  The input is read as a list and as a ';'-separated list
 * of expressions; either is refused with a message or answers every
 * question with 0 or 1.
 */
#include <stdlib.h>
#include <string.h>

#include "xprof_plan.h"

/* Names to ask about: pieces of the input, and some the input does not
 * shape. */
static void ask(const xprof_skip_list *skip, const char *text) {
  static const char *const fixed[] = {"main", "src/main.c", "", "_ZN1A1fEv", NULL};
  char *copy = strdup(text);
  if (!copy)
    return;
  const char *names[8];
  unsigned n = 0;
  for (char *t = strtok(copy, "\n:;="); t && n < 4; t = strtok(NULL, "\n:;="))
    names[n++] = t;
  for (unsigned k = 0; fixed[k]; k++)
    names[n++] = fixed[k];
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < n; j++) {
      int r = xprof_skip_function(skip, names[i], NULL, names[j]);
      if (r != 0 && r != 1)
        abort();
    }
  if (xprof_skip_function(skip, "main", NULL, NULL) > 1)
    abort();
  free(copy);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size > 4096)
    return 0;
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = 0;
  xprof_error err;

  xprof_profile_list *l = xprof_profile_list_new();
  if (l && xprof_profile_list_parse(l, text, size, "fuzz.list", &err) == 0) {
    xprof_skip_list skip = {NULL, 0, NULL, 0, NULL, l};
    ask(&skip, text);
  } else if (l && (!err.msg[0] || strncmp(err.msg, "fuzz.list:", 10) != 0)) {
    abort(); /* a refusal names the list and the line */
  }
  xprof_profile_list_free(l);

  /* The same text as GCC's filter, then as its exclusion. */
  for (int exclude = 0; exclude < 2 && !memchr(data, 0, size); exclude++) {
    xprof_profile_list *f = xprof_profile_list_new();
    if (f && xprof_profile_list_add_regexes(f, text, exclude, &err) == 0) {
      xprof_skip_list skip = {NULL, 0, NULL, 0, f, NULL};
      ask(&skip, text);
    }
    xprof_profile_list_free(f);
  }
  free(text);
  return 0;
}
