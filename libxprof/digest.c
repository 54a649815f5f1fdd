/*
 * digest.c - what a compiler cache must know of a use build: a digest of
 * exactly the profile data that one compilation reads (its object file's
 * data and the parts of the whole profile's summary the compiler looks
 * at), so that a cache misses when that data changed and still hits when
 * only other object files' data did.
 */
#include <stdio.h>

#include "internal.h"

/* Two FNV-1a lanes with different starting points and byte mixing: 128
 * bits, enough that two profiles never share a cache key by accident (a
 * cache key, not a defence against a crafted profile). */
struct digest {
  uint64_t a, b;
};

static void feed(struct digest *d, const void *data, size_t len) {
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++) {
    d->a = (d->a ^ p[i]) * 0x100000001b3ull;
    d->b = (d->b ^ (unsigned char)(p[i] + 0x5b)) * 0x100000001b3ull;
  }
}

static void feed64(struct digest *d, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (unsigned char)(v >> (8 * i));
  feed(d, b, sizeof b);
}

/* Strings with their terminator, so that "ab"+"c" differs from "a"+"bc";
 * NULL differs from "". */
static void feed_string(struct digest *d, const char *s) {
  if (s)
    feed(d, s, strlen(s) + 1);
  else
    feed64(d, 0xffffffffffffffffull);
}

static void feed_proc(struct digest *d, const xprof_proc *f) {
  feed_string(d, f->name);
  feed64(d, f->signature);
  feed64(d, f->n_counters);
  for (uint32_t k = 0; k < f->n_counters; k++) {
    feed64(d, f->counter_ids ? f->counter_ids[k] : k);
    feed64(d, f->counters[k]);
  }
  feed64(d, f->n_vp_sites);
  feed64(d, f->n_vp_records);
  for (uint32_t r = 0; r < f->n_vp_records; r++) {
    feed64(d, f->vp[r].type);
    feed64(d, f->vp[r].expr_id);
  }
}

static void feed_values(struct digest *d, const xprof_objfile *o) {
  for (uint32_t i = 0; i < o->n_procs; i++)
    for (uint32_t r = 0; r < o->procs[i].n_vp_records; r++)
      for (uint32_t v = 0; v < o->n_values_per_vp; v++) {
        const xprof_vp_value *x = &o->procs[i].vp[r].values[v];
        feed64(d, x->count);
        feed64(d, x->bits);
        feed_string(d, x->proc);
      }
}

void xprof_use_digest(const xprof_objfile *o, const xprof_summary *s, unsigned what,
                      char hex[XPROF_DIGEST_HEX]) {
  struct digest d = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
  feed_string(&d, "xprof use digest 1");
  if (o) {
    feed_string(&d, o->path);
    feed64(&d, o->signature);
    feed64(&d, o->n_values_per_vp);
    feed64(&d, o->n_procs);
    for (uint32_t i = 0; i < o->n_procs; i++)
      feed_proc(&d, &o->procs[i]);
    feed_values(&d, o);
  } else {
    feed_string(&d, "no data");
  }
  if (s && (what & XPROF_DIGEST_MAX))
    feed64(&d, s->total_max);
  if (s && (what & XPROF_DIGEST_SUMMARY)) {
    feed64(&d, s->total_sum);
    feed64(&d, s->n_counts);
    feed64(&d, s->n_procs);
    for (unsigned k = 0; k < XPROF_SUMMARY_CUTOFFS; k++) {
      feed64(&d, s->entry[k].cutoff);
      feed64(&d, s->entry[k].min_count);
      feed64(&d, s->entry[k].num_counts);
    }
  }
  snprintf(hex, XPROF_DIGEST_HEX, "%016llx%016llx", (unsigned long long)d.a,
           (unsigned long long)d.b);
}

char *xprof_compile_object_name(const char *output, const char *source) {
  const char *name = output && strcmp(output, "-") != 0 ? output : source;
  if (name == source) { /* the object of a source goes to the current directory */
    const char *slash = strrchr(source, '/');
    name = slash ? slash + 1 : source;
  }
  const char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
  size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - name) : strlen(name);
  return xprof_format("%.*s.o", (int)n, name);
}
