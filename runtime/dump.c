/*
 * dump.c - turning counters into profile data on disk.
 *
 * A write takes a snapshot of the registered objects (moving their counts
 * out, so that counting goes on from zero), then, per profile directory:
 * takes an fcntl lock on DIR/feedback.lock (released by the kernel if the
 * process dies), reads DIR/feedback, merges the snapshot into it, writes a
 * temporary file and renames it over DIR/feedback.  A concurrent process
 * waits for the lock, so nothing is lost; a process killed at any point
 * leaves the previous file intact.  When the write fails, the snapshot is
 * kept and merged into the next attempt.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_internal.h"

/* ---- where the data goes ----------------------------------------------- */

/* The program's file name (for NAME.profile), looked up once: every
 * write works out the directory of each registered object (dozens in a
 * program of many files), and /proc/self/exe names the same image for
 * the life of the process.  NULL when out of memory. */
static const char *program_name(void) {
  static char *name;
  if (name)
    return name;
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return name = xprof_format("%s", program_invocation_short_name);
  buf[n] = 0;
  const char *base = strrchr(buf, '/');
  return name = xprof_format("%s", base ? base + 1 : buf);
}

/* An environment variable that says where the profile goes.  In a
 * set-user-ID or set-group-ID program it would let whoever starts the
 * program choose where it writes (and makes directories) with the
 * program's rights: ignored there (rt_secure_getenv), and said once. */
static const char *path_variable(const char *var) {
  const char *v = rt_secure_getenv(var);
  static int said;
  if (!v && rt_getenv(var) && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    rt_message("%s is ignored: the program runs set-user-ID or set-group-ID, and would "
               "write where the caller chose with other rights than the caller's",
               var);
  return v;
}

char *rt_profile_dir(const struct xprof_abi_object *obj) {
  /* -xprofile=collect:NAME wins over the environment, as in Sun Studio. */
  if (obj->profile_name && obj->profile_name[0])
    return xprof_profile_dir_name(obj->profile_name);
  const char *dir = path_variable("SUN_PROFDATA_DIR");
  const char *name = path_variable("SUN_PROFDATA");
  char *own = NULL;
  if (!name || !*name) {
    const char *prog = program_name();
    own = prog ? xprof_profile_dir_name(prog) : NULL;
    if (!own)
      return NULL;
    name = own;
  }
  char *out = dir && *dir ? xprof_format("%s/%s", dir, name) : xprof_format("%s", name);
  xprof_free(own);
  return out;
}

/* ---- snapshots ------------------------------------------------------------ */

typedef struct target {
  const void *addr;
  const char *name;
  const char *objpath;
} target;

/* Every registered procedure by address, to name indirect-call targets:
 * a hash table, built at the first site with a callee to name, since
 * most writes (a child's exit after a few calls) have none, and sorting
 * every procedure of the program was a good part of their cost.  The
 * table holds indexes (the fewer pages a fork's child touches, the
 * less it copies). */
typedef struct targets {
  target *t;      /* in registration order; NULL: not built, or no memory */
  uint32_t *slot; /* index + 1 into t, 0: empty */
  size_t mask;
  int built;
} targets;

static void free_targets(targets *ts) {
  xprof_free(ts->t);
  xprof_free(ts->slot);
}

static int build_targets(targets *ts) {
  size_t n = 0, size = 16;
  for (struct xprof_abi_object *o = rt_objects; o; o = o->next)
    n += o->n_procs;
  while (size < 2 * n)
    size *= 2;
  ts->t = xprof_malloc((n + 1) * sizeof *ts->t);
  ts->slot = xprof_calloc(size, sizeof *ts->slot);
  if (!ts->t || !ts->slot || n >= UINT32_MAX) {
    free_targets(ts);
    ts->t = NULL;
    return -1;
  }
  ts->mask = size - 1;
  /* An address twice (a comdat function kept once, listed by each object
   * that has it) keeps the first object's name. */
  uint32_t k = 0;
  for (struct xprof_abi_object *o = rt_objects; o; o = o->next)
    for (uint32_t j = 0; j < o->n_procs; j++) {
      const void *addr = o->procs[j].address;
      size_t i = rt_hash_ptr(addr) & ts->mask;
      while (addr && ts->slot[i] && ts->t[ts->slot[i] - 1].addr != addr)
        i = (i + 1) & ts->mask;
      if (addr && !ts->slot[i]) {
        ts->t[k] = (target){addr, o->procs[j].name, o->path};
        ts->slot[i] = ++k;
      }
    }
  return 0;
}

/* The procedure at addr, or NULL (not one of ours, or out of memory:
 * the callee then goes unnamed). */
static const target *find_target(targets *ts, uint64_t addr) {
  if (!ts->built) {
    ts->built = 1;
    build_targets(ts);
  }
  const void *key = (const void *)(uintptr_t)addr;
  if (!ts->t || !key)
    return NULL;
  size_t i = rt_hash_ptr(key) & ts->mask;
  while (ts->slot[i] && ts->t[ts->slot[i] - 1].addr != key)
    i = (i + 1) & ts->mask;
  return ts->slot[i] ? &ts->t[ts->slot[i] - 1] : NULL;
}

/* Counter arrays already taken in this snapshot: a comdat function's
 * array is shared by every object file that has the function (the linker
 * kept one), and each of them must record the same counts. */
typedef struct taken {
  const uint64_t *counters;
  uint32_t obj, proc; /* where its counts went */
} taken;

typedef struct snap_ctx {
  xprof_profile *p;
  targets *targets;
  uint64_t *scratch; /* counters or value-profile state */
  size_t scratch_len;
  taken *seen;       /* open addressing by counters address */
  size_t seen_mask;
  const char **paths; /* the object files taken, open addressing by path */
  size_t paths_mask;
} snap_ctx;

/* Whether an object file of this path is in the snapshot already (the
 * same object linked into two modules); enters it if not.  A hash, not
 * a search of the snapshot: a program has hundreds of object files,
 * whose paths share long prefixes, and every process writes at exit. */
static int path_taken(snap_ctx *c, const char *path) {
  size_t i = (size_t)xprof_hash64(path, strlen(path)) & c->paths_mask;
  for (; c->paths[i]; i = (i + 1) & c->paths_mask)
    if (strcmp(c->paths[i], path) == 0)
      return 1;
  c->paths[i] = path;
  return 0;
}

static taken *seen_slot(snap_ctx *c, const uint64_t *counters) {
  for (size_t i = rt_hash_ptr(counters) & c->seen_mask;; i = (i + 1) & c->seen_mask)
    if (!c->seen[i].counters || c->seen[i].counters == counters)
      return &c->seen[i];
}

/* Copy counts already taken for the same counter array. */
static int copy_taken(snap_ctx *c, const xprof_objfile *from,
                      const xprof_proc *src, const xprof_objfile *o,
                      xprof_proc *f) {
  if (src->n_counters) {
    if (xprof_proc_alloc_counters(c->p, f, src->n_counters) < 0)
      return -1;
    memcpy(f->counters, src->counters, (size_t)src->n_counters * 8);
  }
  if (src->n_vp_records && o->n_values_per_vp == from->n_values_per_vp) {
    if (xprof_proc_alloc_vp(c->p, o, f, src->n_vp_records) < 0)
      return -1;
    for (uint32_t r = 0; r < src->n_vp_records; r++) {
      f->vp[r].type = src->vp[r].type;
      f->vp[r].expr_id = src->vp[r].expr_id;
      memcpy(f->vp[r].values, src->vp[r].values,
             (size_t)o->n_values_per_vp * sizeof(xprof_vp_value));
    }
  }
  return 0;
}

static int need_scratch(snap_ctx *c, size_t n) {
  if (n <= c->scratch_len)
    return 0;
  uint64_t *s = xprof_realloc(c->scratch, n * sizeof *s);
  if (!s)
    return -1;
  c->scratch = s;
  c->scratch_len = n;
  return 0;
}

/* Move a procedure's counts into c->scratch.  Returns 1 when one is not
 * zero, 0 when all are, -1 when out of memory. */
static int take_counters(snap_ctx *c, const struct xprof_abi_object *obj,
                         const struct xprof_abi_proc *rp) {
  if (need_scratch(c, rp->n_counters + 1) < 0)
    return -1;
  for (uint32_t k = 0; k < rp->n_counters; k++) {
    uint64_t v = 0;
    if (__atomic_load_n(&rp->counters[k], __ATOMIC_RELAXED))
      v = __atomic_exchange_n(&rp->counters[k], 0, __ATOMIC_RELAXED);
    c->scratch[k] = v;
  }
  rt_threads_take(obj, rp, c->scratch);
  for (uint32_t k = 0; k < rp->n_counters; k++)
    if (c->scratch[k])
      return 1;
  return 0;
}

/* A site's pairs as candidate values: numbers as they are; callees named
 * by the procedure at the address (proc set to a placeholder until the
 * kept ones are named), those xprof did not compile pooled as one empty
 * value, with the events the recorder could not give to a value
 * (`lost`); for numbers, those go to the value with the smallest count,
 * within the recorder's own error.  Returns the number of candidates. */
static uint32_t site_candidates(const snap_ctx *c, int is_proc, const uint64_t *pair,
                                uint32_t n, uint64_t lost, xprof_vp_value *cand) {
  static const char named[] = "";
  uint32_t k = 0, unnamed = UINT32_MAX;
  if (is_proc && lost) {
    unnamed = k;
    cand[k++] = (xprof_vp_value){lost, 0, NULL};
  }
  for (uint32_t i = 0; i < n; i++) {
    uint64_t value = pair[2 * i], cnt = pair[2 * i + 1];
    if (!cnt)
      continue;
    if (!is_proc) {
      cand[k++] = (xprof_vp_value){cnt, value, NULL};
    } else if (find_target(c->targets, value)) {
      cand[k++] = (xprof_vp_value){cnt, value, named};
    } else if (unnamed == UINT32_MAX) {
      unnamed = k;
      cand[k++] = (xprof_vp_value){cnt, 0, NULL};
    } else {
      cand[unnamed].count = xprof_sat_add(cand[unnamed].count, cnt);
    }
  }
  if (!is_proc && lost && k) {
    uint32_t least = 0;
    for (uint32_t i = 1; i < k; i++)
      if (cand[i].count < cand[least].count)
        least = i;
    cand[least].count = xprof_sat_add(cand[least].count, lost);
  }
  return k;
}

static int take_site(snap_ctx *c, const struct xprof_abi_vp_site *site,
                     uint32_t nv, xprof_vp_record *rec, int *has) {
  uint32_t words = rt_vp_words(site->state);
  if (need_scratch(c, rt_vp_copy_words(site->state)) < 0)
    return -1;
  rt_vp_take(site->state, c->scratch, words);
  uint32_t n = rt_vp_pairs(c->scratch);
  int is_proc = site->type == XPROF_ABI_VP_PROC;
  xprof_vp_value *cand = xprof_malloc(((size_t)n + 1) * sizeof *cand);
  if (!cand)
    return -1;
  uint32_t k = site_candidates(c, is_proc, c->scratch + 2, n, c->scratch[1], cand);
  *has = k != 0;
  if (!k) {
    xprof_free(cand);
    return 0;
  }
  rec->type = (xprof_vp_type)site->type;
  rec->expr_id = site->expr_id;
  /* At most nv values (a histogram has more buckets, a site may have more
   * pairs); an indirect call's record keeps the sum of its counts. */
  xprof_vp_keep_largest(rec->type, cand, k, rec->values, nv);
  xprof_free(cand);
  for (uint32_t i = 0; i < nv && is_proc; i++) {
    xprof_vp_value *v = &rec->values[i];
    if (!v->proc)
      continue;
    const target *t = find_target(c->targets, v->bits);
    char *name = xprof_format("%s:%s", t->name, t->objpath);
    v->proc = name ? xprof_strdup(c->p, name) : NULL;
    v->bits = 0;
    xprof_free(name);
    if (!v->proc)
      return -1;
  }
  return 0;
}

static int vp_record_cmp(const void *a, const void *b) {
  uint32_t x = ((const xprof_vp_record *)a)->expr_id,
           y = ((const xprof_vp_record *)b)->expr_id;
  return x < y ? -1 : x > y;
}

/* A procedure's record but its counts and values, from the object's. */
static void proc_header(xprof_proc *f, const struct xprof_abi_proc *rp) {
  f->signature = rp->signature;
  f->id = rp->id;
  f->n_vp_sites = rp->n_vp_sites;
  f->first_run = rp->first_run ? __atomic_load_n(rp->first_run, __ATOMIC_RELAXED) : 0;
  /* Borrowed from the object, whose data outlives the write; a snapshot
   * kept after a failed write gets copies (own_shapes). */
  f->shape = rp->shape_size ? rp->shape : NULL;
  f->shape_size = f->shape ? rp->shape_size : 0;
}

/* Move the values of rp's sites into records of c->p: *recs, *n of them
 * (0 and NULL when no site has one).  Returns -1 when out of memory. */
static int take_sites(snap_ctx *c, const struct xprof_abi_object *obj,
                      const struct xprof_abi_proc *rp, xprof_vp_record **recs, uint32_t *n) {
  uint32_t nv = obj->n_values_per_vp, s = 0;
  *recs = NULL;
  *n = 0;
  while (s < rp->n_vp_sites && nv && !rt_vp_counted(rp->vp_sites[s].state))
    s++;
  if (s == rp->n_vp_sites || !nv)
    return 0;
  xprof_vp_record *r = xprof_alloc(c->p, (size_t)rp->n_vp_sites * sizeof *r);
  if (!r)
    return -1;
  for (; s < rp->n_vp_sites; s++) {
    int has;
    r[*n].values = xprof_alloc(c->p, (size_t)nv * sizeof(xprof_vp_value));
    if (!r[*n].values || take_site(c, &rp->vp_sites[s], nv, &r[*n], &has) < 0)
      return -1;
    *n += has != 0;
  }
  if (*n > 1)
    xprof_sort(r, *n, sizeof *r, vp_record_cmp);
  *recs = r;
  return 0;
}

/* Add one object's counts to the snapshot profile: the procedures that
 * counted something, or first ran in this process, in the object's
 * order.  The others add nothing to a profile that knows this build of
 * the object, which every write after a program's first finds; for one
 * that does not, write_dir completes the snapshot (complete_snapshot).
 * A forked child, which writes at its exit after running a little of
 * its program, so builds and merges records of that little. */
static int take_object(snap_ctx *c, const struct xprof_abi_object *obj) {
  xprof_objfile *o = xprof_add_objfile(c->p, obj->path);
  if (!o)
    return -1;
  o->tv_sec = obj->tv_sec;
  o->tv_usec = obj->tv_usec;
  o->n_values_per_vp = obj->n_values_per_vp;
  o->signature = obj->signature;
  /* Room for every procedure at once, not by doubling (each time a copy
   * into fresh memory). */
  if (obj->n_procs && !(o->procs = xprof_malloc((size_t)obj->n_procs * sizeof *o->procs)))
    return -1;
  o->cap_procs = obj->n_procs;
  uint32_t obj_index = c->p->n_objfiles - 1;
  for (uint32_t j = 0; j < obj->n_procs; j++) {
    const struct xprof_abi_proc *rp = &obj->procs[j];
    taken *t = rp->n_counters && c->seen ? seen_slot(c, rp->counters) : NULL;
    const xprof_proc *same = NULL; /* the record of another holder of rp's counters */
    xprof_vp_record *recs = NULL;
    uint32_t n_recs = 0;
    uint64_t *counts = NULL; /* taken, when not all zero */
    int counted = 0;
    if (t && t->counters) {
      /* A comdat function's counters, taken for an object before. */
      if (t->proc != UINT32_MAX)
        same = &c->p->objfiles[t->obj].procs[t->proc];
    } else {
      if (t) {
        t->counters = rp->counters;
        t->obj = obj_index;
        t->proc = UINT32_MAX; /* no record (yet) */
      }
      /* The counts out of the scratch before the sites use it. */
      if ((counted = take_counters(c, obj, rp)) < 0)
        return -1;
      if (counted && !(counts = xprof_alloc(c->p, (size_t)rp->n_counters * sizeof *counts)))
        return -1;
      if (counted)
        memcpy(counts, c->scratch, (size_t)rp->n_counters * sizeof *counts);
      if (take_sites(c, obj, rp, &recs, &n_recs) < 0)
        return -1;
    }
    uint64_t first = rp->first_run ? __atomic_load_n(rp->first_run, __ATOMIC_RELAXED) : 0;
    if (!same && !counted && !n_recs && first <= rt_first_run_floor)
      continue;
    xprof_proc *f = xprof_add_proc(c->p, o, rp->name);
    if (!f)
      return -1;
    proc_header(f, rp);
    if (same) {
      if (copy_taken(c, &c->p->objfiles[t->obj], same, o, f) < 0)
        return -1;
      continue;
    }
    if (t)
      t->proc = o->n_procs - 1;
    f->counters = counts;
    f->n_counters = counts ? rp->n_counters : 0;
    f->vp = recs;
    f->n_vp_records = n_recs;
  }
  return 0;
}

/* The registered object whose data snapshot object file o holds, or
 * NULL.  By signature first: a scan of integers, and a path compared
 * once. */
static const struct xprof_abi_object *object_of(const xprof_objfile *o) {
  for (const struct xprof_abi_object *obj = rt_objects; obj; obj = obj->next)
    if (obj->signature == o->signature && obj->n_values_per_vp == o->n_values_per_vp &&
        strcmp(obj->path, o->path) == 0)
      return obj;
  return NULL;
}

/* The record of `name` among o's, looked for at *hint first (the
 * snapshot lists an object's procedures in its order), then everywhere
 * when `all`; NULL if none. */
static xprof_proc *record_named(xprof_objfile *o, uint32_t *hint, const char *name, int all) {
  for (uint32_t i = 0; i < o->n_procs && (i == 0 || all); i++) {
    uint32_t k = (*hint + i) % o->n_procs;
    if (strcmp(o->procs[k].name, name) == 0) {
      *hint = k + 1;
      return &o->procs[k];
    }
  }
  return NULL;
}

/* Every procedure of obj in o, in obj's order: the records o has, and
 * one without counts for each other.  Where o's records are not in that
 * order (an object file linked into two modules, merged), a second pass
 * looks for each.  Returns -1 when out of memory. */
static int complete_objfile(xprof_profile *p, xprof_objfile *o,
                            const struct xprof_abi_object *obj) {
  if (o->n_procs == obj->n_procs)
    return 0;
  xprof_proc *procs = xprof_calloc((size_t)obj->n_procs + 1, sizeof *procs);
  if (!procs)
    return -1;
  for (int all = 0; all < 2; all++) {
    uint32_t hint = 0, found = 0;
    for (uint32_t j = 0; j < obj->n_procs; j++) {
      const struct xprof_abi_proc *rp = &obj->procs[j];
      xprof_proc *had = o->n_procs ? record_named(o, &hint, rp->name, all) : NULL;
      found += had != NULL;
      if (had) {
        procs[j] = *had;
        continue;
      }
      memset(&procs[j], 0, sizeof procs[j]);
      if (!(procs[j].name = xprof_strdup(p, rp->name))) {
        xprof_free(procs);
        return -1;
      }
      proc_header(&procs[j], rp);
    }
    if (found == o->n_procs)
      break; /* (else the second pass: a record not found in order) */
  }
  xprof_free(o->procs);
  o->procs = procs;
  o->n_procs = o->cap_procs = obj->n_procs;
  return 0;
}

/* Every procedure of every object file of the snapshot, for a profile
 * that does not know the objects' builds (take_object says why they
 * may be missing).  An object no longer registered keeps what it has.
 * Returns -1 when out of memory. */
static int complete_snapshot(xprof_profile *snap) {
  for (uint32_t i = 0; i < snap->n_objfiles; i++) {
    const struct xprof_abi_object *obj = object_of(&snap->objfiles[i]);
    if (obj && complete_objfile(snap, &snap->objfiles[i], obj) < 0)
      return -1;
  }
  return 0;
}

/* The object in its module's program record: once, though it may be
 * registered twice (dup: its path was taken before), as each object
 * file's records are. */
static int add_program(xprof_profile *p, const struct xprof_abi_object *obj, int dup) {
  const char *module = rt_object_module(obj);
  xprof_program *g = xprof_find_program(p, module);
  if (!g && !(g = xprof_add_program(p, module)))
    return -1;
  for (uint32_t i = 0; dup && i < g->n_objrefs; i++)
    if (strcmp(g->objrefs[i], obj->path) == 0)
      return 0;
  return xprof_program_add_objref(p, g, obj->path);
}

/* Snapshot the objects going to `dir` (all of them, or just `only`);
 * obj_dirs[i] is the directory of the i-th registered object, the same
 * pointer as dir when it goes there (struct dir_list). */
static xprof_profile *snapshot(const char *dir, char *const *obj_dirs,
                               const struct xprof_abi_object *only,
                               targets *targets) {
  snap_ctx c = {xprof_profile_new(), targets, NULL, 0, NULL, 0, NULL, 0};
  if (!c.p)
    return NULL;
  size_t n_procs = 0, n_objs = 0;
  for (struct xprof_abi_object *o = rt_objects; o; o = o->next, n_objs++)
    n_procs += o->n_procs;
  size_t slots = 16, path_slots = 16;
  while (slots < 2 * n_procs)
    slots *= 2;
  while (path_slots < 2 * n_objs)
    path_slots *= 2;
  c.seen = xprof_calloc(slots, sizeof *c.seen);
  c.paths = xprof_calloc(path_slots, sizeof *c.paths);
  c.seen_mask = slots - 1;
  c.paths_mask = path_slots - 1;
  if (!c.seen || !c.paths) {
    xprof_free(c.seen);
    xprof_free(c.paths);
    xprof_profile_free(c.p);
    return NULL;
  }
  size_t idx = 0;
  for (struct xprof_abi_object *o = rt_objects; o; o = o->next, idx++) {
    if ((only && o != only) || obj_dirs[idx] != dir ||
        (o->flags & XPROF_ABI_SAMPLER_ONLY))
      continue;
    int rc, dup = path_taken(&c, o->path);
    if (dup) {
      /* The same object file linked into two modules: merge the second. */
      xprof_profile *one = xprof_profile_new();
      snap_ctx c2 = {one, targets, c.scratch, c.scratch_len, NULL, 0, NULL, 0};
      rc = one ? take_object(&c2, o) : -1;
      c.scratch = c2.scratch;
      c.scratch_len = c2.scratch_len;
      if (rc == 0)
        rc = xprof_merge(c.p, one, 1, XPROF_REPLACE_OBJFILE, NULL);
      xprof_profile_free(one);
    } else {
      rc = take_object(&c, o);
    }
    if (rc < 0 || add_program(c.p, o, dup) < 0) {
      xprof_free(c.scratch);
      xprof_free(c.seen);
      xprof_free(c.paths);
      xprof_profile_free(c.p);
      return NULL;
    }
  }
  xprof_free(c.scratch);
  xprof_free(c.seen);
  xprof_free(c.paths);
  return c.p;
}

/* ---- runs ----------------------------------------------------------------
 *
 * GCC sets its hot threshold from the sum of each training run's largest
 * counter, and its "never executed" one from the number of runs (see
 * xprof_profile.runs).  A process is one run of each directory it writes,
 * counted at its first write there; the largest counter of every write
 * is added, so that a process that writes as it goes (SUN_PROFDATA_ASYNC)
 * adds up its stretches as one run would. */

static struct counted_dir {
  char *dir;
  struct counted_dir *next;
} *counted_dirs;

/* Whether this process has counted its run of dir before; counts it. */
static int run_counted(const char *dir) {
  for (struct counted_dir *d = counted_dirs; d; d = d->next)
    if (strcmp(d->dir, dir) == 0)
      return 1;
  struct counted_dir *d = xprof_malloc(sizeof *d);
  if (d && (d->dir = xprof_format("%s", dir))) {
    d->next = counted_dirs;
    counted_dirs = d;
  } else {
    xprof_free(d);
  }
  return 0;
}

/* A forked child is a run of its own. */
void rt_forget_runs_locked(void) {
  while (counted_dirs) {
    struct counted_dir *n = counted_dirs->next;
    xprof_free(counted_dirs->dir);
    xprof_free(counted_dirs);
    counted_dirs = n;
  }
}

/* Give snap, this process's write to dir, its share of the runs. */
static void note_run(const char *dir, xprof_profile *snap) {
  snap->runs = run_counted(dir) ? 0 : 1;
  snap->run_max_sum = xprof_max_counter(snap);
}

/* The list above is one copy's of the runtime.  A process may hold
 * several copies that do not know each other: a library loaded with
 * dlmopen into a namespace of its own, or instrumented libraries that a
 * program built without xprof loads with RTLD_LOCAL (each binds its own
 * copy).  Each would count the process as a run.  So the directory's
 * lock file also keeps the tokens of the processes that wrote there last
 * (a line each): a copy whose process's token is there already counts no
 * run.  The token is the pid and the kernel's random bytes of this
 * program image (AT_RANDOM): the same for every copy in the process,
 * another for a forked child and after an exec. */
#define RT_TOKENS_KEPT 8192 /* bytes of tokens kept: a few hundred writers */

static void process_token(char *buf, size_t size) {
  const unsigned char *r = (const unsigned char *)getauxval(AT_RANDOM);
  uint64_t h = r ? xprof_hash64(r, 16) : 0;
  snprintf(buf, size, "%ld %016llx\n", (long)getpid(), (unsigned long long)h);
}

/* Whether the lock file (fd, locked) holds this process's token. */
static int run_told(int fd) {
  char token[64];
  process_token(token, sizeof token);
  size_t size = RT_TOKENS_KEPT + 64, len = strlen(token);
  char *buf = xprof_malloc(size); /* not the stack: exit may run on a thread's small one */
  ssize_t n = buf ? pread(fd, buf, size - 1, 0) : -1;
  int told = 0;
  if (n > 0) {
    buf[n] = 0;
    for (const char *p = buf; !told && (p = strstr(p, token)); p += len)
      told = p == buf || p[-1] == '\n';
  }
  xprof_free(buf);
  return told;
}

/* Add this process's token to the lock file (fd, locked), starting the
 * list afresh once it is long. */
static void tell_run(int fd) {
  char token[64];
  process_token(token, sizeof token);
  struct stat st;
  if (fstat(fd, &st) == 0 && st.st_size > RT_TOKENS_KEPT && ftruncate(fd, 0) < 0)
    return;
  off_t end = lseek(fd, 0, SEEK_END);
  if (end >= 0)
    (void)!pwrite(fd, token, strlen(token), end);
}

/* ---- data kept from failed writes ------------------------------------- */

typedef struct pending {
  char *dir;
  xprof_profile *p;
  struct pending *next;
} pending;

static pending *pending_list;

void rt_drop_pending_locked(void) {
  while (pending_list) {
    pending *n = pending_list->next;
    xprof_free(pending_list->dir);
    xprof_profile_free(pending_list->p);
    xprof_free(pending_list);
    pending_list = n;
  }
}

static pending *find_pending(const char *dir) {
  for (pending *q = pending_list; q; q = q->next)
    if (strcmp(q->dir, dir) == 0)
      return q;
  return NULL;
}

/* A kept snapshot may outlive the objects whose shapes it borrowed (a
 * dlclose before the next attempt): copies of its own.  Returns 0, or -1
 * when out of memory. */
static int own_shapes(xprof_profile *p) {
  for (uint32_t k = 0; k < p->n_objfiles; k++)
    for (uint32_t j = 0; j < p->objfiles[k].n_procs; j++) {
      xprof_proc *f = &p->objfiles[k].procs[j];
      if (xprof_proc_set_shape(p, f, f->shape, f->shape_size) < 0)
        return -1;
    }
  return 0;
}

/* Keep `snap` for the next attempt; takes ownership. */
static void keep_pending(const char *dir, xprof_profile *snap) {
  pending *q = xprof_malloc(sizeof *q);
  /* Complete while its objects are registered: the next attempt may
   * find a profile that does not know them, after they are gone. */
  if (!q || complete_snapshot(snap) < 0 || own_shapes(snap) < 0 ||
      !(q->dir = xprof_format("%s", dir))) {
    xprof_free(q);
    xprof_profile_free(snap);
    return;
  }
  q->p = snap;
  q->next = pending_list;
  pending_list = q;
}

/* ---- writing one profile directory ------------------------------------ */

struct write_ctx {
  const xprof_profile *p;
  unsigned pause_ms; /* test hook: XPROF_TEST_PAUSE_BEFORE_RENAME_MS */
};

static int write_then_pause(void *ctx, int fd, const char *name,
                            xprof_error *err) {
  struct write_ctx *w = ctx;
  int rc = xprof_binary_write_counts_fd(w->p, fd, name, err);
  if (rc == 0 && w->pause_ms) {
    struct timespec ts = {w->pause_ms / 1000, (long)(w->pause_ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
  }
  return rc;
}

/* Remove temporary files left by writers that died (we hold the lock, so
 * no live writer owns one).  getdents64, not opendir: that calls malloc. */
static void remove_stale_temporaries(const char *dir) {
  static const char prefix[] = XPROF_FEEDBACK_FILE ".tmp.", shapes[] = XPROF_SHAPES_FILE ".tmp.";
  int fd = xprof_open(dir, O_RDONLY | O_DIRECTORY, 0);
  if (fd < 0)
    return;
  _Alignas(struct dirent64) char buf[8192];
  ssize_t n;
  while ((n = getdents64(fd, buf, sizeof buf)) > 0)
    for (ssize_t off = 0; off < n;) {
      const struct dirent64 *e = (const struct dirent64 *)(const void *)(buf + off);
      off += e->d_reclen;
      if (strncmp(e->d_name, prefix, sizeof prefix - 1) == 0 ||
          strncmp(e->d_name, shapes, sizeof shapes - 1) == 0)
        unlinkat(fd, e->d_name, 0);
    }
  close(fd);
}

static int lock_dir(const char *dir, const char *what) {
  char *path = xprof_format("%s/" XPROF_FEEDBACK_FILE ".lock", dir);
  if (!path)
    return -1;
  int fd = xprof_open(path, O_RDWR | O_CREAT, 0666);
  if (fd < 0) {
    rt_message("cannot write profile data to %s/" XPROF_FEEDBACK_FILE
               ": cannot create the lock file %s: %s; %s",
               dir, path, strerror(errno), what);
    xprof_free(path);
    return -1;
  }
  struct flock fl = {0};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  while (fcntl(fd, F_SETLKW, &fl) < 0) {
    if (errno == EINTR)
      continue;
    rt_message("cannot lock %s: %s; %s", path, strerror(errno), what);
    close(fd);
    xprof_free(path);
    return -1;
  }
  xprof_free(path);
  return fd;
}

/* The shapes of `fresh` (object files new to the directory's counts, and
 * any shapes older data kept among the counts) into DIR/shapes, under the
 * directory's lock.  Every training run after the first of a build has
 * none to write: the exit write then leaves the shapes alone.  A shapes
 * file that cannot be read is replaced; one that cannot be written costs
 * salvage its shapes, not the counts, and says so. */
static void write_shapes(const char *dir, const xprof_profile *fresh) {
  if (!fresh->n_objfiles)
    return;
  char *path = xprof_format("%s/" XPROF_SHAPES_FILE, dir);
  xprof_profile *shapes = NULL;
  xprof_error err;
  struct stat st;
  if (!path)
    return;
  if (stat(path, &st) == 0 && xprof_binary_read_file(path, &shapes, &err) < 0)
    rt_message("%s; replaced by the shapes of this build", err.msg);
  sigset_t mask;
  if (xprof_shapes_update(&shapes, fresh) < 0) {
    rt_message("cannot write %s: out of memory; a changed function's counts will not be salvaged",
               path);
  } else {
    int pending = rt_hold_write_signals(&mask);
    int rc = xprof_binary_write_file(shapes, path, &err);
    rt_release_write_signals(&mask, pending);
    if (rc < 0)
      rt_message("cannot write the shapes: %s; a changed function's counts will not be salvaged",
                 err.msg);
  }
  xprof_profile_free(shapes);
  xprof_free(path);
}

/* The profile data at path into *existing (NULL when there is none, or
 * when it was damaged or foreign: then moved aside, and said).  Returns
 * 0, or -1 (said) when it cannot be read or moved aside. */
static int read_existing(const char *path, xprof_profile **existing, const char *lost) {
  xprof_error err;
  struct stat st;
  *existing = NULL;
  if (stat(path, &st) < 0) {
    if (errno == ENOENT)
      return 0;
    rt_message("cannot write profile data to %s: %s; %s", path, strerror(errno), lost);
    return -1;
  }
  if (xprof_read_file(path, existing, &err) == 0)
    return 0;
  *existing = NULL;
  if (err.code == XPROF_ERR_IO || err.code == XPROF_ERR_NOMEM) {
    rt_message("cannot read the existing profile data: %s; %s", err.msg, lost);
    return -1;
  }
  /* Damaged or foreign data: keep it aside, start afresh. */
  char *aside = xprof_format("%s.corrupt.%ld.%d", path, (long)time(NULL), (int)getpid());
  if (!aside)
    return -1;
  int rc = rename(path, aside);
  if (rc < 0)
    rt_message("%s; cannot move it aside (%s); %s", err.msg, strerror(errno), lost);
  else
    rt_message("%s; kept it as %s and started a new profile", err.msg, aside);
  xprof_free(aside);
  return rc < 0 ? -1 : 0;
}

static int write_dir(const char *dir, xprof_profile *snap, enum rt_occasion when) {
  /* At the end of the process (or of this image) there is no next write. */
  const char *lost = when >= RT_AT_EXIT ? "the counts of this run are lost"
                                        : "the counts are kept for the next write";
  xprof_error err;
  if (xprof_mkdirs(dir, &err) < 0) {
    rt_message("cannot write profile data: %s; %s", err.msg, lost);
    return -1;
  }
  int lock = lock_dir(dir, lost);
  if (lock < 0)
    return -1;
  remove_stale_temporaries(dir);
  /* Another copy of the runtime in this process counted its run here. */
  int told = snap->runs && run_told(lock);
  if (told)
    snap->runs--;

  char *path = xprof_format("%s/" XPROF_FEEDBACK_FILE, dir);
  if (!path) {
    close(lock);
    return -1;
  }
  int rc = -1;
  xprof_profile *existing = NULL, *fresh = NULL;
  if (read_existing(path, &existing, lost) < 0)
    goto out;
  /* A profile that does not know every object's build gets every
   * procedure of them, run or not (take_object). */
  if ((!existing || xprof_knows_builds(existing, snap) != 1) && complete_snapshot(snap) < 0) {
    rt_message("cannot write profile data to %s: out of memory; %s", path, lost);
    goto out;
  }
  /* Shapes the counts do not know yet: the object files new to them, and
   * those older data kept among its counts (moved to the shapes file). */
  fresh = xprof_shapes_of(snap, existing);
  if (fresh && existing && xprof_has_shapes(existing)) {
    xprof_profile *kept = xprof_shapes_of(existing, NULL);
    if (!kept || xprof_shapes_update(&kept, fresh) < 0) {
      xprof_profile_free(kept);
      kept = NULL;
    }
    xprof_profile_free(fresh);
    fresh = kept;
  }
  if (!fresh) {
    rt_message("cannot write profile data to %s: out of memory; %s", path, lost);
    goto out;
  }
  if (existing) {
    existing->no_shapes = 1; /* the shapes went to `fresh` */
    if (xprof_merge(existing, snap, 1, rt_settings.replace, &err) < 0) {
      rt_message("cannot merge into %s: %s; %s", path, err.msg, lost);
      goto out;
    }
  }
  const char *pause = rt_getenv("XPROF_TEST_PAUSE_BEFORE_RENAME_MS");
  struct write_ctx w = {existing ? existing : snap,
                        pause ? (unsigned)strtoul(pause, NULL, 10) : 0};
  sigset_t mask;
  int pending = rt_hold_write_signals(&mask);
  rc = xprof_atomic_write(path, write_then_pause, &w, &err);
  rt_release_write_signals(&mask, pending);
  if (rc < 0)
    rt_message("cannot write profile data: %s; %s", err.msg, lost);
  else
    write_shapes(dir, fresh);
  if (rc == 0 && !told && snap->runs)
    tell_run(lock);
out:
  xprof_profile_free(fresh);
  xprof_profile_free(existing);
  xprof_free(path);
  close(lock); /* releases the lock */
  return rc;
}

/* ---- the dump ------------------------------------------------------------ */

/* The profile directories of a write: each distinct one once, in dirs[]
 * (which owns them), and each registered object's (all, or only
 * `only`'s), pointing into dirs[] (NULL for the others), so that an
 * object goes to dirs[i] when obj_dirs[k] == dirs[i]. */
struct dir_list {
  char **obj_dirs, **dirs;
  size_t n_objs, n_dirs;
};

/* Whether two objects name the same profile (-xprofile=collect:NAME,
 * or none: the environment's and the program's). */
static int same_profile_name(const char *a, const char *b) {
  a = a && *a ? a : NULL;
  b = b && *b ? b : NULL;
  return a == b || (a && b && strcmp(a, b) == 0);
}

/* Returns 0, or -1 when out of memory.  An object that names the
 * profile its predecessor named goes where that one goes: most programs
 * send every object to one directory, which is worked out once, not
 * once per object file at every write. */
static int profile_dirs(const struct xprof_abi_object *only, struct dir_list *l) {
  l->n_objs = l->n_dirs = 0;
  for (struct xprof_abi_object *o = rt_objects; o; o = o->next)
    l->n_objs++;
  l->obj_dirs = xprof_calloc(l->n_objs + 1, sizeof *l->obj_dirs);
  l->dirs = xprof_calloc(l->n_objs + 1, sizeof *l->dirs);
  if (!l->obj_dirs || !l->dirs) {
    xprof_free(l->obj_dirs);
    xprof_free(l->dirs);
    return -1;
  }
  const struct xprof_abi_object *prev = NULL;
  size_t idx = 0;
  for (struct xprof_abi_object *o = rt_objects; o; o = o->next, idx++) {
    if (only && o != only)
      continue;
    if (prev && same_profile_name(prev->profile_name, o->profile_name)) {
      l->obj_dirs[idx] = l->obj_dirs[idx - 1];
      prev = o;
      continue;
    }
    prev = o;
    char *d = rt_profile_dir(o);
    if (!d)
      continue;
    size_t i = 0;
    while (i < l->n_dirs && strcmp(l->dirs[i], d) != 0)
      i++;
    if (i < l->n_dirs)
      xprof_free(d);
    else
      l->dirs[l->n_dirs++] = d;
    l->obj_dirs[idx] = l->dirs[i];
  }
  return 0;
}

static void free_dirs(struct dir_list *l) {
  for (size_t i = 0; i < l->n_dirs; i++)
    xprof_free(l->dirs[i]);
  xprof_free(l->obj_dirs);
  xprof_free(l->dirs);
}

/* The snapshot for dir with what an earlier failed write to it kept,
 * which is dropped from the pending list either way (with a message when
 * it cannot be merged in). */
static xprof_profile *with_pending(const char *dir, xprof_profile *snap) {
  pending *q = find_pending(dir);
  if (!q)
    return snap;
  xprof_error err;
  if (xprof_merge(q->p, snap, 1, rt_settings.replace, &err) == 0) {
    xprof_profile_free(snap);
    snap = q->p;
    q->p = NULL;
  } else {
    rt_message("cannot merge the counts kept from an earlier failed write to %s "
               "into this one: %s; those counts are lost",
               dir, err.msg);
  }
  pending **pp = &pending_list;
  while (*pp != q)
    pp = &(*pp)->next;
  *pp = q->next;
  xprof_profile_free(q->p);
  xprof_free(q->dir);
  xprof_free(q);
  return snap;
}

static int snapshot_empty(const xprof_profile *snap) {
  if (snap->n_images)
    return 0;
  for (uint32_t k = 0; k < snap->n_objfiles; k++)
    for (uint32_t j = 0; j < snap->objfiles[k].n_procs; j++)
      if (snap->objfiles[k].procs[j].n_counters || snap->objfiles[k].procs[j].n_vp_records)
        return 0;
  return 1;
}

/* Whether obj counted anything since its last write: a counter, a
 * thread's copy, a value-profile site.  A look, where a snapshot moves
 * the counts into a profile it builds for every procedure. */
static int object_counted(const struct xprof_abi_object *obj) {
  const uint64_t *looked = NULL;
  for (uint32_t j = 0; j < obj->n_procs; j++) {
    const struct xprof_abi_proc *rp = &obj->procs[j];
    for (uint32_t k = 0; k < rp->n_counters; k++)
      if (__atomic_load_n(&rp->counters[k], __ATOMIC_RELAXED))
        return 1;
    if (rt_threads_counted(obj, rp, &looked))
      return 1;
    for (uint32_t s = 0; s < rp->n_vp_sites && obj->n_values_per_vp; s++)
      if (rt_vp_counted(rp->vp_sites[s].state))
        return 1;
  }
  return 0;
}

int rt_dump_locked(const struct xprof_abi_object *only, enum rt_occasion when) {
  if (rt_dumped && when != RT_ON_REQUEST)
    return 0;
  /* The write of one object (its destructor: at exit, after the
   * exit-time write, it has mostly counted nothing since) with nothing
   * new and nothing kept from a failed write touches no file: known
   * from a look at its counts, without building the snapshot. */
  if (only && !pending_list && !object_counted(only))
    return 0;
  targets targets = {NULL, NULL, 0, 0};
  struct dir_list l;
  if (profile_dirs(only, &l) < 0) {
    return -1;
  }
  int status = 0;
  for (size_t i = 0; i < l.n_dirs; i++) {
    xprof_profile *snap = snapshot(l.dirs[i], l.obj_dirs, only, &targets);
    if (!snap) {
      rt_message("out of memory while collecting profile data for %s", l.dirs[i]);
      status = -1;
      continue;
    }
    if (!only || !snapshot_empty(snap)) /* an empty write at unload is no run */
      note_run(l.dirs[i], snap);
    /* The process's time samples go with its first directory's data. */
    if (!only && i == 0 && rt_sample_take_locked(snap) < 0)
      rt_message("out of memory while taking the time samples; they are lost");
    snap = with_pending(l.dirs[i], snap);
    /* A write at unload with nothing new (the usual case at exit, after
     * the atexit write) touches no file. */
    if (only && snapshot_empty(snap)) {
      xprof_profile_free(snap);
      continue;
    }
    if (write_dir(l.dirs[i], snap, when) < 0) {
      status = -1;
      keep_pending(l.dirs[i], snap);
    } else {
      xprof_profile_free(snap);
    }
  }
  free_dirs(&l);
  free_targets(&targets);
  return status;
}

void rt_zero_locked(const struct xprof_abi_object *only) {
  for (struct xprof_abi_object *o = rt_objects; o; o = o->next) {
    if (only && o != only)
      continue;
    /* By procedure: comdat functions' counters are outside the object's
     * own array. */
    for (uint32_t j = 0; j < o->n_procs; j++) {
      const struct xprof_abi_proc *rp = &o->procs[j];
      /* Only what is not zero: in a fork's child each write copies a
       * page of the parent's. */
      for (uint32_t k = 0; k < rp->n_counters; k++)
        if (__atomic_load_n(&rp->counters[k], __ATOMIC_RELAXED))
          __atomic_store_n(&rp->counters[k], 0, __ATOMIC_RELAXED);
      for (uint32_t s = 0; s < rp->n_vp_sites; s++)
        rt_vp_clear(rp->vp_sites[s].state);
    }
  }
}
