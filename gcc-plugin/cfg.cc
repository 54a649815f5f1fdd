/*
 * cfg.cc - what both modes share: the CFG as libxprof sees it, function
 * names, the object file's path, which functions to leave alone.
 */
#include "gcc-common.h"

#include <limits.h>
#include <stdlib.h>

#include "xprof-gcc.h"

/* ---- Calls that surely return ------------------------------------------
 *
 * GCC's profiler (tree-cfg.cc, stmt_can_terminate_bb_p) ends a block after
 * every call that may not come back -- it may exit, longjmp or throw -- and
 * gives it a fake edge to EXIT, which costs a counter (the plugin gives a
 * block one, however many such calls it holds).  A call to a
 * function of this compilation unit that can do none of these needs
 * neither.  Which ones those are is found once per compilation, before any
 * function changes, so both modes see the same graphs. */

static hash_set<tree> *returning; /* decls of functions that surely return */

/* Noreturn calls that end the process without atexit handlers, so without
 * a profile to get wrong. */
static bool ends_without_profile(gcall *call) {
  tree fn = gimple_call_fndecl(call);
  cgraph_node *node = fn ? cgraph_node::get(fn) : NULL;
  if (!fn || (node && node->definition)) /* the C library's, not the program's */
    return false;
  if (fndecl_built_in_p(fn, BUILT_IN_NORMAL))
    switch (DECL_FUNCTION_CODE(fn)) {
    case BUILT_IN_ABORT:
    case BUILT_IN_TRAP:
    case BUILT_IN_UNREACHABLE:
    case BUILT_IN__EXIT:
    case BUILT_IN__EXIT2:
      return true;
    default:
      return false;
    }
  return xprof_ends_without_profile(IDENTIFIER_POINTER(DECL_NAME(fn)));
}

static bool callee_returns(gcall *call) {
  tree fn = gimple_call_fndecl(call);
  cgraph_node *node = fn ? cgraph_node::get(fn) : NULL;
  if (!node || !returning)
    return false;
  enum availability avail;
  node = node->ultimate_alias_target(&avail);
  return avail >= AVAIL_AVAILABLE && returning->contains(node->decl);
}

/* GCC's rule for a statement that may leave the function other than
 * through the block's edges (tree-cfg.cc, stmt_can_terminate_bb_p), less
 * calls that surely return unless gcc_rule. */
static bool can_terminate(function *fun, gimple *t, bool gcc_rule) {
  if (stmt_can_throw_external(fun, t))
    return true;
  if (gasm *a = dyn_cast<gasm *>(t))
    return gimple_asm_volatile_p(a) || gimple_asm_input_p(a);
  gcall *call = dyn_cast<gcall *>(t);
  if (!call)
    return false;
  tree fn = gimple_call_fndecl(call);
  int flags = gimple_call_flags(call);
  /* fork is wrapped by GCC's runtime to clear the counters: a fake edge
   * for GCC; xprof's child keeps counting, but the graph stays GCC's. */
  if (fn && fndecl_built_in_p(fn) && (flags & ECF_NOTHROW) &&
      !(flags & ECF_RETURNS_TWICE) && !fndecl_built_in_p(fn, BUILT_IN_FORK))
    return false;
  if ((flags & (ECF_PURE | ECF_CONST)) && !(flags & ECF_LOOPING_CONST_OR_PURE))
    return false;
  if (!gcc_rule && callee_returns(call))
    return false;
  if (!(flags & ECF_NORETURN))
    return true;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, gimple_bb(t)->succs) {
    if (!(e->flags & EDGE_FAKE))
      return true;
  }
  return false;
}

static bool may_leave(function *fun, gimple *t) { return can_terminate(fun, t, false); }

bool xp_gcc_can_terminate(gimple *t) { return can_terminate(cfun, t, true); }

/* Does FUN surely return to its caller (given what is known of the
 * others)?  Noreturn calls count against it too, but for the ones that end
 * the process without a profile; and so do the exec calls, which write
 * the profile (runtime/exec.c). */
static bool function_returns(function *fun) {
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
      gimple *t = gsi_stmt(gsi);
      if (may_leave(fun, t))
        return false;
      gcall *call = dyn_cast<gcall *>(t);
      if (!call)
        continue;
      if ((gimple_call_flags(call) & ECF_NORETURN) && !ends_without_profile(call))
        return false;
      tree fn = gimple_call_fndecl(call);
      if (fn && fndecl_built_in_p(fn, BUILT_IN_NORMAL))
        switch (DECL_FUNCTION_CODE(fn)) {
        case BUILT_IN_EXECL:
        case BUILT_IN_EXECLP:
        case BUILT_IN_EXECLE:
        case BUILT_IN_EXECV:
        case BUILT_IN_EXECVP:
        case BUILT_IN_EXECVE:
          return false;
        default:
          break;
        }
    }
  }
  return true;
}

/* The greatest set of functions that surely return: start from all with
 * a body and drop those that call one outside the set until none is
 * dropped, so that recursive functions can be in it. */
void xp_find_returning_functions(void) {
  delete returning;
  returning = new hash_set<tree>;
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION(node) {
    if (node->has_gimple_body_p() && !node->thunk)
      returning->add(node->decl);
  }
  for (bool changed = true; changed;) {
    changed = false;
    FOR_EACH_DEFINED_FUNCTION(node) {
      if (!returning->contains(node->decl) ||
          function_returns(DECL_STRUCT_FUNCTION(node->decl)))
        continue;
      returning->remove(node->decl);
      changed = true;
    }
  }
}

void xp_forget_returning_functions(void) {
  delete returning;
  returning = NULL;
}

/* tree-cfg.cc's gimple_flow_call_edges_add with may_leave, but one fake
 * edge to EXIT per block with statements that may leave the function
 * instead of a cut and a fake edge (so a counter) after each: the counts
 * of the blocks and edges stay exact all the same.  A block that already
 * goes to EXIT needs no fake edge: that edge, never counted, carries both
 * ways out (its count is what entered the block less what left it by its
 * other edges); it goes into UNCOUNTED. */
static void add_call_exit_edges(hash_set<edge> *uncounted) {
  if (n_basic_blocks_for_fn(cfun) == NUM_FIXED_BLOCKS)
    return;
  int n = last_basic_block_for_fn(cfun);
  for (int i = 0; i < n; i++) {
    basic_block bb = BASIC_BLOCK_FOR_FN(cfun, i);
    if (!bb)
      continue;
    bool leaves = false;
    for (gimple_stmt_iterator gsi = gsi_last_nondebug_bb(bb); !gsi_end_p(gsi) && !leaves;
         gsi_prev(&gsi))
      leaves = may_leave(cfun, gsi_stmt(gsi));
    if (!leaves)
      continue;
    if (edge to_exit = find_edge(bb, EXIT_BLOCK_PTR_FOR_FN(cfun))) {
      uncounted->add(to_exit);
      continue;
    }
    edge e = make_edge(bb, EXIT_BLOCK_PTR_FOR_FN(cfun), EDGE_FAKE);
    e->probability = profile_probability::guessed_never();
  }
}

/* The statement that must stay first in bb (after its labels), or NULL:
 * a __builtin_setjmp receiver, a call that returns twice (setjmp, vfork),
 * or GCC's dispatcher of abnormal edges.  GCC expects each at the start of
 * the block its abnormal edges enter, and removes a dispatcher whose
 * block has no abnormal predecessor -- and with it every receiver, so
 * that __builtin_longjmp lands wherever the receiver's label moved
 * (profile.cc leaves these blocks whole for the same reasons). */
static gimple *abnormal_entry_stmt(basic_block bb) {
  gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb(bb);
  if (gsi_end_p(gsi) || !is_gimple_call(gsi_stmt(gsi)))
    return NULL;
  gimple *first = gsi_stmt(gsi);
  if (gimple_call_builtin_p(first, BUILT_IN_SETJMP_RECEIVER) ||
      (gimple_call_flags(first) & ECF_RETURNS_TWICE) ||
      gimple_call_internal_p(first, IFN_ABNORMAL_DISPATCHER))
    return first;
  return NULL;
}

/* A block entered by a fake edge from ENTRY that also leaves to EXIT
 * would need a counter on a fake edge: split it, so that the entry and
 * the exit are in different blocks, joined by an edge that can be
 * counted.  Not between a receiver and its labels: after it. */
static void split_entry_from_exit(basic_block bb) {
  if (gimple *first = abnormal_entry_stmt(bb)) {
    split_block(bb, first);
    return;
  }
  gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb(bb);
  if (!gsi_end_p(gsi))
    split_block_after_labels(bb);
}

/* As profile.cc does: calls that may not return get a fake edge to EXIT,
 * and abnormal edges (setjmp, computed goto, nonlocal goto) are replaced
 * by fake edges from ENTRY / to EXIT, so that the graph left to count has
 * no cycles through edges that cannot carry counters.  GCC's abnormal
 * dispatcher gets none: it is no code, its count is 0, and the calls that
 * go to it and the receivers it goes to have fake edges of their own. */
static void add_fake_edges(hash_set<edge> *uncounted) {
  add_call_exit_edges(uncounted);
  add_noreturn_fake_exit_edges();
  basic_block bb;
  FOR_EACH_BB_FN(bb, cfun) {
    gimple *first = abnormal_entry_stmt(bb);
    if (first && gimple_call_internal_p(first, IFN_ABNORMAL_DISPATCHER))
      continue;
    bool need_exit = false, need_entry = false, have_exit = false,
         have_entry = false;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs) {
      if ((e->flags & (EDGE_ABNORMAL | EDGE_ABNORMAL_CALL)) &&
          !(e->flags & EDGE_FAKE))
        need_exit = true;
      if (e->dest == EXIT_BLOCK_PTR_FOR_FN(cfun))
        have_exit = true;
    }
    FOR_EACH_EDGE(e, ei, bb->preds) {
      if ((e->flags & (EDGE_ABNORMAL | EDGE_ABNORMAL_CALL)) &&
          !(e->flags & EDGE_FAKE))
        need_entry = true;
      if (e->src == ENTRY_BLOCK_PTR_FOR_FN(cfun))
        have_entry = true;
    }
    if (need_exit && !have_exit)
      make_edge(bb, EXIT_BLOCK_PTR_FOR_FN(cfun), EDGE_FAKE);
    else if (need_exit)
      uncounted->add(find_edge(bb, EXIT_BLOCK_PTR_FOR_FN(cfun)));
    if (need_entry && !have_entry) {
      make_edge(ENTRY_BLOCK_PTR_FOR_FN(cfun), bb, EDGE_FAKE);
      if (have_exit || need_exit)
        split_entry_from_exit(bb);
    }
  }
}

uint64_t xp_count(profile_count c) {
  if (!c.initialized_p())
    return 0;
  gcov_type v = c.to_gcov_type();
  return v > 0 ? (uint64_t)v : 0;
}

static uint64_t edge_weight(edge e) { return xp_count(e->count()); }

/* c's edge list: every edge of the current CFG, by source block index,
 * then successor order -- the same in both modes because the graph is.
 * False when out of memory. */
static bool list_edges(struct xp_cfg *c, hash_set<edge> *uncounted, uint32_t n_sites) {
  uint32_t n = 0;
  basic_block bb;
  FOR_ALL_BB_FN(bb, cfun) n += EDGE_COUNT(bb->succs);
  if (xprof_graph_reserve(&c->g, (uint32_t)n_basic_blocks_for_fn(cfun), n, n_sites, 0) < 0)
    return false;
  c->gcc_edges = XNEWVEC(edge, n + 1);
  for (uint32_t i = 0; i < c->g.n_nodes; i++) {
    bb = BASIC_BLOCK_FOR_FN(cfun, i);
    if (!bb)
      continue;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs) {
      uint32_t flags = 0;
      if (e->flags & EDGE_FAKE)
        flags |= XPROF_EDGE_FAKE;
      else if ((e->flags & (EDGE_ABNORMAL | EDGE_ABNORMAL_CALL)) &&
               e->src != ENTRY_BLOCK_PTR_FOR_FN(cfun) &&
               e->dest != EXIT_BLOCK_PTR_FOR_FN(cfun))
        flags |= XPROF_EDGE_IGNORE;
      if (EDGE_CRITICAL_P(e))
        flags |= XPROF_EDGE_CRITICAL;
      if (uncounted->contains(e))
        flags |= XPROF_EDGE_NOCOUNT;
      c->gcc_edges[c->g.n_edges] = e;
      xprof_graph_edge(&c->g, (uint32_t)e->src->index, (uint32_t)e->dest->index, flags,
                       edge_weight(e), 0);
    }
  }
  return true;
}

/* Fake edges to EXIT from blocks that cannot reach it (infinite loops;
 * the LLVM pass adds the same by the same rule, xprof_dead_ends).
 * Returns whether it added any. */
static bool connect_dead_ends(const struct xp_cfg *c) {
  uint32_t *from = XNEWVEC(uint32_t, c->g.n_nodes + 1);
  int64_t k = xprof_dead_ends(c->g.n_nodes, c->g.edges, c->g.n_edges, from);
  for (int64_t i = 0; i < k; i++)
    make_edge(BASIC_BLOCK_FOR_FN(cfun, from[i]), EXIT_BLOCK_PTR_FOR_FN(cfun), EDGE_FAKE);
  XDELETEVEC(from);
  return k > 0;
}

/* What a statement does, for its block's hash: its kind, its operation,
 * whom it calls; not its operands' names, its constants or its line, which
 * an edit elsewhere changes. */
static uint32_t statement_hash(uint32_t h, gimple *stmt) {
  h = xprof_block_hash_add(h, gimple_code(stmt));
  if (is_gimple_assign(stmt))
    return xprof_block_hash_add(h, gimple_assign_rhs_code(stmt));
  if (gimple_code(stmt) == GIMPLE_COND)
    return xprof_block_hash_add(h, gimple_cond_code(stmt));
  if (gimple_code(stmt) == GIMPLE_SWITCH)
    return xprof_block_hash_add(h, gimple_switch_num_labels(as_a<gswitch *>(stmt)));
  if (gcall *call = dyn_cast<gcall *>(stmt)) {
    if (gimple_call_internal_p(call))
      return xprof_block_hash_add(h, 1000 + gimple_call_internal_fn(call));
    tree fn = gimple_call_fndecl(call);
    return fn ? xprof_block_hash_str(h, IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn)))
              : xprof_block_hash_add(h, 999); /* an indirect call */
  }
  return h;
}

static void hash_blocks(struct xp_cfg *c) {
  for (uint32_t i = 2; i < c->g.n_nodes; i++) {
    basic_block bb = BASIC_BLOCK_FOR_FN(cfun, i);
    uint32_t h = 0;
    if (!bb)
      continue;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
      if (!is_gimple_debug(gsi_stmt(gsi)))
        h = statement_hash(h, gsi_stmt(gsi));
    c->g.hash[i] = h;
  }
}

/* The sites: each one's node, kind and record type. */
static void describe_sites(struct xp_cfg *c, const vec<xp_site> *sites) {
  for (unsigned s = 0; s < sites->length(); s++) {
    c->g.site_node[s] = (uint32_t)gimple_bb((*sites)[s].stmt)->index;
    c->g.site_kind[s] = (*sites)[s].kind;
    c->g.site_type[s] = (*sites)[s].vp_type;
  }
}

bool xp_cfg_build(struct xp_cfg *c, const vec<xp_site> *sites) {
  memset(c, 0, sizeof *c);
  hash_set<edge> uncounted;
  add_fake_edges(&uncounted);
  compact_blocks();
  if (!list_edges(c, &uncounted, sites->length()))
    fatal_error(UNKNOWN_LOCATION, "xprof: out of memory");
  if (connect_dead_ends(c)) {
    xp_cfg_free(c);
    if (!list_edges(c, &uncounted, sites->length()))
      fatal_error(UNKNOWN_LOCATION, "xprof: out of memory");
  }
  hash_blocks(c);
  describe_sites(c, sites);
  return xprof_graph_place(&c->g) == 0;
}

void xp_cfg_free(struct xp_cfg *c) {
  XDELETEVEC(c->gcc_edges);
  xprof_graph_free(&c->g);
  memset(c, 0, sizeof *c);
}

const char *xp_function_name(tree decl) {
  const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));
  return name[0] == '*' ? name + 1 : name; /* user assembler label */
}

/* A thunk left as GCC emits it (an adjustment and a jump, no GIMPLE)
 * would have no count at use: GCC would take it for one that may be hot
 * and inline its target into it, cold or not.  Expanded, it is one
 * block with a call and gets a count as any function does; use expands
 * it too so that the graphs agree.  GCC cannot expand a variadic thunk
 * (there is no way to pass the arguments on); those stay uncounted. */
void xp_expand_thunks(void) {
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION(node) {
    if (node->thunk && !stdarg_p(TREE_TYPE(node->decl)) &&
        DECL_SOURCE_LOCATION(node->decl) != BUILTINS_LOCATION)
      expand_thunk(node, false, true);
  }
}

bool xp_skip_function(cgraph_node *node) {
  tree decl = node->decl;
  if (!gimple_has_body_p(decl) || node->thunk || node->alias ||
      DECL_SOURCE_LOCATION(decl) == BUILTINS_LOCATION || DECL_EXTERNAL(decl))
    return true;
  unsigned attrs =
      (lookup_attribute("no_profile_instrument_function", DECL_ATTRIBUTES(decl))
           ? XPROF_ATTR_NO_PROFILE
           : 0) |
      (lookup_attribute("naked", DECL_ATTRIBUTES(decl)) ? XPROF_ATTR_NAKED : 0);
  if (xprof_skip_attributes(attrs))
    return true;
  xprof_skip_list skip = xprof_options_skip(&xp_opts);
  return xprof_skip_function(&skip, xp_function_name(decl),
                             lang_hooks.decl_printable_name(decl, 0), DECL_SOURCE_FILE(decl));
}

/* The object file is DUMPDIR + DUMPBASE without its extension + ".o", as
 * the driver names it (-dumpdir sub/ -dumpbase b.c for -c -o sub/b.o),
 * made absolute with the directory resolved, then mapped as GCC maps the
 * paths of its own profiles (-fprofile-prefix-map, -ffile-prefix-map;
 * see xprof_remap_prefix), and then by -xprofile_prefix_map. */
/* What a driver shipped in top-level asm for a compilation on another
 * machine (distcc: xprof_ship_object, xprof_use_ship), taken out before
 * anything is emitted. */
static struct {
  bool taken;
  xprof_shipped s;
} shipped;

static void take_shipped(void) {
  if (shipped.taken)
    return;
  shipped.taken = true;
  for (asm_node *a = symtab->first_asm_symbol(); a; a = a->next) {
    const char *text = TREE_STRING_POINTER(a->asm_str);
    xprof_shipped s;
    int rc = xprof_take_shipped(text, strlen(text), &s);
    if (rc < 0)
      fatal_error(UNKNOWN_LOCATION, "xprof: out of memory");
    if (rc == 0)
      continue;
    a->asm_str = build_string((int)s.kept_len + 1, s.kept);
    xprof_free(s.kept);
    s.kept = NULL;
    if (s.objpath) {
      xprof_free(shipped.s.objpath);
      shipped.s.objpath = s.objpath;
    }
    if (s.data) {
      xprof_free(shipped.s.data);
      shipped.s.data = s.data;
      shipped.s.n = s.n;
    }
  }
}

const char *xp_shipped_data(size_t *n) {
  take_shipped();
  *n = shipped.s.n;
  return shipped.s.data;
}

/* The object file as this compilation names it, resolved (malloc'd), or
 * NULL when it was compiled elsewhere (distcc). */
static char *resolved_object(void) {
  take_shipped();
  if (shipped.s.objpath)
    return NULL;
  /* cc1 may already have put the dump directory in front of the base. */
  const char *dir = dump_dir_name && !dump_base_name_prefixed ? dump_dir_name : "";
  const char *base = dump_base_name ? dump_base_name : main_input_filename;
  const char *ext = dump_base_ext ? dump_base_ext : "";
  size_t blen = strlen(base), elen = strlen(ext);
  if (elen && blen > elen && strcmp(base + blen - elen, ext) == 0)
    blen -= elen;
  else if (!dump_base_ext) { /* strip a suffix by hand */
    const char *dot = strrchr(base, '.'), *slash = strrchr(base, '/');
    if (dot && (!slash || dot > slash))
      blen = (size_t)(dot - base);
  }
  char *rel = XNEWVEC(char, strlen(dir) + blen + 3);
  sprintf(rel, "%s%.*s.o", dir, (int)blen, base);
  char *resolved = xprof_object_path_resolve(rel);
  char *out = xstrdup(resolved ? resolved : rel);
  xprof_free(resolved);
  XDELETEVEC(rel);
  return out;
}

const char *xp_object_file(void) {
  static char *file;
  static bool done;
  if (!done) {
    file = resolved_object();
    done = true;
  }
  return file;
}

const char *xp_object_path(void) {
  static char *path;
  if (path)
    return path;
  take_shipped();
  if (shipped.s.objpath) /* compiled elsewhere, under a temporary name */
    return path = xstrdup(shipped.s.objpath);
  const char *file = xp_object_file();
  char *mapped = xprof_map_object_path(xp_remap_profile_path(file), &xp_opts);
  path = xstrdup(mapped ? mapped : file);
  xprof_free(mapped);
  return path;
}
