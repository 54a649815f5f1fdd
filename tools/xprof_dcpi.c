/*
 * xprof_dcpi - time samples as DCPI profile files (dcpiformat(4), version
 * 0.07), one per sampled image, and a listing of such files by procedure
 * as dcpiprof gives it.  See xprof_dcpi(1).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_dcpi [-d DIR] PROFILE\n"
    "       xprof_dcpi -l FILE...\n"
    "Write the time samples of PROFILE (runs with SUN_PROFDATA_SAMPLE=1) as\n"
    "one DCPI profile file per sampled image (executable or shared library),\n"
    "or list DCPI profile files by procedure.\n"
    "  -d DIR   where the files go (default: the current directory); a file\n"
    "           of the same image there is rewritten, keeping its header\n"
    "           lines this tool does not write\n"
    "  -l       list the samples of FILEs by procedure, busiest first\n";

/* The epoch line: when the profile was last written, UTC YYMMDDHHMM. */
static void epoch_of(const char *dir, char out[16]) {
  char *feedback = xprof_format("%s/feedback", dir);
  struct stat st;
  time_t t = feedback && stat(feedback, &st) == 0 ? st.st_mtime : time(NULL);
  xprof_free(feedback);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(out, 16, "%y%m%d%H%M", &tm);
}

static unsigned cpu_mhz(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[256];
  double mhz = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "cpu MHz : %lf", &mhz) == 1)
      break;
  if (f)
    fclose(f);
  return (unsigned)(mhz + 0.5);
}

/* DIR/BASENAME-ID.dcpi: the image's name and the start of its id. */
static char *file_for(const char *dir, const xprof_image *img) {
  const char *base = strrchr(img->path, '/');
  char id[17] = "0";
  for (uint32_t i = 0; i < img->id_len && i < 8; i++)
    snprintf(id + 2 * i, 3, "%02x", img->id[i]);
  return xprof_format("%s/%s-%s.dcpi", dir, base ? base + 1 : img->path, id);
}

static int write_cb(void *ctx, int fd, const char *name, xprof_error *err) {
  unsigned char *bytes;
  size_t len;
  if (xprof_dcpi_serialize(ctx, &bytes, &len, err) < 0)
    return -1;
  int rc = xprof_write_all(fd, bytes, len, name, err);
  xprof_free(bytes);
  return rc;
}

/* One image's file; an older one's header lines stay. */
static int write_image(const char *dir, const xprof_image *img, const char *epoch,
                       const char *platform, unsigned mhz) {
  char *path = file_for(dir, img);
  unsigned char *old;
  size_t len;
  xprof_error err;
  xprof_dcpi d;
  memset(&d, 0, sizeof d);
  if (!path)
    return tool_error("out of memory");
  if (xprof_slurp(path, &old, &len, &err) == 0) {
    if (xprof_dcpi_parse(path, old, len, &d, &err) < 0) {
      tool_error("%s: not rewritten: %s", path, err.msg);
      xprof_free(old);
      xprof_free(path);
      return 1;
    }
    xprof_free(d.counts); /* the samples are the profile's now */
    d.counts = NULL;
    d.n_counts = d.cap_counts = 0;
    xprof_free(old);
  }
  int rc = 0;
  if (xprof_dcpi_from_image(img, epoch, platform, mhz, &d, &err) < 0 ||
      xprof_replace_file(path, write_cb, &d, &err) < 0)
    rc = tool_fail(&err);
  else
    printf("%s: %" PRIu64 " samples of %s\n", path, img->samples, img->path);
  xprof_dcpi_free(&d);
  xprof_free(path);
  return rc;
}

static int write_all(const char *dir, const char *profile) {
  xprof_error err;
  xprof_profile *p;
  if (xprof_read_profile_dir(profile, &p, &err) < 0)
    return tool_fail(&err);
  if (xprof_mkdirs(dir, &err) < 0)
    return tool_fail(&err);
  char epoch[16], platform[200];
  epoch_of(profile, epoch);
  struct utsname u;
  snprintf(platform, sizeof platform, "%s %s", uname(&u) == 0 ? u.sysname : "Linux",
           uname(&u) == 0 ? u.machine : "");
  unsigned mhz = cpu_mhz();
  int rc = 0, n = 0;
  for (uint32_t i = 0; i < p->n_images; i++) {
    const xprof_image *img = &p->images[i];
    if (img->flags & XPROF_IMAGE_OVERFLOW || !img->samples)
      continue;
    rc |= write_image(dir, img, epoch, platform, mhz);
    n++;
  }
  if (!n)
    rc = tool_error("%s: no time samples (run the program with SUN_PROFDATA_SAMPLE=1)", profile);
  xprof_profile_free(p);
  return rc;
}

static int list(int n, char **files) {
  xprof_profile *p = xprof_profile_new();
  xprof_error err;
  if (!p)
    return tool_error("out of memory");
  for (int i = 0; i < n; i++) {
    unsigned char *bytes;
    size_t len;
    xprof_dcpi d;
    xprof_image *img;
    if (xprof_slurp(files[i], &bytes, &len, &err) < 0 ||
        xprof_dcpi_parse(files[i], bytes, len, &d, &err) < 0)
      return tool_fail(&err);
    xprof_free(bytes);
    int rc = xprof_dcpi_to_image(&d, p, &img);
    xprof_dcpi_free(&d);
    if (rc < 0)
      return tool_error("out of memory");
  }
  xprof_time_table *t;
  if (xprof_time_by_function(p, XPROF_TIME_ANY_BUILD, &t, &err) < 0)
    return tool_fail(&err);
  printf("samples: %" PRIu64 " in %d file%s\n", t->samples, n, n == 1 ? "" : "s");
  printf("%10s %8s %8s  %-40s %s\n", "samples", "%", "cum%", "procedure", "image");
  uint64_t cum = 0;
  for (uint32_t i = 0; i < t->n_rows; i++) {
    const xprof_func_time *r = &t->rows[i];
    cum += r->samples;
    printf("%10" PRIu64 " %7.2f%% %7.2f%%  %-40s %s\n", r->samples,
           100.0 * (double)r->samples / (double)t->samples,
           100.0 * (double)cum / (double)t->samples, r->name, r->image->path);
  }
  fflush(stdout);
  for (uint32_t i = 0; i < t->n_notes; i++)
    tool_error("%s", t->notes[i]);
  xprof_time_table_free(t);
  xprof_profile_free(p);
  return 0;
}

int main(int argc, char **argv) {
  tool_init("xprof_dcpi");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  if (argc >= 3 && strcmp(argv[1], "-l") == 0)
    return list(argc - 2, argv + 2);
  if (argc == 4 && strcmp(argv[1], "-d") == 0)
    return write_all(argv[2], argv[3]);
  if (argc == 2 && argv[1][0] != '-')
    return write_all(".", argv[1]);
  fputs(usage, stderr);
  return 1;
}
