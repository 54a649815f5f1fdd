/*
 * fileio.c - whole-file reads, atomic replacement (temporary file, fsync,
 * rename) and directory creation.  A failed or interrupted write never
 * leaves a truncated data file behind; what is not a regular file (a
 * device, a pipe) is written where it is, never replaced.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

int xprof_fd_above_stdio(int fd) {
  if (fd < 0 || fd > 2)
    return fd;
  int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  int e = errno;
  close(fd);
  errno = e;
  return high;
}

int xprof_open(const char *path, int flags, unsigned mode) {
  return xprof_fd_above_stdio(open(path, flags | O_CLOEXEC, (mode_t)mode));
}

int xprof_map(const char *path, const unsigned char **buf, size_t *len, xprof_error *err) {
  *buf = NULL;
  *len = 0;
  int fd = xprof_open(path, O_RDONLY, 0);
  if (fd < 0)
    return xprof_fail(err, XPROF_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  struct stat st;
  const char *why = fstat(fd, &st) < 0     ? strerror(errno)
                    : S_ISDIR(st.st_mode)  ? "is a directory"
                    : !S_ISREG(st.st_mode) ? "not a regular file"
                                           : NULL;
  if (why) {
    close(fd);
    return xprof_fail(err, XPROF_ERR_IO, "%s: %s", path, why);
  }
  void *m = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
  int e = errno;
  close(fd);
  if (m == MAP_FAILED)
    return xprof_fail(err, XPROF_ERR_IO, "%s: cannot read: %s", path, strerror(e));
  *buf = m;
  *len = (size_t)st.st_size;
  return 0;
}

void xprof_unmap(const unsigned char *buf, size_t len) {
  if (buf && len)
    munmap((void *)buf, len);
}

/* The file's size when it is a regular file, or (`streams`) 0 for a pipe
 * or a socket, read to its end; -1 with err set for anything else (a
 * device may never end: /dev/zero). */
static int input_size(int fd, const char *path, int streams, size_t *size, xprof_error *err) {
  struct stat st;
  if (fstat(fd, &st) < 0)
    return xprof_fail(err, XPROF_ERR_IO, "%s: %s", path, strerror(errno));
  *size = S_ISREG(st.st_mode) ? (size_t)st.st_size : 0;
  if (S_ISREG(st.st_mode) || (streams && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))))
    return 0;
  return xprof_fail(err, XPROF_ERR_IO, "%s: %s", path,
                    S_ISDIR(st.st_mode) ? "is a directory"
                    : streams           ? "not a regular file nor a pipe"
                                        : "not a regular file");
}

/* Make the buffer *buf (of *cap bytes) hold at least want + 1. */
static int reserve(unsigned char **buf, size_t *cap, size_t want) {
  if (want < *cap)
    return 0;
  unsigned char *nb = xprof_realloc(*buf, want + 1);
  if (!nb)
    return -1;
  *buf = nb;
  *cap = want + 1;
  return 0;
}

/* Read all of the open descriptor fd (of `path`; a pipe with `streams`)
 * into *buf as xprof_slurp_into does; fd is closed. */
static int slurp_fd(int fd, const char *path, int streams, unsigned char **buf, size_t *cap,
                    size_t *len, xprof_error *err) {
  size_t size = 0, n = 0;
  if (input_size(fd, path, streams, &size, err) < 0) {
    close(fd);
    return -1;
  }
  /* Room for one byte more than the file has: a read that fills it says
   * the file grew. */
  if (reserve(buf, cap, size ? size + 1 : 65536) < 0) {
    close(fd);
    return xprof_fail_nomem(err, path);
  }
  for (;;) {
    if (n + 1 >= *cap && reserve(buf, cap, 2 * *cap) < 0) { /* the file grew */
      close(fd);
      return xprof_fail_nomem(err, path);
    }
    ssize_t r = read(fd, *buf + n, *cap - 1 - n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      int e = errno;
      close(fd);
      return xprof_fail(err, XPROF_ERR_IO, "%s: read error: %s", path, strerror(e));
    }
    if (r == 0)
      break;
    n += (size_t)r;
  }
  close(fd);
  (*buf)[n] = 0;
  *len = n;
  return 0;
}

int xprof_slurp_into(const char *path, unsigned char **buf, size_t *cap, size_t *len,
                     xprof_error *err) {
  *len = 0;
  int fd = xprof_open(path, O_RDONLY, 0);
  if (fd < 0)
    return xprof_fail(err, XPROF_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  return slurp_fd(fd, path, 0, buf, cap, len, err);
}

int xprof_slurp(const char *path, unsigned char **buf, size_t *len, xprof_error *err) {
  size_t cap = 0;
  *buf = NULL;
  if (xprof_slurp_into(path, buf, &cap, len, err) < 0) {
    xprof_free(*buf);
    *buf = NULL;
    return -1;
  }
  return 0;
}

int xprof_slurp_input(const char *path, unsigned char **buf, size_t *len, xprof_error *err) {
  size_t cap = 0;
  *buf = NULL;
  *len = 0;
  int in = strcmp(path, "-") == 0;
  int fd = in ? fcntl(0, F_DUPFD_CLOEXEC, 3) : xprof_open(path, O_RDONLY, 0);
  if (fd < 0)
    return xprof_fail(err, XPROF_ERR_IO, "%s: cannot open: %s", in ? "<stdin>" : path,
                      strerror(errno));
  if (slurp_fd(fd, in ? "<stdin>" : path, 1, buf, &cap, len, err) < 0) {
    xprof_free(*buf);
    *buf = NULL;
    return -1;
  }
  return 0;
}

int xprof_write_all(int fd, const void *buf, size_t len, const char *name,
                    xprof_error *err) {
  const char *p = buf;
  while (len) {
    ssize_t w = write(fd, p, len > (1u << 30) ? (1u << 30) : len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return xprof_fail(err, XPROF_ERR_IO, "%s: write error: %s%s", name,
                        w < 0 ? strerror(errno) : "no progress",
                        w < 0 && errno == EFBIG ? " (over the file size limit, ulimit -f)" : "");
    p += w;
    len -= (size_t)w;
  }
  return 0;
}

/* A new temporary file beside `path` (PATH.tmp.PID.N), written to and
 * closed by replace_file.  Created with O_EXCL and mode 0666 so that the
 * kernel applies the umask: reading the umask would mean setting it, and
 * another thread creating a file meanwhile would get the wrong mode.
 * Returns the descriptor and the name in *tmp_out (xprof_malloc'd). */
static int create_temporary(const char *path, char **tmp_out, xprof_error *err) {
  static unsigned serial;
  size_t size = strlen(path) + 48;
  char *tmp = xprof_malloc(size);
  if (!tmp)
    return xprof_fail_nomem(err, path);
  for (;;) {
    unsigned n = __atomic_fetch_add(&serial, 1, __ATOMIC_RELAXED);
    snprintf(tmp, size, "%s.tmp.%ld.%u", path, (long)getpid(), n);
    int fd = xprof_open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd >= 0) {
      *tmp_out = tmp;
      return fd;
    }
    if (errno != EEXIST) { /* EEXIST: left by a process with our pid */
      int e = errno;
      xprof_fail(err, XPROF_ERR_IO, "%s: cannot create a temporary file: %s",
                 path, strerror(e));
      xprof_free(tmp);
      return -1;
    }
  }
}

/* Write `path` where it is, without a temporary file: a device, a FIFO
 * or a socket (`-o /dev/stdout`, a pipe to another tool), which a rename
 * would replace with a regular file -- /dev/null itself, for root -- and
 * the target of a symbolic link that points nowhere yet (created).  0,
 * or -1 with err set. */
static int write_in_place(const char *path, xprof_write_fn fn, void *ctx, xprof_error *err) {
  int fd = xprof_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0)
    return xprof_fail(err, XPROF_ERR_IO, "%s: cannot open for writing: %s", path,
                      strerror(errno));
  int rc = fn(ctx, fd, path, err);
  if (close(fd) < 0 && rc == 0)
    rc = xprof_fail(err, XPROF_ERR_IO, "%s: write error at close: %s", path, strerror(errno));
  return rc;
}

/* A regular file at path (or none) replaced: fn writes a temporary file
 * beside it, which is synced (`sync`) and renamed over path, or removed
 * on failure.  0, or -1 with err set. */
static int replace_regular(const char *path, xprof_write_fn fn, void *ctx, int sync,
                           xprof_error *err) {
  char *tmp = NULL;
  int fd = create_temporary(path, &tmp, err);
  if (fd < 0)
    return -1;
  int rc = fn(ctx, fd, path, err);
  if (rc == 0 && sync && fsync(fd) < 0 && errno != EINVAL && errno != EROFS)
    rc = xprof_fail(err, XPROF_ERR_IO, "%s: cannot sync: %s", path,
                    strerror(errno));
  if (close(fd) < 0 && rc == 0)
    rc = xprof_fail(err, XPROF_ERR_IO, "%s: write error at close: %s", path,
                    strerror(errno));
  if (rc == 0 && rename(tmp, path) < 0)
    rc = xprof_fail(err, XPROF_ERR_IO, "%s: cannot rename %s into place: %s",
                    path, tmp, strerror(errno));
  if (rc != 0)
    unlink(tmp);
  xprof_free(tmp);
  return rc;
}

/* Replace `path` as it is: a regular file (or none) by a temporary file
 * renamed over it; through a symbolic link, the file it names (the link
 * stays a link); anything else where it is (write_in_place).  0, or -1
 * with err set. */
static int replace_file(const char *path, xprof_write_fn fn, void *ctx, int sync,
                        xprof_error *err) {
  struct stat st;
  if (lstat(path, &st) < 0 || S_ISREG(st.st_mode))
    return replace_regular(path, fn, ctx, sync, err);
  if (S_ISDIR(st.st_mode))
    return xprof_fail(err, XPROF_ERR_IO, "%s: is a directory", path);
  if (!S_ISLNK(st.st_mode))
    return write_in_place(path, fn, ctx, err);
  char *target = xprof_malloc(PATH_MAX);
  if (!target)
    return xprof_fail_nomem(err, path);
  int rc = realpath(path, target) ? replace_file(target, fn, ctx, sync, err)
                                  : write_in_place(path, fn, ctx, err);
  xprof_free(target);
  return rc;
}

int xprof_atomic_write(const char *path, xprof_write_fn fn, void *ctx,
                       xprof_error *err) {
  return replace_file(path, fn, ctx, 1, err);
}

int xprof_replace_file(const char *path, xprof_write_fn fn, void *ctx, xprof_error *err) {
  return replace_file(path, fn, ctx, 0, err);
}

int xprof_mkdirs(const char *path, xprof_error *err) {
  size_t n = strlen(path);
  char *buf = xprof_malloc(n + 1);
  if (!buf)
    return xprof_fail_nomem(err, path);
  memcpy(buf, path, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (buf[i] != '/' && buf[i] != '\0')
      continue;
    char c = buf[i];
    buf[i] = '\0';
    if (mkdir(buf, 0777) < 0 && errno != EEXIST) {
      int e = errno;
      xprof_fail(err, XPROF_ERR_IO, "%s: cannot create directory %s: %s",
                 path, buf, strerror(e));
      xprof_free(buf);
      return -1;
    }
    buf[i] = c;
  }
  xprof_free(buf);
  struct stat st;
  if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
    return xprof_fail(err, XPROF_ERR_IO, "%s: not a directory", path);
  return 0;
}
