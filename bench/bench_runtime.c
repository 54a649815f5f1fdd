/*
 * bench_runtime.c - costs of the runtime: one value-profile record, and
 * a write of the profile of a program with 100,000 procedures.
 *
 *   bench_runtime [--procs N] [--dir DIR]
 *
 * Baselines are measured in the same run: an indirect call through a
 * function that does nothing (for the recorder), and a read-modify-write
 * copy of the profile file (for the dump).  Nothing is asserted.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "xprof_abi.h"
#include "xprof_rt.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) static void empty_record(uint64_t *s, const void *v) {
  __asm__ volatile("" : : "r"(s), "r"(v) : "memory");
}

static void t0(void) {}
static void t1(void) {}
static void t2(void) {}
static void t3(void) {}
static void t4(void) {}
static void t5(void) {}
static void t6(void) {}
static void t7(void) {}

static double per_call(void (*rec)(uint64_t *, const void *), uint64_t *state,
                       int distinct, long n) {
  static void (*const targets[8])(void) = {t0, t1, t2, t3, t4, t5, t6, t7};
  double t = now();
  for (long i = 0; i < n; i++)
    rec(state, (const void *)targets[i % distinct]);
  return (now() - t) / (double)n * 1e9;
}

static void vp_proc(uint64_t *s, const void *v) { XPROF_RECORD_PROC(s, v); }

/* 1. The value-profile recorder against an empty call, for 1 to 8
 * distinct targets. */
static void time_recorder(void) {
  uint64_t state[XPROF_ABI_VP_WORDS(4)] = {4};
  const long calls = 20000000;
  printf("value-profile recorder (4 values per site), %ld calls each:\n", calls);
  for (int distinct = 1; distinct <= 8; distinct *= 2) {
    double base = 1e9, cost = 1e9;
    for (int r = 0; r < 3; r++) { /* alternate, keep the best of 3 */
      double b = per_call(empty_record, state, distinct, calls);
      double c = per_call(vp_proc, state, distinct, calls);
      base = b < base ? b : base;
      cost = c < cost ? c : cost;
    }
    printf("  %d distinct target%s: %5.1f ns/call, empty call %4.1f ns: "
           "+%.1f ns\n",
           distinct, distinct > 1 ? "s" : " ", cost, base, cost - base);
  }
}

/* The counters of a made-up program's procedures, the same each time. */
static void fill_counters(struct xprof_abi_proc *procs, uint32_t n_procs) {
  for (uint32_t i = 0; i < n_procs; i++)
    for (int k = 0; k < 8; k++)
      procs[i].counters[k] = (i % 3 == 0) ? 0 : (uint64_t)(i + k);
}

/* n_procs procedures of 8 counters (*procs_out) spread over object files
 * of n_procs/1000 procedures, registered with the runtime to write the
 * profile `dir`; *n_obj gets their number.  The objects (NULL when out
 * of memory). */
static struct xprof_abi_object *make_program(uint32_t n_procs, const char *dir, uint32_t *n_obj,
                                             struct xprof_abi_proc **procs_out) {
  uint32_t per_obj = n_procs / 1000 ? n_procs / 1000 : 1;
  *n_obj = (n_procs + per_obj - 1) / per_obj;
  struct xprof_abi_object *objs = calloc(*n_obj, sizeof *objs);
  struct xprof_abi_proc *procs = calloc(n_procs, sizeof *procs);
  uint64_t *counters = calloc((size_t)n_procs * 8, sizeof *counters);
  char *names = malloc((size_t)n_procs * 48 + (size_t)*n_obj * 64);
  if (!objs || !procs || !counters || !names)
    return NULL;
  *procs_out = procs;
  char *np = names;
  for (uint32_t i = 0; i < n_procs; i++) {
    procs[i].name = np;
    np += sprintf(np, "_ZN5bench9function%uEv", i) + 1;
    procs[i].signature = 0x9e3779b97f4a7c15ull * (i + 1);
    procs[i].id = i;
    procs[i].n_counters = 8;
    procs[i].counters = counters + (size_t)i * 8;
  }
  fill_counters(procs, n_procs);
  for (uint32_t o = 0; o < *n_obj; o++) {
    uint32_t first = o * per_obj;
    uint32_t n = first + per_obj <= n_procs ? per_obj : n_procs - first;
    objs[o].abi_version = XPROF_ABI_VERSION;
    objs[o].flags = XPROF_ABI_ATOMIC_COUNTERS;
    objs[o].path = np;
    np += sprintf(np, "/bench/obj/file%04u.o", o) + 1;
    objs[o].tv_sec = 1763777000;
    objs[o].n_values_per_vp = 4;
    objs[o].signature = o + 1;
    objs[o].profile_name = dir;
    objs[o].n_procs = n;
    objs[o].n_counters = n * 8;
    objs[o].procs = procs + first;
    objs[o].counters = counters + (size_t)first * 8;
    XPROF_REGISTER(&objs[o]);
  }
  return objs;
}

/* The baseline of a write: path read and copied beside it, with fsync.
 * Seconds, or a negative number when it cannot be. */
static double time_copy(const char *path) {
  char copy[620];
  snprintf(copy, sizeof copy, "%s.copy", path);
  double t = now();
  int in = open(path, O_RDONLY), out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  static char buf[1 << 20];
  ssize_t r;
  int ok = in >= 0 && out >= 0;
  while (ok && (r = read(in, buf, sizeof buf)) > 0)
    ok = write(out, buf, (size_t)r) == r;
  ok = ok && fsync(out) == 0;
  close(in);
  close(out);
  double elapsed = now() - t;
  unlink(copy);
  return ok ? elapsed : -1;
}

int main(int argc, char **argv) {
  uint32_t n_procs = 100000;
  const char *dir = "/tmp/xprof-bench-runtime";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--procs") == 0 && i + 1 < argc)
      n_procs = (uint32_t)atoi(argv[++i]);
    else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
      dir = argv[++i];
    else {
      fprintf(stderr, "usage: bench_runtime [--procs N] [--dir DIR]\n");
      return 2;
    }
  }
  time_recorder();

  /* 2. Writing the profile of a program with n_procs procedures. */
  uint32_t n_obj;
  struct xprof_abi_proc *procs;
  struct xprof_abi_object *objs = make_program(n_procs, dir, &n_obj, &procs);
  if (!objs)
    return 1;
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf %s.profile", dir);
  if (system(cmd) != 0)
    return 1;
  double t = now();
  xprof_dump(); /* first write: no file yet */
  double first = now() - t;
  fill_counters(procs, n_procs); /* the same counts once more */
  t = now();
  xprof_dump(); /* read, merge, write */
  double second = now() - t;

  char path[600];
  snprintf(path, sizeof path, "%s.profile/feedback", dir);
  struct stat st;
  double copy_time = time_copy(path);
  if (stat(path, &st) != 0 || copy_time < 0)
    return 1;
  printf("write of a profile of %u procedures in %u object files (%.1f MB):\n",
         n_procs, n_obj, (double)st.st_size / 1e6);
  printf("  first write  %6.1f ms\n", first * 1e3);
  printf("  second write %6.1f ms (read, merge, write)\n", second * 1e3);
  printf("  copy of the file with fsync %6.1f ms: second write = %.1fx copy\n",
         copy_time * 1e3, second / copy_time);
  xprof_reset(); /* nothing more to write: unregistering writes nothing */
  for (uint32_t o = 0; o < n_obj; o++)
    XPROF_UNREGISTER(&objs[o]);
  return system(cmd) != 0;
}
