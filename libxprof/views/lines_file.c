/*
 * lines_file.c - a profile directory's line profile, kept beside its
 * data: made from the data by the first use build that finds it older
 * (the drivers ask before each compilation) and by xprof_collect after a
 * run, so that a use build by another compiler or version, or of a
 * program that was only sampled, still has it after `make clean` took
 * the objects and program whose coverage tables and line tables it came
 * from.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "xprof_views.h"

int xprof_profile_has_counts(const xprof_profile *p) {
  for (uint32_t i = 0; i < p->n_objfiles; i++)
    for (uint32_t k = 0; k < p->objfiles[i].n_procs; k++)
      for (uint32_t c = 0; c < p->objfiles[i].procs[k].n_counters; c++)
        if (p->objfiles[i].procs[k].counters[c])
          return 1;
  return 0;
}

int xprof_profile_has_samples(const xprof_profile *p) {
  for (uint32_t i = 0; i < p->n_images; i++)
    if (p->images[i].samples && !(p->images[i].flags & XPROF_IMAGE_OVERFLOW))
      return 1;
  return 0;
}

/* Is the file at `path` older than the data file `data`?  A missing one
 * is. */
static int older(const char *path, const char *data) {
  struct stat a, b;
  if (stat(path, &a) != 0)
    return 1;
  if (stat(data, &b) != 0)
    return 0;
  return a.st_mtim.tv_sec < b.st_mtim.tv_sec ||
         (a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec < b.st_mtim.tv_nsec);
}

/* The line profile of dir's data p: from its counts, else its samples;
 * NULL (without error) when it has neither. */
static int make(const char *dir, xprof_profile *p, xprof_lineprof **lp, xprof_error *err) {
  *lp = NULL;
  xprof_table_place at = {dir, p};
  if (xprof_profile_has_counts(p))
    return xprof_lineprof_from_counts(p, xprof_table_find_at, &at, lp, err);
  if (xprof_profile_has_samples(p))
    return xprof_lineprof_from_samples(p, lp, err);
  return 0;
}

/* Write lp to `path` whole: a temporary file beside it, renamed. */
static int write_whole(const char *path, const xprof_lineprof *lp, xprof_error *err) {
  char *tmp = xprof_format("%s.%ld.tmp", path, (long)getpid());
  if (!tmp)
    return xprof_fail_nomem(err, path);
  FILE *out = fopen(tmp, "w");
  int rc = out ? xprof_lineprof_write_llvm(out, lp) : -1;
  if (out && fclose(out) != 0)
    rc = -1;
  if (rc == 0 && rename(tmp, path) != 0)
    rc = -1;
  if (rc < 0) {
    xprof_fail(err, XPROF_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    remove(tmp);
  }
  xprof_free(tmp);
  return rc;
}

/* Why most of lp's samples found no line, through note (lp made from
 * the data of dir). */
static void say_unplaced(const char *dir, const xprof_lineprof *lp,
                         void (*note)(const char *msg)) {
  if (!note || !lp->from_samples || lp->placed >= lp->samples - lp->samples / 2)
    return;
  char *msg = xprof_format("%s: %llu of %llu samples placed on lines", dir,
                           (unsigned long long)lp->placed, (unsigned long long)lp->samples);
  if (msg)
    note(msg);
  xprof_free(msg);
  for (uint32_t i = 0; i < lp->n_notes; i++)
    note(lp->notes[i]);
}

/* Under the lock: make the file if it is still older than the data. */
static int refresh(const char *dir, const char *data, const char *path,
                   void (*note)(const char *msg), xprof_error *err) {
  if (!older(path, data))
    return 0;
  xprof_profile *p;
  if (xprof_read_profile_dir(dir, &p, err) < 0)
    return -1;
  xprof_lineprof *lp;
  int rc = make(dir, p, &lp, err);
  if (rc == 0 && lp && !lp->from_samples && !lp->n_funcs) {
    /* Exact counts and no coverage table to give them lines (the
     * training's objects and program removed, or moved): nothing to
     * write, and an empty file newer than the data would keep a later
     * build that finds the tables from making it. */
    for (uint32_t i = 0; note && i < lp->n_notes; i++)
      note(lp->notes[i]);
    remove(path);
  } else if (rc == 0 && lp) {
    say_unplaced(dir, lp, note);
    rc = write_whole(path, lp, err) < 0 ? -1 : 1;
  }
  xprof_lineprof_free(lp);
  xprof_profile_free(p);
  return rc;
}

int xprof_lines_refresh(const char *dir, void (*note)(const char *msg), xprof_error *err) {
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return 0; /* no profile yet, or a data file of its own */
  char *data = xprof_profile_data_file(dir, err);
  if (!data)
    return -1;
  char *path = xprof_format("%s/" XPROF_LINES_FILE, dir);
  char *lock = xprof_format("%s/" XPROF_LINES_FILE ".lock", dir);
  int rc = 0;
  if (!path || !lock)
    rc = xprof_fail_nomem(err, dir);
  else if (older(path, data)) {
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
      rc = xprof_fail(err, XPROF_ERR_IO, "cannot write in %s: %s", dir, strerror(errno));
    } else {
      while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
        ;
      rc = refresh(dir, data, path, note, err);
      close(fd); /* the lock goes with it */
    }
  }
  xprof_free(data);
  xprof_free(path);
  xprof_free(lock);
  return rc;
}
