/* A stand-in runtime that prints the descriptors a plugin emitted, read
 * through abi/xprof_abi.h's structs: where the plugin's layout and the
 * header's disagree, the values come out wrong. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xprof_abi.h"

static int proc_cmp(const void *a, const void *b) {
  return strcmp((*(const struct xprof_abi_proc *const *)a)->name,
                (*(const struct xprof_abi_proc *const *)b)->name);
}

void XPROF_REGISTER(struct xprof_abi_object *o) {
  const char *base = strrchr(o->path, '/');
  printf("object %s abi %u flags %u values %u profile %s procs %u counters %u next %s "
         "reserved %s\n",
         base ? base + 1 : o->path, o->abi_version, o->flags, o->n_values_per_vp,
         o->profile_name ? o->profile_name : "-", o->n_procs, o->n_counters,
         o->next ? "set" : "null",
         o->runtime_reserved[0] || o->runtime_reserved[1] ? "set" : "zero");
  const struct xprof_abi_proc *by_name[16];
  for (uint32_t j = 0; j < o->n_procs && j < 16; j++)
    by_name[j] = &o->procs[j];
  qsort(by_name, o->n_procs < 16 ? o->n_procs : 16, sizeof *by_name, proc_cmp);
  uint32_t total = 0;
  for (uint32_t j = 0; j < o->n_procs && j < 16; j++) {
    const struct xprof_abi_proc *p = by_name[j];
    total += p->n_counters;
    printf("proc %s sites %u in-array %s address %s first-run %s",
           p->name, p->n_vp_sites,
           p->counters == o->counters + p->array_offset ? "yes" : "no",
           p->address ? "set" : "null",
           !p->first_run ? "none" : *p->first_run ? "set" : "zero");
    for (uint32_t s = 0; s < p->n_vp_sites; s++)
      printf(" site %u type %u words %llu", p->vp_sites[s].expr_id, p->vp_sites[s].type,
             (unsigned long long)p->vp_sites[s].state[0]);
    printf("\n");
  }
  printf("counters add up: %s\n", total == o->n_counters ? "yes" : "no");
}

/* The time profile: the ranks the compiled code took at first runs. */
uint64_t XPROF_FIRST_RUNS;

/* Per-thread copies (no-tls-counters): what the code at function entry
 * asks for, which must be its counter array with the array's one
 * thread-local word.  The answer 0 makes it count in the array itself. */
static uint64_t *asked_array;
static intptr_t *asked_word;
static unsigned n_asked, n_other;
intptr_t XPROF_THREAD_COUNTERS(uint64_t *array, intptr_t *tls) {
  if (!n_asked++) {
    asked_array = array;
    asked_word = tls;
  }
  n_other += array != asked_array || tls != asked_word;
  return 0;
}

void XPROF_UNREGISTER(struct xprof_abi_object *o) {
  printf("first runs: %llu\n", (unsigned long long)XPROF_FIRST_RUNS);
  if (n_asked)
    printf("copies asked for: %u times, of the %s, %s\n", n_asked,
           asked_array == o->counters ? "object's array" : "wrong array",
           n_other ? "with other arguments too" : "with one word");
  for (uint32_t j = 0; j < o->n_procs; j++)
    if (o->procs[j].first_run)
      printf("proc %s ran %llu\n", o->procs[j].name,
             (unsigned long long)*o->procs[j].first_run);
}
void XPROF_RECORD_PROC(uint64_t *state, const void *callee) { (void)state, (void)callee; }
void XPROF_RECORD_PROC_SINGLE(uint64_t *state, const void *callee) { (void)state, (void)callee; }
void XPROF_RECORD_INT(uint64_t *state, int32_t v) { (void)state, (void)v; }
void XPROF_RECORD_LLONG(uint64_t *state, int64_t v) { (void)state, (void)v; }
