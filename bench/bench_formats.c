/*
 * bench_formats.c - throughput of libxprof's readers, writers, merge and
 * index lookup on a large synthetic profile, each next to a plain copy of
 * the same bytes measured in the same run.
 *
 *   bench_formats [--scale F] [--dir DIR]
 *
 * At scale 1 the profile has 5,000 object files, 500,000 procedures and
 * 20,000,000 counters.  Ratios are printed, never asserted: the machines
 * are noisy, and docs/performance.md records what was measured.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "xprof_plan.h"
#include "xprof_views.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static xprof_profile *generate(uint32_t n_obj, uint32_t procs_per_obj,
                               uint32_t counters_per_proc, uint64_t salt) {
  xprof_profile *p = xprof_profile_new();
  xprof_program *g = xprof_add_program(p, "/bench/bin/program");
  char name[128];
  for (uint32_t i = 0; i < n_obj; i++) {
    snprintf(name, sizeof name, "/bench/src/module%03u/file%05u.o", i % 271, i);
    xprof_objfile *o = xprof_add_objfile(p, name);
    o->signature = 0x9e3779b97f4a7c15ull * (i + 1);
    o->tv_sec = 1763777000 + i;
    o->n_values_per_vp = 4;
    xprof_program_add_objref(p, g, name);
    for (uint32_t j = 0; j < procs_per_obj; j++) {
      snprintf(name, sizeof name, "_ZN5bench6module%uE8functionIiEEvi%u", i, j);
      xprof_proc *f = xprof_add_proc(p, o, name);
      f->signature = rng();
      f->id = j;
      xprof_proc_alloc_counters(p, f, counters_per_proc);
      for (uint32_t k = 0; k < counters_per_proc; k++)
        f->counters[k] = (rng() >> (40 + k % 24)) + salt;
      if (j % 16 == 0) { /* some value profiles */
        f->n_vp_sites = 1;
        xprof_proc_alloc_vp(p, o, f, 1);
        f->vp[0].type = XPROF_VP_INT;
        for (uint32_t k = 0; k < 4; k++) {
          f->vp[0].values[k].count = 100 - k;
          f->vp[0].values[k].bits = k * 7;
        }
      }
    }
  }
  return p;
}

/* Copy a file through read/write, as cp does: the baseline. */
static double copy_file(const char *from, const char *to) {
  static char buf[1 << 20];
  double t = now();
  int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ssize_t n;
  while ((n = read(in, buf, sizeof buf)) > 0)
    if (write(out, buf, (size_t)n) != n)
      abort();
  close(in);
  close(out);
  return now() - t;
}

static double file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (double)st.st_size : 0;
}

static void die(const xprof_error *err) {
  fprintf(stderr, "bench_formats: %s\n", err->msg);
  exit(1);
}

#define ROUNDS 3

static double median(double *v, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
      double t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return v[n / 2];
}

/* The files of a run, under the --dir directory. */
typedef struct paths {
  char a[512], b[512], cpy[512], txt[512], out[512], one[512];
} paths;

/* Per-round times of each job, in seconds. */
typedef struct timings {
  double copy[ROUNDS], read[ROUNDS], write[ROUNDS], merge[ROUNDS], btoa[ROUNDS], atob[ROUNDS];
} timings;

/* One round of every job on the files of f (pa: the profile of f->a). */
static void time_round(const paths *f, const xprof_profile *pa, int r, timings *tm) {
  xprof_error err;
  tm->copy[r] = copy_file(f->a, f->cpy);

  double t = now();
  xprof_profile *p;
  if (xprof_binary_read_file(f->a, &p, &err) < 0)
    die(&err);
  tm->read[r] = now() - t;

  t = now();
  if (xprof_binary_write_file(p, f->out, &err) < 0)
    die(&err);
  tm->write[r] = now() - t;

  /* merge: read both, merge, write: the whole job of xprof_merge */
  t = now();
  xprof_profile *q;
  if (xprof_binary_read_file(f->b, &q, &err) < 0 ||
      xprof_merge(p, q, 1, XPROF_REPLACE_OBJFILE, &err) < 0 ||
      xprof_binary_write_file(p, f->out, &err) < 0)
    die(&err);
  tm->merge[r] = now() - t + tm->read[r];
  xprof_profile_free(q);

  t = now();
  if (xprof_text_write_file(pa, f->txt, &err) < 0)
    die(&err);
  tm->btoa[r] = now() - t;
  t = now();
  xprof_profile *x;
  if (xprof_text_read_file(f->txt, &x, &err) < 0 || xprof_binary_write_file(x, f->out, &err) < 0)
    die(&err);
  tm->atob[r] = now() - t;
  xprof_profile_free(x);
  xprof_profile_free(p);
}

/* Each job's median time (tm's rounds sorted) and throughput against a
 * copy of the file. */
static void report(timings *tm, double bytes) {
  double copy = median(tm->copy, ROUNDS);
  printf("copy of the binary file:   %7.3f s  %7.0f MB/s  (baseline)\n", copy,
         bytes / copy / 1e6);
  struct {
    const char *what;
    double *t;
    double work; /* bytes processed, in copies of the file */
  } rows[] = {{"binary read", tm->read, 1},   {"binary write", tm->write, 1},
              {"merge (read 2, write 1)", tm->merge, 3}, {"btoa (write text)", tm->btoa, 1},
              {"atob (read text, write)", tm->atob, 1}};
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    double m = median(rows[i].t, ROUNDS);
    /* throughput relative to copy: copying moves the file once */
    double ratio = (rows[i].work * bytes / m) / (bytes / copy);
    printf("%-26s %7.3f s  %7.0f MB/s  %.2fx copy throughput\n", rows[i].what,
           m, rows[i].work * bytes / m / 1e6, ratio);
  }
}

/* The lookup of one object file: in the large profile f->a (n_obj object
 * files) against a one-object profile f->one. */
static void time_lookups(const paths *f, uint32_t n_obj) {
  enum { LOOKUPS = 2000 };
  xprof_error err;
  char name[128];
  double tl[ROUNDS], ts[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    double t = now();
    for (int i = 0; i < LOOKUPS; i++) {
      uint32_t k = (uint32_t)(rng() % n_obj);
      snprintf(name, sizeof name, "/bench/src/module%03u/file%05u.o", k % 271, k);
      xprof_profile *p;
      if (xprof_binary_lookup(f->a, name, &p, &err) < 0)
        die(&err);
      xprof_profile_free(p);
    }
    tl[r] = (now() - t) / LOOKUPS;
    t = now();
    for (int i = 0; i < LOOKUPS; i++) {
      xprof_profile *p;
      if (xprof_binary_lookup(f->one, "/bench/src/module000/file00000.o", &p, &err) < 0)
        die(&err);
      xprof_profile_free(p);
    }
    ts[r] = (now() - t) / LOOKUPS;
  }
  double large = median(tl, ROUNDS), small = median(ts, ROUNDS);
  printf("lookup of one object file: %.1f us in the large profile, %.1f us "
         "in a one-object profile: %.2fx\n",
         large * 1e6, small * 1e6, large / small);
}

int main(int argc, char **argv) {
  double scale = 1.0;
  const char *dir = "/tmp/xprof-bench-formats";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc)
      scale = atof(argv[++i]);
    else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
      dir = argv[++i];
    else {
      fprintf(stderr, "usage: bench_formats [--scale F] [--dir DIR]\n");
      return 2;
    }
  }
  uint32_t n_obj = (uint32_t)(5000 * scale);
  if (n_obj < 2)
    n_obj = 2;
  xprof_error err;
  paths f;
  mkdir(dir, 0777);
  snprintf(f.a, sizeof f.a, "%s/a.feedback", dir);
  snprintf(f.b, sizeof f.b, "%s/b.feedback", dir);
  snprintf(f.cpy, sizeof f.cpy, "%s/copy.feedback", dir);
  snprintf(f.txt, sizeof f.txt, "%s/a.text", dir);
  snprintf(f.out, sizeof f.out, "%s/out.feedback", dir);
  snprintf(f.one, sizeof f.one, "%s/one.feedback", dir);

  double t0 = now();
  xprof_profile *pa = generate(n_obj, 100, 40, 0);
  xprof_profile *pb = generate(n_obj, 100, 40, 1);
  xprof_profile *single = generate(1, 100, 40, 0);
  if (xprof_binary_write_file(pa, f.a, &err) < 0 || xprof_binary_write_file(pb, f.b, &err) < 0 ||
      xprof_binary_write_file(single, f.one, &err) < 0)
    die(&err);
  double bytes = file_size(f.a);
  printf("profile: %u object files, %u procedures, %u counters, %.1f MB "
         "binary (generated in %.1f s)\n",
         n_obj, n_obj * 100, n_obj * 4000, bytes / 1e6, now() - t0);

  timings tm;
  for (int r = 0; r < ROUNDS; r++)
    time_round(&f, pa, r, &tm);
  report(&tm, bytes);
  printf("text size: %.1f MB\n", file_size(f.txt) / 1e6);
  time_lookups(&f, n_obj);
  xprof_profile_free(pa);
  xprof_profile_free(pb);
  xprof_profile_free(single);
  unlink(f.a), unlink(f.b), unlink(f.cpy), unlink(f.txt), unlink(f.out), unlink(f.one);
  rmdir(dir);
  return 0;
}
