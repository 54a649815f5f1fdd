/*
 * descriptor.c - the module's arrays of their final sizes, its descriptor
 * as LLVM constants (the records of abi/xprof_abi.h built from their
 * field lists, each field given the value libxprof's plan says:
 * xprof_plan_*_values), and the constructor and destructor that register
 * it with the runtime.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "xprof_abi_records.h"

/* Replace a placeholder array by the real one, of n words, init[0..n_init)
 * set; returns it. */
static LLVMValueRef finish_array(xl_collect *c, LLVMValueRef ph, const char *name, uint32_t n,
                                 const xprof_plan_word *init, uint32_t n_init) {
  LLVMTypeRef ty = LLVMArrayType(c->i64, n ? n : 1);
  LLVMValueRef g = LLVMAddGlobal(c->m, ty, name);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetAlignment(g, 8);
  if (n_init) {
    LLVMValueRef *words = xl_calloc((size_t)n + 1, sizeof *words);
    for (uint32_t i = 0; i < n; i++)
      words[i] = LLVMConstInt(c->i64, 0, 0);
    for (uint32_t i = 0; i < n_init; i++)
      words[init[i].at] = LLVMConstInt(c->i64, init[i].word, 0);
    LLVMSetInitializer(g, LLVMConstArray(c->i64, words, n));
    free(words);
  } else {
    LLVMSetInitializer(g, LLVMConstNull(ty));
  }
  LLVMReplaceAllUsesWith(ph, LLVMConstPointerCast(g, LLVMTypeOf(ph)));
  LLVMDeleteGlobal(ph);
  LLVMSetValueName2(g, name, strlen(name));
  return g;
}

/* A private constant of n bytes (then a NUL), as an i8*. */
static LLVMValueRef cbytes(xl_collect *c, const void *s, size_t n, const char *name) {
  LLVMValueRef str = LLVMConstStringInContext(c->cx, s, (unsigned)n, 0);
  LLVMValueRef g = LLVMAddGlobal(c->m, LLVMTypeOf(str), name);
  LLVMSetInitializer(g, str);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  return LLVMConstPointerCast(g, c->i8p);
}

/* A descriptor struct, built from its field list. */
typedef struct record {
  const struct xprof_abi_record_desc *d;
  LLVMTypeRef type;
} record;

/* The LLVM type of a field of this kind; site and proc are the types of
 * the records that SITES and PROCS point at. */
static LLVMTypeRef kind_type(const xl_collect *c, enum xprof_abi_kind kind, LLVMTypeRef site,
                             LLVMTypeRef proc) {
  switch (kind) {
  case XPROF_ABI_K_U32:
    return c->i32;
  case XPROF_ABI_K_U64:
    return c->i64;
  case XPROF_ABI_K_STR:
  case XPROF_ABI_K_BYTES:
  case XPROF_ABI_K_CODE:
  case XPROF_ABI_K_NEXT:
    return c->i8p;
  case XPROF_ABI_K_U64P:
    return c->i64p;
  case XPROF_ABI_K_SITES:
    return LLVMPointerType(site, 0);
  case XPROF_ABI_K_PROCS:
    return LLVMPointerType(proc, 0);
  case XPROF_ABI_K_CELL:
    return LLVMPointerType(c->i64p, 0);
  case XPROF_ABI_K_RESERVED:
    return LLVMArrayType(c->i64, 2);
  }
  abort();
}

static void build_record(const xl_collect *c, record *r, LLVMTypeRef site, LLVMTypeRef proc) {
  LLVMTypeRef fields[XPROF_ABI_MAX_FIELDS];
  for (unsigned i = 0; i < r->d->n_fields; i++)
    fields[i] = kind_type(c, r->d->kinds[i], site, proc);
  r->type = LLVMStructCreateNamed(c->cx, r->d->name);
  LLVMStructSetBody(r->type, fields, r->d->n_fields, 0);
}

/* What a descriptor's values refer to: the module's arrays and tables. */
typedef struct refs {
  LLVMValueRef ctrs, vps, frs, sites, procs;
} refs;

/* The array a value refers to: a comdat function's own, or the module's
 * of that kind. */
static LLVMValueRef array_of(const xl_collect *c, const refs *r, const xprof_value *v) {
  if (v->fn != XPROF_OBJECT && c->fns[v->fn].var)
    return c->fns[v->fn].var;
  return v->array == XPROF_IN_VP ? r->vps : v->array == XPROF_IN_FIRST_RUN ? r->frs : r->ctrs;
}

static LLVMValueRef table_entry(const xl_collect *c, LLVMValueRef table, uint32_t index) {
  LLVMValueRef ix[2] = {LLVMConstInt(c->i32, 0, 0), LLVMConstInt(c->i32, index, 0)};
  return LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(table), table, ix, 2);
}

/* A plan's value as a constant of the field's type; NULL when the plan
 * gave none. */
static LLVMValueRef render(xl_collect *c, const refs *r, const xprof_value *v, LLVMTypeRef ty) {
  switch (v->kind) {
  case XPROF_VALUE_NUMBER:
    return LLVMConstInt(ty, v->number, 0);
  case XPROF_VALUE_STRING:
    return cbytes(c, v->string, strlen(v->string), v->symbol);
  case XPROF_VALUE_BYTES:
    return cbytes(c, v->bytes, v->size, v->symbol);
  case XPROF_VALUE_NULL:
    return LLVMConstNull(ty);
  case XPROF_VALUE_ELEMENT:
    return LLVMConstPointerCast(xl_elem(c, array_of(c, r, v), v->index), ty);
  case XPROF_VALUE_FUNCTION:
    return LLVMConstPointerCast(c->fns[v->fn].fn, ty);
  case XPROF_VALUE_CELL:
    return LLVMConstPointerCast(c->fns[v->fn].twin_cell ? c->fns[v->fn].twin_cell : c->twin_cell,
                                ty);
  case XPROF_VALUE_SITE:
    return table_entry(c, r->sites, v->index);
  case XPROF_VALUE_PROC:
    return table_entry(c, r->procs, v->index);
  case XPROF_VALUE_NONE:
    break;
  }
  return NULL;
}

/* One descriptor's initializer from the plan's values: every field has
 * one but the runtime's own, which stay zero. */
static LLVMValueRef fill(xl_collect *c, const record *rec, const refs *r,
                         const xprof_value *values) {
  LLVMValueRef v[XPROF_ABI_MAX_FIELDS];
  for (unsigned i = 0; i < rec->d->n_fields; i++) {
    LLVMTypeRef ty = LLVMStructGetTypeAtIndex(rec->type, i);
    v[i] = rec->d->kinds[i] == XPROF_ABI_K_NEXT || rec->d->kinds[i] == XPROF_ABI_K_RESERVED
               ? LLVMConstNull(ty)
               : render(c, r, &values[i], ty);
    if (!v[i]) {
      fprintf(stderr, "xprof: libxprof's plan gives no value to field %s of %s\n",
              rec->d->names[i], rec->d->name);
      abort();
    }
  }
  return LLVMConstNamedStruct(rec->type, v, rec->d->n_fields);
}

static LLVMValueRef table(xl_collect *c, const record *rec, LLVMValueRef *v, uint32_t n,
                          const char *name) {
  LLVMValueRef init = LLVMConstArray(rec->type, v, n);
  LLVMValueRef g = LLVMAddGlobal(c->m, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  return g;
}

/* The table of value-profile sites, in procedure order, or NULL. */
static LLVMValueRef emit_sites(xl_collect *c, const record *site, const refs *r) {
  const xprof_plan *p = &c->plan;
  if (!p->n_sites)
    return NULL;
  LLVMValueRef *sv = xl_malloc((size_t)p->n_sites * sizeof *sv);
  xprof_value v[XPROF_ABI_SITE_N_FIELDS];
  for (uint32_t i = 0; i < p->n_fns; i++)
    for (uint32_t s = 0; s < p->fns[i].n_sites; s++) {
      xprof_plan_site_values(p, i, s, v);
      sv[p->fns[i].first_site + s] = fill(c, site, r, v);
    }
  LLVMValueRef g = table(c, site, sv, p->n_sites, XPROF_ABI_STR(XPROF_SITES_VAR));
  free(sv);
  return g;
}

/* The procedure table. */
static LLVMValueRef emit_procs(xl_collect *c, const record *proc, const refs *r) {
  const xprof_plan *p = &c->plan;
  LLVMValueRef *pv = xl_malloc(((size_t)p->n_fns + 1) * sizeof *pv);
  xprof_value v[XPROF_ABI_PROC_N_FIELDS];
  for (uint32_t i = 0; i < p->n_fns; i++) {
    xprof_plan_proc_values(p, i, v);
    pv[i] = fill(c, proc, r, v);
  }
  LLVMValueRef g = table(c, proc, pv, p->n_fns, XPROF_ABI_STR(XPROF_PROCS_VAR));
  free(pv);
  return g;
}

/* Register from a constructor, unregister from a destructor (dlclose).
 * The constructor first points the cells at the twins. */
static void emit_cdtors(xl_collect *c, LLVMValueRef obj, LLVMValueRef twin) {
  LLVMTypeRef reg_t = LLVMFunctionType(LLVMVoidTypeInContext(c->cx), &c->i8p, 1, 0);
  const char *names[2] = {XPROF_ABI_STR(XPROF_REGISTER), XPROF_ABI_STR(XPROF_UNREGISTER)};
  for (int d = 0; d < 2; d++) {
    LLVMValueRef callee = LLVMGetNamedFunction(c->m, names[d]);
    if (!callee)
      callee = LLVMAddFunction(c->m, names[d], reg_t);
    LLVMValueRef fn = LLVMAddFunction(c->m, d ? XPROF_ABI_STR(XPROF_DTOR) : XPROF_ABI_STR(XPROF_CTOR),
                                      LLVMFunctionType(LLVMVoidTypeInContext(c->cx), NULL, 0, 0));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(c->cx, fn, "entry");
    LLVMPositionBuilderAtEnd(c->b, bb);
    if (!d) {
      if (twin)
        LLVMBuildStore(c->b, LLVMConstPointerCast(xl_elem(c, twin, 0), c->i64p), c->twin_cell);
      for (uint32_t i = 0; i < c->plan.n_fns; i++)
        if (c->fns[i].twin_cell)
          LLVMBuildStore(c->b, LLVMConstPointerCast(xl_elem(c, c->fns[i].twin, 0), c->i64p),
                         c->fns[i].twin_cell);
    }
    LLVMValueRef arg = LLVMConstPointerCast(obj, c->i8p);
    LLVMBuildCall2(c->b, reg_t, callee, &arg, 1, "");
    LLVMBuildRetVoid(c->b);
    xl_append_global_ctor(c->m, fn, d, XPROF_ABI_CDTOR_PRIORITY);
  }
}

void xl_emit_descriptor(xl_collect *c) {
  const xprof_plan *p = &c->plan;
  refs r = {0};
  r.ctrs = finish_array(c, c->ctr_ph, XPROF_ABI_STR(XPROF_COUNTERS_VAR), p->n_counters, NULL, 0);
  r.vps = finish_array(c, c->vp_ph, XPROF_ABI_STR(XPROF_VP_VAR), p->n_vp_words, p->vp_init,
                       p->n_vp_init);
  r.frs = finish_array(c, c->fr_ph, XPROF_ABI_STR(XPROF_FIRST_RUN_VAR), p->n_first_runs, NULL, 0);
  LLVMValueRef twin = NULL;
  if (c->twin_ph) { /* the module's twin, of its final size */
    twin = xl_twin_array(c, XPROF_ABI_STR(XPROF_TWIN_VAR), p->n_counters, 0);
    LLVMReplaceAllUsesWith(c->twin_ph, LLVMConstPointerCast(twin, LLVMTypeOf(c->twin_ph)));
    LLVMDeleteGlobal(c->twin_ph);
  }
  if (!p->n_fns)
    return;
  record site = {&xprof_abi_site_record, NULL};
  record proc = {&xprof_abi_proc_record, NULL};
  record objr = {&xprof_abi_object_record, NULL};
  build_record(c, &site, NULL, NULL);
  build_record(c, &proc, site.type, NULL);
  build_record(c, &objr, site.type, proc.type);
  r.sites = emit_sites(c, &site, &r);
  r.procs = emit_procs(c, &proc, &r);
  char *path = xl_object_path(c->m, c->o);
  xprof_value v[XPROF_ABI_OBJECT_N_FIELDS];
  xprof_plan_object_values(p, path ? path : "unknown.o", v);
  LLVMValueRef obj = LLVMAddGlobal(c->m, objr.type, XPROF_ABI_STR(XPROF_OBJECT_VAR));
  LLVMSetInitializer(obj, fill(c, &objr, &r, v));
  LLVMSetLinkage(obj, LLVMInternalLinkage);
  free(path);
  emit_cdtors(c, obj, twin);
}
