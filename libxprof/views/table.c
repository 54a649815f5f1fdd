/*
 * table.c - reading an object's coverage table where it is: a file of its
 * own (OBJECT.xpcov, or PROFILE/tcov/...), or an entry of the table
 * section (XPROF_TABLE_SECTION) of the object file that a collect build
 * keeps it in, or of the program or library linked from that object.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "xprof_views.h"

static int is_elf(const unsigned char *buf, size_t len) {
  return len >= 4 && buf[0] == 0x7f && buf[1] == 'E' && buf[2] == 'L' && buf[3] == 'F';
}

/* The table of object objpath in an ELF file's table section, in buf
 * (*off, *size): 1; 0 when the file has no such entry; -1 when the
 * section is damaged.  An entry is "XPTAB <length> <path>\n" and the
 * table; a link may pad between entries with zeros. */
static int find_entry(const unsigned char *buf, size_t len, const char *objpath, uint64_t *off,
                      uint64_t *size) {
  uint64_t at, end;
  if (!is_elf(buf, len) || xprof_elf_section(buf, len, XPROF_TABLE_SECTION, &at, &end) < 0)
    return 0;
  end += at;
  size_t tag = strlen(XPROF_TABLE_ENTRY);
  while (at < end) {
    if (!buf[at]) {
      at++;
      continue;
    }
    const char *line = (const char *)buf + at;
    const char *nl = memchr(line, '\n', (size_t)(end - at));
    char *rest;
    if (!nl || strncmp(line, XPROF_TABLE_ENTRY " ", tag + 1) != 0)
      return -1;
    unsigned long long n = strtoull(line + tag + 1, &rest, 10);
    if (*rest != ' ' || n > end - (uint64_t)(nl + 1 - (const char *)buf))
      return -1;
    at = (uint64_t)(nl + 1 - (const char *)buf);
    size_t plen = (size_t)(nl - rest - 1);
    if (strlen(objpath) == plen && memcmp(rest + 1, objpath, plen) == 0) {
      *off = at;
      *size = n;
      return 1;
    }
    at += n;
  }
  return 0;
}

int xprof_table_in_file(const char *path, const char *objpath) {
  const unsigned char *buf = NULL;
  size_t len = 0;
  uint64_t off, size;
  xprof_error err;
  if (xprof_map(path, &buf, &len, &err) < 0)
    return 0;
  int found = find_entry(buf, len, objpath, &off, &size) > 0;
  xprof_unmap(buf, len);
  return found;
}

int xprof_table_read(const char *path, const char *objpath, xprof_profile *owner,
                     xprof_cfgdump *out, xprof_error *err) {
  const unsigned char *buf = NULL;
  size_t len = 0;
  if (xprof_map(path, &buf, &len, err) < 0)
    return -1;
  if (!is_elf(buf, len)) {
    xprof_unmap(buf, len);
    return xprof_cfgdump_read(path, owner, out, err);
  }
  uint64_t off, size;
  int found = find_entry(buf, len, objpath, &off, &size), rc;
  if (found < 0) {
    rc = xprof_fail(err, XPROF_ERR_FORMAT, "%s: section %s is damaged", path,
                    XPROF_TABLE_SECTION);
  } else if (!found) {
    rc = xprof_fail(err, XPROF_ERR_NOTFOUND, "%s: no coverage table of %s in it", path,
                    objpath);
  } else {
    char *name = xprof_format("%s(%s)", path, XPROF_TABLE_SECTION);
    rc = name ? xprof_cfgdump_read_mem((const char *)buf + off, (size_t)size, name, owner, out,
                                       err)
              : xprof_fail_nomem(err, path);
    xprof_free(name);
  }
  xprof_unmap(buf, len);
  return rc;
}

/* The program a profile directory is named after, PROGRAM.profile, when
 * it is there (malloc'd), or NULL. */
static char *program_of(const char *profile_dir) {
  size_t n = strlen(profile_dir);
  while (n > 1 && profile_dir[n - 1] == '/')
    n--;
  if (n <= 8 || strncmp(profile_dir + n - 8, ".profile", 8) != 0)
    return NULL;
  char *prog = xprof_format("%.*s", (int)(n - 8), profile_dir);
  if (prog && access(prog, R_OK) != 0) {
    xprof_free(prog);
    prog = NULL;
  }
  return prog;
}

char *xprof_table_find(const char *profile_dir, const char *program, const char *objpath,
                      const char *objpath_now) {
  char *dir = xprof_format("%s/tcov", profile_dir);
  char *path = dir ? xprof_linetab_path(objpath, dir) : NULL;
  xprof_free(dir);
  if (path && access(path, R_OK) == 0)
    return path;
  xprof_free(path);
  path = xprof_linetab_path(objpath_now, NULL);
  if (path && access(path, R_OK) == 0)
    return path;
  xprof_free(path);
  /* The program before the object: the profile is the program's runs,
   * and an object compiled again since the link (another build's, or
   * the same source built apart) describes code that never ran. */
  char *prog = program ? xprof_format("%s", program) : program_of(profile_dir);
  if (prog && xprof_table_in_file(prog, objpath))
    return prog;
  xprof_free(prog);
  if (xprof_table_in_file(objpath_now, objpath))
    return xprof_format("%s", objpath_now);
  return NULL;
}

/* A program of p linked from objpath whose file holds its table: the
 * profile names the programs that ran, wherever they were. */
static char *in_programs(const xprof_profile *p, const char *objpath) {
  for (uint32_t i = 0; p && i < p->n_programs; i++) {
    const xprof_program *prog = &p->programs[i];
    for (uint32_t k = 0; k < prog->n_objrefs; k++)
      if (strcmp(prog->objrefs[k], objpath) == 0 && xprof_table_in_file(prog->path, objpath))
        return xprof_format("%s", prog->path);
  }
  return NULL;
}

char *xprof_table_find_in(const xprof_profile *p, const char *profile_dir, const char *objpath) {
  char *path = xprof_table_find(profile_dir, NULL, objpath, objpath);
  return path ? path : in_programs(p, objpath);
}

char *xprof_table_find_at(void *place, const char *objpath) {
  const xprof_table_place *at = place;
  return xprof_table_find_in(at->p, at->dir, objpath);
}
