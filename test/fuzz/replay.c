/*
 * replay.c - runs a fuzz target (LLVMFuzzerTestOneInput) over the files of
 * its corpus, without libFuzzer: what ctest does with every target, built
 * by the project's own compiler.  A target that traps fails the run;
 * prints "N passed, M failed" over the inputs.
 *
 *   fuzz_replay_TARGET DIR|FILE...
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int replay(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return -1;
  }
  unsigned char *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 4096)))
      abort();
    size_t n = fread(buf + len, 1, cap - len, f);
    if (n == 0)
      break;
    len += n;
  }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, len); /* a failed check traps */
  free(buf);
  return 0;
}

int main(int argc, char **argv) {
  unsigned passed = 0, failed = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      DIR *d = opendir(argv[i]);
      for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
          continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
        replay(path) == 0 ? passed++ : failed++;
      }
      if (d)
        closedir(d);
    } else {
      replay(argv[i]) == 0 ? passed++ : failed++;
    }
  }
  printf("%u passed, %u failed\n", passed, failed);
  return failed || !passed;
}
