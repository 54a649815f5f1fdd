/*
 * profile_dir.c - NAME.profile directories and format detection.
 *
 * A profile directory holds `feedback` (binary), and `shapes` (binary:
 * the procedures' shapes, once per build; shapes_file.c).  Readers also
 * accept `feedback.text` (from xprof_btoa, perhaps edited) when no binary
 * file is there, and a data file named directly.  The format is told by
 * the first bytes, never by the file name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binary_format.h"
#include "internal.h"

static int is_text(const unsigned char *buf, size_t len) {
  static const char magic[] = "PROFILE-FEEDBACK-DATA:";
  size_t i = xprof_bom_len(buf, len);
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
  size_t bom = xprof_bom_len(buf, len);
  buf += bom;
  len -= bom;
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

/* Parse buf (len bytes of `path`, xprof_malloc'd; taken) in either
 * format. */
static int parse_either(const char *path, unsigned char *buf, size_t len, xprof_profile **out,
                        xprof_error *err) {
  size_t bom = xprof_bom_len(buf, len);
  if (is_text(buf, len) || (len > bom && buf[bom] == '#')) {
    int rc = xprof_text_parse(path, (const char *)buf, len, out, err);
    xprof_free(buf);
    return rc;
  }
  return xprof_binary_parse(path, buf, len, out, err);
}

int xprof_read_file(const char *path, xprof_profile **out, xprof_error *err) {
  unsigned char *buf;
  size_t len;
  if (xprof_slurp(path, &buf, &len, err) < 0)
    return -1;
  return parse_either(path, buf, len, out, err);
}

int xprof_read_input(const char *name, xprof_profile **out, xprof_error *err) {
  struct stat st;
  int stream = strcmp(name, "-") == 0 || (stat(name, &st) == 0 && S_ISFIFO(st.st_mode));
  if (!stream)
    return xprof_read_profile_dir(name, out, err);
  unsigned char *buf;
  size_t len;
  if (xprof_slurp_input(name, &buf, &len, err) < 0)
    return -1;
  return parse_either(strcmp(name, "-") == 0 ? "<stdin>" : name, buf, len, out, err);
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

/* The shapes file beside data file `path` when that is a profile
 * directory's binary feedback file (malloc'd), else NULL. */
static char *shapes_beside(const char *path) {
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  if (strcmp(base, XPROF_FEEDBACK_FILE) != 0)
    return NULL;
  int dir_len = slash ? (int)(slash - path) : 1;
  char *shapes = xprof_format("%.*s/" XPROF_SHAPES_FILE, dir_len, slash ? path : ".");
  struct stat st;
  if (shapes && stat(shapes, &st) == 0)
    return shapes;
  xprof_free(shapes);
  return NULL;
}

/* Give p the shapes of the shapes file beside `path`, if there is one:
 * read whole, or only objpath's through its index.  A shapes file that
 * cannot be read costs p its shapes, not its counts: p->shapes_problem
 * says why.  Returns 0, or -1 when out of memory. */
static int attach_beside(xprof_profile *p, const char *path, const char *objpath,
                         xprof_error *err) {
  char *shapes_path = shapes_beside(path);
  if (!shapes_path)
    return 0;
  xprof_profile *shapes = NULL;
  xprof_error e;
  int rc = objpath ? xprof_binary_lookup(shapes_path, objpath, &shapes, &e)
                   : xprof_binary_read_file(shapes_path, &shapes, &e);
  xprof_free(shapes_path);
  if (rc == 0) {
    rc = xprof_attach_shapes(p, shapes);
    xprof_profile_free(shapes);
    return rc < 0 ? xprof_fail_nomem(err, path) : 0;
  }
  if (e.code == XPROF_ERR_NOMEM)
    return xprof_fail_nomem(err, path);
  if (e.code != XPROF_ERR_NOTFOUND && !(p->shapes_problem = xprof_strdup(p, e.msg)))
    return xprof_fail_nomem(err, path);
  return 0;
}

int xprof_read_profile_dir(const char *dir, xprof_profile **out,
                           xprof_error *err) {
  char *path = xprof_profile_data_file(dir, err);
  if (!path)
    return -1;
  int rc = xprof_read_file(path, out, err);
  if (rc == 0 && (rc = attach_beside(*out, path, NULL, err)) < 0)
    xprof_profile_free(*out);
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
  } else if (is_text(head, n) || (n > xprof_bom_len(head, n) && head[xprof_bom_len(head, n)] == '#')) {
    rc = xprof_text_read_file(path, out, err);
    if (rc == 0 && !xprof_find_objfile(*out, objpath)) {
      xprof_profile_free(*out);
      rc = xprof_fail(err, XPROF_ERR_NOTFOUND,
                      "%s: no data for object file %s", path, objpath);
    }
  } else {
    rc = xprof_binary_lookup(path, objpath, out, err);
    if (rc == 0 && (rc = attach_beside(*out, path, objpath, err)) < 0)
      xprof_profile_free(*out);
  }
  xprof_free(path);
  return rc;
}

int xprof_write_profile_dir(const xprof_profile *p, const char *dir,
                            xprof_error *err) {
  if (xprof_mkdirs(dir, err) < 0)
    return -1;
  char *path = xprof_format("%s/" XPROF_FEEDBACK_FILE, dir);
  char *shapes_path = xprof_format("%s/" XPROF_SHAPES_FILE, dir);
  xprof_profile *shapes = xprof_has_shapes(p) ? xprof_shapes_of(p, NULL) : NULL;
  int rc = -1;
  if (!path || !shapes_path || (xprof_has_shapes(p) && !shapes))
    rc = xprof_fail_nomem(err, dir);
  else if (xprof_binary_write_counts_file(p, path, err) < 0)
    rc = -1;
  else if (shapes)
    rc = xprof_binary_write_file(shapes, shapes_path, err);
  else if (unlink(shapes_path) < 0 && errno != ENOENT) /* none left from other counts */
    rc = xprof_fail(err, XPROF_ERR_IO, "%s: cannot remove: %s", shapes_path, strerror(errno));
  else
    rc = 0;
  xprof_profile_free(shapes);
  xprof_free(path);
  xprof_free(shapes_path);
  return rc;
}

char *xprof_profile_dir_name(const char *name) {
  size_t n = strlen(name);
  return xprof_format("%s%s", name,
                      n >= 8 && strcmp(name + n - 8, ".profile") == 0 ? "" : ".profile");
}
