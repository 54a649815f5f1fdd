/*
 * lines.c - a function's entry in the coverage table (OBJECT.xpcov,
 * libxprof's linetab.c): its graph and the lines of its blocks, as LLVM's
 * gcov instrumentation gives them, and its direct calls, for
 * xprof_gprof's call arcs.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "collect.h"

/* A source file's path: its directory joined to a relative name
 * (malloc'd). */
static char *join_path(const char *dir, size_t n_dir, const char *name, size_t n_name) {
  char *path;
  int rc = name[0] == '/' || !dir || !n_dir
               ? asprintf(&path, "%.*s", (int)n_name, name)
               : asprintf(&path, "%.*s/%.*s", (int)n_dir, dir, (int)n_name, name);
  if (rc < 0)
    xl_check(NULL);
  return path;
}

/* The source file of v's debug location (an instruction's, or a
 * function's declaration), its directory and name joined; NULL when it
 * has none. */
static const char *debug_file(xl_collect *c, LLVMValueRef v) {
  unsigned n_name, n_dir;
  const char *name = LLVMGetDebugLocFilename(v, &n_name);
  const char *dir = LLVMGetDebugLocDirectory(v, &n_dir);
  if (!name || !n_name)
    return NULL;
  if (name == c->file_name && dir == c->file_dir)
    return c->file;
  free(c->file);
  c->file = join_path(dir, n_dir, name, n_name);
  c->file_name = name;
  c->file_dir = dir;
  return c->file;
}

const char *xl_direct_callee(LLVMValueRef i) {
  if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
    return NULL;
  LLVMValueRef callee = LLVMGetCalledValue(i);
  if (!callee || !LLVMIsAFunction(callee) || LLVMGetIntrinsicID(callee))
    return NULL;
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  return len ? name : NULL;
}

/* The file an inlined function is declared in (malloc'd). */
static char *origin_file(const struct xl_origin *x) {
  return join_path(x->dir, x->dir_len, x->file, x->file_len);
}

/* Line `line` of `file` in block k, and i's column there (kind <
 * XPROF_SITE_KINDS: of value-profile site k, of that kind), with
 * the functions inlined around instruction i (innermost first, as the
 * table takes them). */
static void add_line(xl_collect *c, uint32_t k, LLVMValueRef i, const char *file,
                     unsigned line, uint32_t kind) {
  struct xl_origin o[16];
  xprof_inline_frame frames[16];
  char *names[16], *files[16];
  unsigned n = xl_inline_chain(i, o, 16);
  for (unsigned d = 0; d < n; d++) {
    const struct xl_origin *x = &o[d];
    files[d] = origin_file(x);
    if (asprintf(&names[d], "%.*s", (int)x->name_len, x->name) < 0)
      xl_check(NULL);
    frames[d] = (xprof_inline_frame){names[d], files[d], x->line, x->call_line};
  }
  if (kind < XPROF_SITE_KINDS) {
    xprof_linetab_site(c->lines, k, kind, file, line, frames, n);
  } else {
    xprof_linetab_inlined_line(c->lines, k, file, line, frames, n);
    xprof_linetab_column(c->lines, k, file, line, LLVMGetDebugLocColumn(i), frames, n);
  }
  for (unsigned d = 0; d < n; d++) {
    free(names[d]);
    free(files[d]);
  }
}

/* A direct call in block k, for xprof_gprof's call arcs. */
static void record_call(xl_collect *c, uint32_t k, LLVMValueRef i) {
  const char *name = xl_direct_callee(i);
  if (name)
    xprof_linetab_call(c->lines, k, name);
}

/* fn's entry in the coverage table: its graph and the lines of its
 * blocks, as LLVM's gcov instrumentation gives them (the declaration's
 * line in the entry block, then each instruction's), and where its n
 * value-profile sites are. */
void xl_record_lines(xl_collect *c, LLVMValueRef fn, const xprof_plan_fn *f,
                     const struct xl_cfg *cfg, const LLVMValueRef *sites, uint32_t n) {
  const xprof_graph *g = &cfg->g;
  const char *decl = debug_file(c, fn);
  unsigned decl_line = decl ? LLVMGetDebugLocLine(fn) : 0;
  xprof_linetab_proc(c->lines, f->name, f->signature, g->n_nodes, g->edges, g->n_edges,
                     g->counter_of_edge, (uint32_t)g->n_counters, f->comdat, decl, decl_line);
  if (decl)
    xprof_linetab_line(c->lines, 2, decl, decl_line);
  for (uint32_t k = 2; k < g->n_nodes; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->blocks[k]); i;
         i = LLVMGetNextInstruction(i)) {
      unsigned line = LLVMIsADbgInfoIntrinsic(i) ? 0 : LLVMGetDebugLocLine(i);
      const char *file = line ? debug_file(c, i) : NULL;
      if (file)
        add_line(c, k, i, file, line, XPROF_SITE_KINDS);
      record_call(c, k, i);
    }
  for (uint32_t s = 0; s < n; s++) {
    unsigned line = LLVMGetDebugLocLine(sites[s]);
    const char *file = line ? debug_file(c, sites[s]) : NULL;
    if (file)
      add_line(c, s, sites[s], file, line, g->site_kind[s]);
  }
}

/* ---- places, for a use build's match by source line ---------------------- */

/* s (an inlined function's name or file), kept until xl_places_free. */
static const char *place_keep(struct xl_places *p, char *s) {
  p->names = xl_grow(p->names, &p->cap_names, p->n_names, sizeof *p->names);
  return p->names[p->n_names++] = s;
}

static const char *place_name(struct xl_places *p, const char *name, size_t len) {
  char *s = xl_malloc(len + 1);
  memcpy(s, name, len);
  s[len] = 0;
  return place_keep(p, s);
}

/* Block k's place at instruction i, line `line` and i's column (site:
 * value-profile site k's, at call i); its frames' index in p->frames
 * stands in the loc until xl_places_fill points it at them. */
static void add_place(struct xl_places *p, uint32_t k, LLVMValueRef i, unsigned line, int site) {
  struct xl_origin o[16];
  unsigned n = i ? xl_inline_chain(i, o, 16) : 0;
  xprof_line_loc l = {k, line, (const xprof_inline_frame *)(uintptr_t)p->n_frames, n,
                      i ? LLVMGetDebugLocColumn(i) : 0};
  if (site) {
    p->sites = xl_grow(p->sites, &p->cap_sites, p->n_sites, sizeof *p->sites);
    p->sites[p->n_sites++] = l;
  } else {
    p->locs = xl_grow(p->locs, &p->cap_locs, p->n_locs, sizeof *p->locs);
    p->locs[p->n_locs++] = l;
  }
  for (unsigned d = 0; d < n; d++) {
    p->frames = xl_grow(p->frames, &p->cap_frames, p->n_frames, sizeof *p->frames);
    p->frames[p->n_frames++] = (xprof_inline_frame){place_name(p, o[d].name, o[d].name_len),
                                                    place_keep(p, origin_file(&o[d])),
                                                    o[d].line, o[d].call_line};
  }
}

/* The frames' index in each of the n locs made a pointer to them. */
static void point_at_frames(struct xl_places *p, xprof_line_loc *locs, uint32_t n) {
  for (uint32_t j = 0; j < n; j++)
    locs[j].frames = locs[j].depth ? p->frames + (uintptr_t)locs[j].frames : NULL;
}

/* ---- the source's own lines, before the first simplifications ----------- */

/* Each function's own lines (not inlined code's) as the front end gave
 * them, noted by xl_note_source_lines before the clean-up ahead of the
 * xprof pass: that clean-up can leave an arm no code of its own (a
 * constant of the join's phi, or code moved into the join; the arms stay
 * blocks, arms.c), so a line profile's counts of the arm find no place.
 * With -xprof-arms=false it makes small arms selects whose code takes the
 * condition's line.  Such lines were optimized away, not edited
 * away, and do not count against the match (xprof_places.had_line).
 * For one module at a time, as the shipped data (cfg.c). */
static struct {
  LLVMModuleRef m;
  xprof_source_lines lines;
} noted;

/* fn's own lines, as the table takes them. */
static void note_function(LLVMValueRef fn, const char *name) {
  uint32_t *lines = NULL, n = 0, cap = 0;
  struct xl_origin o[1];
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      unsigned line = LLVMIsADbgInfoIntrinsic(i) ? 0 : LLVMGetDebugLocLine(i);
      if (!line || xl_inline_chain(i, o, 1))
        continue;
      lines = xl_grow(lines, &cap, n, sizeof *lines);
      lines[n++] = line;
    }
  if (xprof_source_lines_add(&noted.lines, name, lines, n) < 0)
    xl_check(NULL);
  free(lines);
}

void xl_note_source_lines(LLVMModuleRef m) {
  xprof_source_lines_free(&noted.lines);
  noted.m = m;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    if (LLVMIsDeclaration(fn) || !len)
      continue;
    char *copy = xl_malloc(len + 1);
    memcpy(copy, name, len);
    copy[len] = 0;
    note_function(fn, copy);
    free(copy);
  }
}

void xl_places_fill(void *ctx, xprof_places *out) {
  struct xl_places *p = ctx;
  const xprof_graph *g = &p->cfg->g;
  unsigned n_file;
  out->decl_line = LLVMGetDebugLocFilename(p->fn, &n_file) ? LLVMGetDebugLocLine(p->fn) : 0;
  if (out->decl_line && g->n_nodes > 2)
    add_place(p, 2, NULL, out->decl_line, 0);
  for (uint32_t k = 2; k < g->n_nodes; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(p->cfg->blocks[k]); i;
         i = LLVMGetNextInstruction(i)) {
      unsigned line = LLVMIsADbgInfoIntrinsic(i) ? 0 : LLVMGetDebugLocLine(i);
      if (line)
        add_place(p, k, i, line, 0);
    }
  for (uint32_t s = 0; s < p->n_calls; s++) {
    unsigned line = LLVMGetDebugLocLine(p->calls[s]);
    if (line)
      add_place(p, s, p->calls[s], line, 1);
  }
  point_at_frames(p, p->locs, p->n_locs);
  point_at_frames(p, p->sites, p->n_sites);
  out->locs = p->locs;
  out->n_locs = p->n_locs;
  out->sites = p->sites;
  out->n_sites = p->n_sites;
  if (noted.m && noted.m == LLVMGetGlobalParent(p->fn)) {
    out->had_line = xprof_source_lines_had;
    out->had_ctx = &noted.lines;
  }
}

int xl_place_of(struct xl_places *p, LLVMValueRef i, xprof_line_loc *loc) {
  xl_places_free(p);
  unsigned line = LLVMGetDebugLocLine(i);
  if (!line)
    return 0;
  add_place(p, 0, i, line, 0);
  *loc = p->locs[0];
  loc->frames = loc->depth ? p->frames : NULL;
  return 1;
}

void xl_places_free(struct xl_places *p) {
  for (uint32_t i = 0; i < p->n_names; i++)
    free(p->names[i]);
  free(p->names);
  free(p->locs);
  free(p->sites);
  free(p->frames);
  memset(p, 0, sizeof *p);
}
