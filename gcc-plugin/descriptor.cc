/*
 * descriptor.cc - the object file's descriptor as GCC trees: the records
 * of abi/xprof_abi.h built from their field lists, each field given the
 * value libxprof's plan says (xprof_plan_*_values), and the constructor
 * and destructor that register the object with the runtime.
 */
#include "gcc-common.h"

#include "xprof-gcc.h"
#include "xprof_abi_records.h"

/* A descriptor struct, built from its field list. */
struct record {
  const struct xprof_abi_record_desc *d;
  tree type;
  tree fields[XPROF_ABI_MAX_FIELDS];
};

static tree array_of(tree elem, unsigned n) {
  return build_array_type(elem, build_index_type(size_int(n ? n - 1 : 0)));
}

/* The GCC type of a field of this kind; site and proc are the types of
 * the records that SITES and PROCS point at. */
static tree kind_type(enum xprof_abi_kind kind, tree site, tree proc) {
  switch (kind) {
  case XPROF_ABI_K_U32:
    return uint32_type_node;
  case XPROF_ABI_K_U64:
    return uint64_type_node;
  case XPROF_ABI_K_STR:
    return build_pointer_type(build_qualified_type(char_type_node, TYPE_QUAL_CONST));
  case XPROF_ABI_K_BYTES:
    return build_pointer_type(build_qualified_type(unsigned_char_type_node, TYPE_QUAL_CONST));
  case XPROF_ABI_K_U64P:
    return build_pointer_type(uint64_type_node);
  case XPROF_ABI_K_SITES:
    return build_pointer_type(site);
  case XPROF_ABI_K_PROCS:
    return build_pointer_type(proc);
  case XPROF_ABI_K_CODE:
    return const_ptr_type_node;
  case XPROF_ABI_K_CELL:
    return build_pointer_type(build_pointer_type(get_gcov_type()));
  case XPROF_ABI_K_NEXT:
    return ptr_type_node;
  case XPROF_ABI_K_RESERVED:
    return array_of(uint64_type_node, 2);
  }
  gcc_unreachable();
}

static void build_record(record *r, tree site, tree proc) {
  /* finish_builtin_struct takes the fields last first. */
  tree chain = NULL_TREE;
  for (unsigned i = 0; i < r->d->n_fields; i++) {
    r->fields[i] = build_decl(BUILTINS_LOCATION, FIELD_DECL, get_identifier(r->d->names[i]),
                              kind_type(r->d->kinds[i], site, proc));
    DECL_CHAIN(r->fields[i]) = chain;
    chain = r->fields[i];
  }
  r->type = lang_hooks.types.make_type(RECORD_TYPE);
  finish_builtin_struct(r->type, r->d->name, chain, NULL_TREE);
}

static tree static_var(const char *name, tree type, tree init) {
  tree v = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
  TREE_STATIC(v) = 1;
  TREE_ADDRESSABLE(v) = 1;
  DECL_ARTIFICIAL(v) = 1;
  DECL_IGNORED_P(v) = 1;
  DECL_INITIAL(v) = init;
  varpool_node::finalize_decl(v);
  return v;
}

/* What a descriptor's values refer to: the functions and their arrays
 * (collect.cc), the tables. */
struct refs {
  const xp_collected *c;
  tree sites, procs;
  tree site_type, proc_type;
};

static tree element(tree var, uint32_t idx) {
  return build4(ARRAY_REF, get_gcov_type(), var, build_int_cst(integer_type_node, idx),
                NULL_TREE, NULL_TREE);
}

/* The array a value refers to: a comdat function's own, or the object
 * file's of that kind. */
static tree array_var(const refs *r, const xprof_value *v) {
  if (v->fn != XPROF_OBJECT && r->c->plan.fns[v->fn].comdat)
    return r->c->fns[v->fn].var;
  switch (v->array) {
  case XPROF_IN_VP:
    return r->c->vp_var;
  case XPROF_IN_FIRST_RUN:
    return r->c->first_run_var;
  default:
    return r->c->ctr_var;
  }
}

static tree table_entry(tree table, tree type, uint32_t index) {
  return build_fold_addr_expr(build4(ARRAY_REF, type, table, size_int(index), NULL_TREE, NULL_TREE));
}

/* A plan's value as a GCC constant. */
static tree render(const refs *r, const xprof_value *v) {
  switch (v->kind) {
  case XPROF_VALUE_NUMBER:
    return build_int_cstu(uint64_type_node, v->number);
  case XPROF_VALUE_STRING:
    return build_string_literal(strlen(v->string) + 1, v->string);
  case XPROF_VALUE_BYTES:
    return build_string_literal((int)v->size, (const char *)v->bytes);
  case XPROF_VALUE_NULL:
    return null_pointer_node;
  case XPROF_VALUE_ELEMENT:
    return build_fold_addr_expr(element(array_var(r, v), v->index));
  case XPROF_VALUE_FUNCTION:
    return build_fold_addr_expr(r->c->fns[v->fn].decl);
  case XPROF_VALUE_CELL:
    return build_fold_addr_expr(r->c->fns[v->fn].twin_cell);
  case XPROF_VALUE_SITE:
    return table_entry(r->sites, r->site_type, v->index);
  case XPROF_VALUE_PROC:
    return table_entry(r->procs, r->proc_type, v->index);
  case XPROF_VALUE_NONE:
    break;
  }
  return NULL_TREE;
}

/* One descriptor's initializer from the plan's values: every field has
 * one but the runtime's own, which stay zero. */
static tree fill(const record *rec, const refs *r, const xprof_value *values) {
  vec<constructor_elt, va_gc> *v = NULL;
  for (unsigned i = 0; i < rec->d->n_fields; i++) {
    if (rec->d->kinds[i] == XPROF_ABI_K_NEXT || rec->d->kinds[i] == XPROF_ABI_K_RESERVED)
      continue;
    tree value = render(r, &values[i]);
    if (!value)
      internal_error("xprof: libxprof%'s plan gives no value to field %qs of %qs",
                     rec->d->names[i], rec->d->name);
    CONSTRUCTOR_APPEND_ELT(v, rec->fields[i], fold_convert(TREE_TYPE(rec->fields[i]), value));
  }
  return build_constructor(rec->type, v);
}

/* The table of value-profile sites, in procedure order, or NULL_TREE. */
static tree emit_sites(const xp_collected *c, const record *site, refs *r) {
  const xprof_plan *p = &c->plan;
  if (!p->n_sites)
    return NULL_TREE;
  vec<constructor_elt, va_gc> *arr = NULL;
  xprof_value v[XPROF_ABI_SITE_N_FIELDS];
  for (uint32_t i = 0; i < p->n_fns; i++)
    for (uint32_t s = 0; s < p->fns[i].n_sites; s++) {
      xprof_plan_site_values(p, i, s, v);
      CONSTRUCTOR_APPEND_ELT(arr, size_int(p->fns[i].first_site + s), fill(site, r, v));
    }
  tree type = array_of(site->type, p->n_sites);
  return static_var(XPROF_ABI_STR(XPROF_SITES_VAR), type, build_constructor(type, arr));
}

/* The procedure table.  Its entries point into it (nothing does yet),
 * so it is declared before it is filled. */
static tree emit_procs(const xp_collected *c, const record *proc, refs *r) {
  const xprof_plan *p = &c->plan;
  vec<constructor_elt, va_gc> *procs = NULL;
  xprof_value v[XPROF_ABI_PROC_N_FIELDS];
  for (uint32_t i = 0; i < p->n_fns; i++) {
    xprof_plan_proc_values(p, i, v);
    CONSTRUCTOR_APPEND_ELT(procs, size_int(i), fill(proc, r, v));
  }
  tree type = array_of(proc->type, p->n_fns);
  return static_var(XPROF_ABI_STR(XPROF_PROCS_VAR), type, build_constructor(type, procs));
}

/* cell = &twin[0], in the constructor. */
static tree point_cell(tree cell, tree twin) {
  return build2(MODIFY_EXPR, TREE_TYPE(cell), cell, build_fold_addr_expr(element(twin, 0)));
}

/* Register from a constructor, unregister from a destructor (dlclose).
 * The constructor first points the cells at the twins. */
static void emit_cdtors(const xp_collected *c, tree obj_var) {
  tree ftype = build_function_type_list(void_type_node, ptr_type_node, NULL_TREE);
  tree reg = build_fn_decl(XPROF_ABI_STR(XPROF_REGISTER), ftype);
  tree unreg = build_fn_decl(XPROF_ABI_STR(XPROF_UNREGISTER), ftype);
  tree body = NULL_TREE;
  if (c->twin_cell)
    append_to_statement_list(point_cell(c->twin_cell, c->twin_var), &body);
  for (uint32_t i = 0; i < c->plan.n_fns; i++)
    if (c->plan.fns[i].comdat && c->fns[i].twin_cell)
      append_to_statement_list(point_cell(c->fns[i].twin_cell, c->fns[i].twin), &body);
  append_to_statement_list(build_call_expr(reg, 1, build_fold_addr_expr(obj_var)), &body);
  cgraph_build_static_cdtor('I', body, XPROF_ABI_CDTOR_PRIORITY);
  body = NULL_TREE;
  append_to_statement_list(build_call_expr(unreg, 1, build_fold_addr_expr(obj_var)), &body);
  cgraph_build_static_cdtor('D', body, XPROF_ABI_CDTOR_PRIORITY);
}

void xp_emit_descriptor(const xp_collected *c) {
  record site = {&xprof_abi_site_record, NULL_TREE, {}};
  record proc = {&xprof_abi_proc_record, NULL_TREE, {}};
  record obj = {&xprof_abi_object_record, NULL_TREE, {}};
  build_record(&site, NULL_TREE, NULL_TREE);
  build_record(&proc, site.type, NULL_TREE);
  build_record(&obj, site.type, proc.type);
  refs r = {c, NULL_TREE, NULL_TREE, site.type, proc.type};
  r.sites = emit_sites(c, &site, &r);
  r.procs = emit_procs(c, &proc, &r);
  xprof_value v[XPROF_ABI_OBJECT_N_FIELDS];
  xprof_plan_object_values(&c->plan, xp_object_path(), v);
  tree obj_var = static_var(XPROF_ABI_STR(XPROF_OBJECT_VAR), obj.type, fill(&obj, &r, v));
  TREE_READONLY(obj_var) = 0;
  emit_cdtors(c, obj_var);
}
