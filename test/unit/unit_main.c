/* unit_main.c - runs every table of unit tests and prints the summary. */
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"

int unit_failures;

extern const unit_test text_tests[], binary_tests[], merge_tests[],
    model_tests[], flow_tests[], lookup_tests[], util_tests[], cfgdump_tests[], compile_tests[],
    salvage_tests[], samples_tests[], exports_tests[], plan_tests[], shapes_file_tests[],
    order_tests[], lineprof_tests[], exttsp_tests[];

static const unit_test *const tables[] = {model_tests, text_tests,
                                          binary_tests, merge_tests,
                                          flow_tests, lookup_tests,
                                          util_tests, cfgdump_tests,
                                          compile_tests, salvage_tests, samples_tests,
                                          exports_tests, plan_tests, shapes_file_tests,
                                          order_tests, lineprof_tests, exttsp_tests};

const char *unit_sample_text;

const char *unit_tmpdir(void) {
  static char dir[64];
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "/tmp/xprof-unit-XXXXXX");
    if (!mkdtemp(dir)) {
      perror("mkdtemp");
      exit(2);
    }
  }
  return dir;
}

char *unit_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  if (b)
    b[n] = 0;
  fclose(f);
  if (len)
    *len = (size_t)n;
  return b;
}

int unit_write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  int ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok ? 0 : -1;
}

int main(int argc, char **argv) {
  const char *sample = argc > 1 ? argv[1] : "test/lit/Inputs/sample.text";
  unit_sample_text = unit_read_file(sample, NULL);
  if (!unit_sample_text) {
    fprintf(stderr, "cannot read the sample profile %s\n", sample);
    return 2;
  }
  const char *only = argc > 2 ? argv[2] : NULL;
  int passed = 0, failed = 0;
  for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
    for (const unit_test *u = tables[t]; u->name; u++) {
      if (only && !strstr(u->name, only))
        continue;
      unit_failures = 0;
      u->fn();
      if (unit_failures) {
        printf("FAIL: %s\n", u->name);
        failed++;
      } else {
        printf("PASS: %s\n", u->name);
        passed++;
      }
    }
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", unit_tmpdir());
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", unit_tmpdir());
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
