/*
 * lines.cc - a function's entry in the coverage table (OBJECT.xpcov,
 * libxprof's linetab.c): its graph with the source lines of its blocks
 * and of the blocks GCC's coverage adds (pieces of blocks and blocks on
 * edges), so that xprof_tcov counts lines as gcov does, and its direct
 * calls, for xprof_gprof's call arcs.
 */
#include "gcc-common.h"

#include "xprof-gcc.h"

typedef int_hash<location_t, UNKNOWN_LOCATION, BUILTINS_LOCATION> xp_location_hash;
/* A source line as a key: its file (the line map's string, one per file)
 * and line number, never -1 or -2. */
typedef int_hash<HOST_WIDE_INT, -1, -2> xp_line_hash;

static HOST_WIDE_INT line_key(location_t loc) {
  uintptr_t file = (uintptr_t)LOCATION_FILE(loc);
  return (HOST_WIDE_INT)(((uint64_t)(file >> 3) * 1000003u + (uint64_t)LOCATION_LINE(loc)) &
                         (HOST_WIDE_INT_M1U >> 1));
}

/* The name of fn, the function an inlined scope came from.  Under -flto
 * the front end's data is freed before the IPA passes (free_lang_data),
 * and a function that never got an assembler name -- the abstract
 * constructor that C++'s complete and base constructors are clones of --
 * cannot get one then: GCC crashes in the attempt.  Such a function goes
 * by its source name, in collect and use builds alike.  NULL for none. */
static const char *origin_name(tree fn) {
  bool freed = in_lto_p || flag_generate_lto || flag_generate_offload;
  if (DECL_ASSEMBLER_NAME_SET_P(fn) || !freed)
    return xp_function_name(fn);
  return DECL_NAME(fn) ? IDENTIFIER_POINTER(DECL_NAME(fn)) : NULL;
}

/* The functions inlined around a statement at loc, innermost first, as
 * GCC's auto-profile walks them (auto-profile.cc, get_inline_stack): each
 * inlined scope's function and the line of the call it replaced; at most
 * `max`.  Returns how many. */
static uint32_t inline_chain(location_t loc, xprof_inline_frame *frames, uint32_t max) {
  uint32_t n = 0;
  for (tree b = LOCATION_BLOCK(loc); b && TREE_CODE(b) == BLOCK && n < max;
       b = BLOCK_SUPERCONTEXT(b)) {
    if (!inlined_function_outer_scope_p(b))
      continue;
    tree fn = block_ultimate_origin(b);
    if (!fn || TREE_CODE(fn) != FUNCTION_DECL || RESERVED_LOCATION_P(DECL_SOURCE_LOCATION(fn)))
      break;
    if (!(frames[n].fn = origin_name(fn)))
      break;
    frames[n].fn_file = DECL_SOURCE_FILE(fn);
    frames[n].fn_line = (uint32_t)DECL_SOURCE_LINE(fn);
    frames[n].call_line = (uint32_t)LOCATION_LINE(BLOCK_SOURCE_LOCATION(b));
    n++;
  }
  return n;
}

/* loc's line under its inline chain: a line of block `node` (and its
 * column), or (kind < XPROF_SITE_KINDS) the place of value-profile site
 * `node` of that kind. */
static void add_line_at(xprof_linetab *t, uint32_t node, location_t loc, uint32_t kind) {
  expanded_location x = expand_location(loc);
  xprof_inline_frame frames[16];
  uint32_t n = inline_chain(loc, frames, 16);
  uint32_t line = (uint32_t)MAX(1, x.line);
  if (kind < XPROF_SITE_KINDS) {
    xprof_linetab_site(t, node, kind, x.file, line, frames, n);
  } else {
    xprof_linetab_inlined_line(t, node, x.file, line, frames, n);
    xprof_linetab_column(t, node, x.file, line, (uint32_t)MAX(0, x.column), frames, n);
  }
}

static void add_line(xprof_linetab *t, basic_block bb, location_t loc) {
  add_line_at(t, (uint32_t)bb->index, loc, XPROF_SITE_KINDS);
}

/* A line of bb that only debug statements are on (an M record). */
static void add_marker_line(xprof_linetab *t, basic_block bb, location_t loc) {
  expanded_location x = expand_location(loc);
  xprof_inline_frame frames[16];
  uint32_t n = inline_chain(loc, frames, 16);
  xprof_linetab_marker_line(t, (uint32_t)bb->index, x.file, (uint32_t)MAX(1, x.line), frames, n);
}

/* The last statement of bb that is not a debug statement, or NULL. */
static gimple *last_real_stmt(basic_block bb) {
  gimple_stmt_iterator gsi = gsi_last_nondebug_bb(bb);
  return gsi_end_p(gsi) ? NULL : gsi_stmt(gsi);
}

/* Does GCC's coverage graph (profile.cc, branch_prob) end bb's last piece
 * with a single edge?  It has the block's real edges, and a fake edge to
 * EXIT after a last statement that may not return, or from a block
 * without successors, or (with_abnormal: when it writes the lines) for
 * abnormal edges out. */
static bool gcov_single_succ(basic_block bb, bool with_abnormal) {
  unsigned real = 0;
  bool abnormal = false, to_exit = false;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, bb->succs) {
    if (e->flags & EDGE_FAKE)
      continue;
    real++;
    to_exit |= e->dest == EXIT_BLOCK_PTR_FOR_FN(cfun);
    abnormal |= (e->flags & (EDGE_ABNORMAL | EDGE_ABNORMAL_CALL)) &&
                e->dest != EXIT_BLOCK_PTR_FOR_FN(cfun);
  }
  gimple *last = last_real_stmt(bb);
  bool call_fake = last && xp_gcc_can_terminate(last);
  unsigned fakes = call_fake || real == 0 || (with_abnormal && abnormal && !to_exit);
  return real + fakes == 1;
}

/* The statement whose line GCC compares with an edge's goto location:
 * the last with a location in bb's last piece, or NULL. */
static gimple *last_located_stmt(basic_block bb) {
  gimple *last = last_real_stmt(bb);
  for (gimple_stmt_iterator gsi = gsi_last_nondebug_bb(bb); !gsi_end_p(gsi);
       gsi_prev_nondebug(&gsi)) {
    gimple *t = gsi_stmt(gsi);
    if (t != last && xp_gcc_can_terminate(t))
      return NULL; /* the piece began after t */
    if (!RESERVED_LOCATION_P(gimple_location(t)))
      return t;
  }
  return NULL;
}

/* Does GCC's coverage give edge e a block of its own?  It does for an
 * edge out of a block with several that jumps from another line than the
 * block's last statement's (profile.cc, branch_prob). */
static bool gcov_splits_edge(basic_block bb, edge e) {
  gimple *last = last_located_stmt(bb);
  location_t to = e->goto_locus, from = last ? gimple_location(last) : UNKNOWN_LOCATION;
  return last && !RESERVED_LOCATION_P(to) && !gcov_single_succ(bb, false) &&
         (LOCATION_FILE(to) != LOCATION_FILE(from) || LOCATION_LINE(to) != LOCATION_LINE(from));
}

/* bb's lines, as GCC's coverage notes give them: the function's line in
 * the first block, each statement's, and the place of a goto that left
 * no statement; a piece ends after each statement that may not return.
 * A line that only debug statements are on (with -g, GCC marks every
 * statement, one that made no code too: an empty macro's) is marked so,
 * but for the entry of an inlined function, where another compiler's
 * code of the function begins.
 * And its direct calls, for xprof_gprof's call arcs. */
static void block_lines(xprof_linetab *t, basic_block bb, hash_set<xp_location_hash> *seen) {
  location_t decl = DECL_SOURCE_LOCATION(current_function_decl);
  if (bb == ENTRY_BLOCK_PTR_FOR_FN(cfun)->next_bb && !RESERVED_LOCATION_P(decl)) {
    seen->add(decl);
    add_line(t, bb, decl);
  }
  hash_set<xp_line_hash> code; /* the lines of bb's code */
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb(bb); !gsi_end_p(gsi);
       gsi_next_nondebug(&gsi))
    if (!RESERVED_LOCATION_P(gimple_location(gsi_stmt(gsi))))
      code.add(line_key(gimple_location(gsi_stmt(gsi))));
  gimple *last = last_real_stmt(bb);
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
    gimple *stmt = gsi_stmt(gsi);
    location_t loc = gimple_location(stmt);
    if (!RESERVED_LOCATION_P(loc)) {
      seen->add(loc);
      if (is_gimple_debug(stmt) && !gimple_debug_inline_entry_p(stmt) &&
          !code.contains(line_key(loc)))
        add_marker_line(t, bb, loc);
      else
        add_line(t, bb, loc);
    }
    if (tree callee = xp_direct_callee(stmt))
      xprof_linetab_call(t, (uint32_t)bb->index, xp_function_name(callee));
    if (stmt != last && xp_gcc_can_terminate(stmt))
      xprof_linetab_piece(t, (uint32_t)bb->index);
  }
  location_t loc;
  if (gcov_single_succ(bb, true) && (loc = single_succ_edge(bb)->goto_locus) &&
      !RESERVED_LOCATION_P(loc) && !seen->contains(loc))
    add_line(t, bb, loc);
}

/* Where each value-profile site of `sites` is (V records). */
static void site_lines(xprof_linetab *t, const vec<xp_site> *sites) {
  for (unsigned i = 0; i < sites->length(); i++) {
    location_t loc = gimple_location((*sites)[i].stmt);
    if (!RESERVED_LOCATION_P(loc))
      add_line_at(t, i, loc, (*sites)[i].kind);
  }
}

/* cfun's entry in the coverage table: its graph g, and the lines of its
 * blocks and of the blocks GCC's coverage adds (pieces of blocks and
 * blocks on edges), so that xprof_tcov counts lines as gcov does; and
 * where its value-profile sites are. */
void xp_record_lines(xprof_linetab *t, const xprof_plan_fn *f, const xp_cfg *c,
                     const vec<xp_site> *sites) {
  const xprof_graph *g = &c->g;
  expanded_location x = expand_location(DECL_SOURCE_LOCATION(current_function_decl));
  xprof_linetab_proc(t, f->name, f->signature, g->n_nodes, g->edges, g->n_edges,
                     g->counter_of_edge, (uint32_t)g->n_counters, f->comdat, x.file,
                     (uint32_t)x.line);
  xprof_linetab_end_line(t, (uint32_t)expand_location(cfun->function_end_locus).line);
  hash_set<xp_location_hash> seen;
  uint32_t k = 0; /* edges are listed by source block */
  basic_block bb;
  FOR_EACH_BB_FN(bb, cfun) {
    block_lines(t, bb, &seen);
    for (; k < g->n_edges && g->edges[k].src <= (uint32_t)bb->index; k++) {
      edge e = c->gcc_edges[k];
      if (g->edges[k].src != (uint32_t)bb->index || (e->flags & EDGE_FAKE) ||
          !gcov_splits_edge(bb, e))
        continue;
      location_t loc = e->goto_locus;
      expanded_location to = expand_location(loc);
      bool line = !seen.contains(loc);
      xprof_linetab_edge_block(t, k, line ? to.file : NULL, (uint32_t)MAX(1, to.line));
    }
  }
  site_lines(t, sites);
}

/* A place of block (or site) `node`: loc's line and column under its
 * inline chain, whose frames go to p->frames (the loc keeps their index
 * until xp_places_fill points it at them: the vector may move as it
 * grows). */
static void add_place(xp_places *p, vec<xprof_line_loc> *to, uint32_t node, location_t loc) {
  xprof_inline_frame frames[16];
  uint32_t n = inline_chain(loc, frames, 16);
  xprof_line_loc l = {node, (uint32_t)MAX(1, LOCATION_LINE(loc)), NULL, n,
                      (uint32_t)MAX(0, LOCATION_COLUMN(loc))};
  l.frames = (const xprof_inline_frame *)(uintptr_t)p->frames.length();
  for (uint32_t i = 0; i < n; i++)
    p->frames.safe_push(frames[i]);
  to->safe_push(l);
}

/* The frames' index in each of v's locs made a pointer to them. */
static void point_at_frames(xp_places *p, vec<xprof_line_loc> *v) {
  for (unsigned i = 0; i < v->length(); i++)
    (*v)[i].frames = p->frames.address() + (uintptr_t)(*v)[i].frames;
}

/* ---- the source's own lines, before the early optimizations ------------ */

/* Each function's own lines (not inlined code's) as the front end gave
 * them, noted in use builds right after the CFG is built
 * (xp_note_lines): the early optimizations ahead of the xprof pass fold
 * some lines into others (an if/else chain made a switch on its first
 * condition's line), and a line profile's counts of those lines find no
 * place.  Such lines were optimized away, not edited away, and do not
 * count against the match (xprof_places.had_line). */
static xprof_source_lines noted;

void xp_note_lines(void) {
  const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(current_function_decl));
  xprof_inline_frame frames[1];
  auto_vec<uint32_t> lines;
  basic_block bb;
  FOR_EACH_BB_FN(bb, cfun)
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
    location_t loc = gimple_location(gsi_stmt(gsi));
    if (!RESERVED_LOCATION_P(loc) && !is_gimple_debug(gsi_stmt(gsi)) &&
        !inline_chain(loc, frames, 1))
      lines.safe_push((uint32_t)LOCATION_LINE(loc));
  }
  if (xprof_source_lines_add(&noted, fn, lines.address(), lines.length()) < 0)
    fatal_error(UNKNOWN_LOCATION, "xprof: out of memory");
}

void xp_places_fill(void *ctx, xprof_places *out) {
  xp_places *p = (xp_places *)ctx;
  location_t decl = DECL_SOURCE_LOCATION(current_function_decl);
  out->decl_line = RESERVED_LOCATION_P(decl) ? 0 : (uint32_t)LOCATION_LINE(decl);
  basic_block bb;
  FOR_EACH_BB_FN(bb, cfun) {
    if (bb == ENTRY_BLOCK_PTR_FOR_FN(cfun)->next_bb && !RESERVED_LOCATION_P(decl))
      add_place(p, &p->locs, (uint32_t)bb->index, decl);
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
      location_t loc = gimple_location(gsi_stmt(gsi));
      if (!RESERVED_LOCATION_P(loc) && !is_gimple_debug(gsi_stmt(gsi)))
        add_place(p, &p->locs, (uint32_t)bb->index, loc);
    }
  }
  for (unsigned i = 0; p->sites && i < p->sites->length(); i++) {
    location_t loc = gimple_location((*p->sites)[i].stmt);
    if (!RESERVED_LOCATION_P(loc))
      add_place(p, &p->site_locs, i, loc);
  }
  point_at_frames(p, &p->locs);
  point_at_frames(p, &p->site_locs);
  out->locs = p->locs.address();
  out->n_locs = p->locs.length();
  out->sites = p->site_locs.address();
  out->n_sites = p->site_locs.length();
  if (noted.n) {
    out->had_line = xprof_source_lines_had;
    out->had_ctx = &noted;
  }
}

void xp_places_free(xp_places *p) {
  p->locs.release();
  p->site_locs.release();
  p->frames.release();
}

tree xp_direct_callee(gimple *stmt) {
  if (!is_gimple_call(stmt) || gimple_call_internal_p(stmt))
    return NULL_TREE;
  return gimple_call_fndecl(stmt);
}
