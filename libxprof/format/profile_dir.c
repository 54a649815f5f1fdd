/*
 * profile_dir.c - NAME.profile directories and format detection.
 *
 * A profile directory holds `feedback` (binary).  Readers also accept
 * `feedback.text` (from xprof_btoa, perhaps edited) when no binary file is
 * there, and a data file named directly.  The format is told by the first
 * bytes, never by the file name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "binary_format.h"
#include "internal.h"

static int is_text(const unsigned char *buf, size_t len) {
  static const char magic[] = "PROFILE-FEEDBACK-DATA:";
  size_t i = 0;
  while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
                     buf[i] == '\r'))
    i++;
  return len - i >= sizeof magic - 1 &&
         memcmp(buf + i, magic, sizeof magic - 1) == 0;
}

/* Do the first bytes of a file say it is profile data: xprof binary data,
 * or text (which may open with comment lines, but not with "#!": a
 * program named like its profile may be a script)? */
static int is_profile_data(const unsigned char *buf, size_t len) {
  static const char magic[] = "PROFILE-FEEDBACK-DATA:";
  if (len >= XB_HEADER_SIZE && xprof_get32(buf + 24) == XB_MAGIC)
    return 1;
  if (is_text(buf, len))
    return 1;
  return len > 2 && buf[0] == '#' && buf[1] != '!' &&
         memmem(buf, len, magic, sizeof magic - 1) != NULL;
}

char *xprof_use_profile_name(const char *name) {
  struct stat st;
  if (stat(name, &st) == 0 && S_ISREG(st.st_mode)) {
    unsigned char head[4096];
    FILE *f = fopen(name, "rb");
    size_t n = f ? fread(head, 1, sizeof head, f) : 0;
    if (f)
      fclose(f);
    if (is_profile_data(head, n))
      return xprof_format("%s", name);
  }
  return xprof_profile_dir_name(name);
}

int xprof_read_file(const char *path, xprof_profile **out, xprof_error *err) {
  unsigned char *buf;
  size_t len;
  if (xprof_slurp(path, &buf, &len, err) < 0)
    return -1;
  if (is_text(buf, len) || (len > 0 && buf[0] == '#')) {
    int rc = xprof_text_parse(path, (const char *)buf, len, out, err);
    xprof_free(buf);
    return rc;
  }
  return xprof_binary_parse(path, buf, len, out, err);
}

char *xprof_profile_data_file(const char *dir, xprof_error *err) {
  struct stat st;
  if (stat(dir, &st) < 0) {
    xprof_fail(err, XPROF_ERR_IO, "%s: %s", dir, strerror(errno));
    return NULL;
  }
  size_t n = strlen(dir);
  char *path = xprof_malloc(n + 32);
  if (!path) {
    xprof_fail_nomem(err, dir);
    return NULL;
  }
  if (!S_ISDIR(st.st_mode)) {
    memcpy(path, dir, n + 1);
    return path;
  }
  snprintf(path, n + 32, "%s/" XPROF_FEEDBACK_FILE, dir);
  if (stat(path, &st) == 0)
    return path;
  snprintf(path, n + 32, "%s/" XPROF_FEEDBACK_FILE ".text", dir);
  if (stat(path, &st) == 0)
    return path;
  xprof_fail(err, XPROF_ERR_IO,
             "%s: profile directory has no " XPROF_FEEDBACK_FILE
             " (nor " XPROF_FEEDBACK_FILE ".text) file",
             dir);
  xprof_free(path);
  return NULL;
}

int xprof_read_profile_dir(const char *dir, xprof_profile **out,
                           xprof_error *err) {
  char *path = xprof_profile_data_file(dir, err);
  if (!path)
    return -1;
  int rc = xprof_read_file(path, out, err);
  xprof_free(path);
  return rc;
}

int xprof_lookup_objfile(const char *dir, const char *objpath,
                         xprof_profile **out, xprof_error *err) {
  char *path = xprof_profile_data_file(dir, err);
  if (!path)
    return -1;
  unsigned char head[64] = {0};
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(head, 1, sizeof head, f) : 0;
  if (f)
    fclose(f);
  int rc;
  if (!f) {
    rc = xprof_fail(err, XPROF_ERR_IO, "%s: cannot open: %s", path,
                    strerror(errno));
  } else if (is_text(head, n) || (n > 0 && head[0] == '#')) {
    rc = xprof_text_read_file(path, out, err);
    if (rc == 0 && !xprof_find_objfile(*out, objpath)) {
      xprof_profile_free(*out);
      rc = xprof_fail(err, XPROF_ERR_NOTFOUND,
                      "%s: no data for object file %s", path, objpath);
    }
  } else {
    rc = xprof_binary_lookup(path, objpath, out, err);
  }
  xprof_free(path);
  return rc;
}

int xprof_write_profile_dir(const xprof_profile *p, const char *dir,
                            xprof_error *err) {
  if (xprof_mkdirs(dir, err) < 0)
    return -1;
  size_t n = strlen(dir);
  char *path = xprof_malloc(n + 16);
  if (!path)
    return xprof_fail_nomem(err, dir);
  snprintf(path, n + 16, "%s/" XPROF_FEEDBACK_FILE, dir);
  int rc = xprof_binary_write_file(p, path, err);
  xprof_free(path);
  return rc;
}

char *xprof_profile_dir_name(const char *name) {
  size_t n = strlen(name);
  return xprof_format("%s%s", name,
                      n >= 8 && strcmp(name + n - 8, ".profile") == 0 ? "" : ".profile");
}
