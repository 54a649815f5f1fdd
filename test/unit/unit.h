/*
 * unit.h - a minimal unit-test harness: CHECK macros count failures per
 * test case; the runner prints one line per failed check and a summary
 * "N passed, N failed" over test cases.
 */
#ifndef XPROF_UNIT_H
#define XPROF_UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

extern int unit_failures; /* failed checks in the current test case */

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,       \
              #cond);                                                        \
      unit_failures++;                                                       \
    }                                                                        \
  } while (0)

#define CHECK_U64(a, b)                                                      \
  do {                                                                       \
    uint64_t a_ = (a), b_ = (b);                                             \
    if (a_ != b_) {                                                          \
      fprintf(stderr, "%s:%d: %s == %" PRIu64 ", expected %" PRIu64 "\n",    \
              __FILE__, __LINE__, #a, a_, b_);                               \
      unit_failures++;                                                       \
    }                                                                        \
  } while (0)

#define CHECK_STR(a, b)                                                      \
  do {                                                                       \
    const char *a_ = (a), *b_ = (b);                                         \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                 \
      fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__,    \
              __LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)");         \
      unit_failures++;                                                       \
    }                                                                        \
  } while (0)

/* The message contains the expected text. */
#define CHECK_HAS(msg, part)                                                 \
  do {                                                                       \
    const char *m_ = (msg), *p_ = (part);                                    \
    if (!strstr(m_, p_)) {                                                   \
      fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", __FILE__,      \
              __LINE__, m_, p_);                                             \
      unit_failures++;                                                       \
    }                                                                        \
  } while (0)

typedef struct unit_test {
  const char *name;
  void (*fn)(void);
} unit_test;

/* Each test file defines a table; the runner walks them all. */
#define UNIT_TABLE(name) const unit_test name[]
#define UNIT_END {0, 0}

/* Helpers shared by the test files (unit_main.c). */
const char *unit_tmpdir(void); /* a fresh directory for this process */
char *unit_read_file(const char *path, size_t *len); /* malloc'd */
int unit_write_file(const char *path, const void *data, size_t len);
extern const char *unit_sample_text; /* the sample profile in text form */

#endif
