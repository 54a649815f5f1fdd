/* tool_common.c - messages and standard options of the xprof tools, and
 * what the tools that read CFG dumps share. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool_common.h"

const char *tool_name = "xprof";

/* Set once a write error on the standard output has been said (by the
 * tool, or by tool_close_output): close_stdout then says nothing more. */
static int stdout_error_said;

/* At exit: what is still buffered for the standard output written out,
 * and a write that failed on the way (a full disk, `> /dev/full`) said
 * with exit status 1, so that a report or a text profile cut short never
 * passes for a whole one.  A standard output that was closed before the
 * program began (EBADF) with nothing written to it is no failure. */
static void close_stdout(void) {
  int pending = __fpending(stdout) != 0;
  int failed_before = ferror(stdout) != 0;
  errno = 0;
  int close_failed = fclose(stdout) != 0;
  int e = errno;
  if (!failed_before && !(close_failed && (pending || e != EBADF)))
    return;
  if (!stdout_error_said)
    tool_error("write error on the standard output%s%s", e && e != EBADF ? ": " : "",
               e && e != EBADF ? strerror(e) : "");
  _exit(1);
}

void tool_init(const char *name) {
  tool_name = name;
  atexit(close_stdout);
}

int tool_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", tool_name);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return 1;
}

int tool_fail(const xprof_error *err) { return tool_error("%s", err->msg); }

static int is_stdout(const char *path) { return !path || strcmp(path, "-") == 0; }

FILE *tool_open_output(const char *path, const char *mode) {
  if (is_stdout(path))
    return stdout;
  FILE *f = fopen(path, mode);
  if (!f)
    tool_error("cannot write %s: %s", path, strerror(errno));
  return f;
}

int tool_close_output(FILE *f, const char *path, int failed) {
  if (is_stdout(path)) {
    if (failed)
      stdout_error_said = 1; /* the caller said what went wrong */
    else if (fflush(f) != 0 || ferror(f))
      stdout_error_said = tool_error("write error on the standard output: %s", strerror(errno));
    return failed || stdout_error_said;
  }
  int earlier = ferror(f) && !failed; /* a write that failed before, not said */
  errno = 0;
  int rc = fclose(f) != 0 || earlier
               ? tool_error("write error on %s: %s", path, errno ? strerror(errno) : "output lost")
               : 0;
  /* Only a regular file is removed: a device or a FIFO named as the
   * output (-o /dev/full, a pipe) is not the tool's to delete. */
  struct stat st;
  if ((rc || failed) && lstat(path, &st) == 0 && S_ISREG(st.st_mode))
    remove(path);
  return rc || failed;
}

int tool_standard_options(int argc, char **argv, const char *usage) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0)
      break;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(usage, stdout);
      return 1;
    }
    if (strcmp(argv[i], "--version") == 0) {
      printf("%s (xprof) %s\n", tool_name, XPROF_VERSION);
      return 1;
    }
  }
  return 0;
}

/* The object file's path as the compiler recorded it (resolved), also
 * when the object itself was a temporary of a compile-and-link command:
 * then only its directory exists. */
static const char *resolve(const char *path, char *buf) {
  char dir[PATH_MAX];
  if (realpath(path, buf))
    return buf;
  const char *slash = strrchr(path, '/');
  const char *d = slash ? path : ".";
  size_t n = slash ? (size_t)(slash - path) : 1;
  if (slash == path)
    n = 1;
  char *dpath = strndup(d, n);
  const char *res = path;
  if (dpath && realpath(dpath, dir)) {
    snprintf(buf, 8192, "%s/%s", strcmp(dir, "/") ? dir : "", slash ? slash + 1 : path);
    res = buf;
  }
  free(dpath);
  return res;
}

const xprof_objfile *tool_dump_object(const xprof_profile *p, const char *dump, char *path) {
  size_t len = strlen(dump);
  char *objpath = strndup(dump, len > 6 ? len - 6 : len);
  snprintf(path, 8192, "%s", dump);
  if (!objpath)
    return NULL;
  /* The name as given first: a profile whose object paths went through
   * -ffile-prefix-map knows them as written ("./x.o"). */
  const xprof_objfile *o = xprof_find_objfile(p, objpath);
  if (o)
    snprintf(path, 8192, "%s", objpath);
  else {
    const char *r = resolve(objpath, path);
    if (r != path)
      snprintf(path, 8192, "%s", r);
    o = xprof_find_objfile(p, path);
  }
  free(objpath);
  return o;
}


