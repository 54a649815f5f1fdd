/* count-lookups.c - LD_PRELOAD'ed by exit-cost.test: counts the program's
 * opens of /proc/self/maps and readlinks of /proc/self/exe (the runtime's
 * ways of naming modules and the program) and prints the counts when the
 * process is done, after the runtime's exit-time write and the objects'
 * destructors. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int maps, exe;

typedef int (*open_fn)(const char *, int, ...);

static int counted_open(const char *name, const char *path, int flags, va_list ap) {
  mode_t mode = (flags & O_CREAT) ? (mode_t)va_arg(ap, int) : 0;
  if (strcmp(path, "/proc/self/maps") == 0)
    maps++;
  open_fn real = (open_fn)dlsym(RTLD_NEXT, name);
  return real(path, flags, mode);
}

int open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int fd = counted_open("open", path, flags, ap);
  va_end(ap);
  return fd;
}

int open64(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int fd = counted_open("open64", path, flags, ap);
  va_end(ap);
  return fd;
}

ssize_t readlink(const char *path, char *buf, size_t size) {
  if (strcmp(path, "/proc/self/exe") == 0)
    exe++;
  ssize_t (*real)(const char *, char *, size_t) =
      (ssize_t(*)(const char *, char *, size_t))dlsym(RTLD_NEXT, "readlink");
  return real(path, buf, size);
}

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "lookups: /proc/self/maps %d, /proc/self/exe %d\n", maps, exe);
}
