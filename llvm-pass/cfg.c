/*
 * cfg.c - the function CFG that both modes see identically, names, and
 * the object file's path.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "core.h"
#include "xprof_abi.h"

/* libxprof's messages, for the module's LLVMContext: the warning's name
 * after the text, as clang's own warnings carry theirs. */
static void emit(void *ctx, xprof_diag_kind kind, enum xprof_warning w, const char *text) {
  char suffix[96], buf[1280];
  xprof_warning_suffix(kind, w, suffix, sizeof suffix);
  snprintf(buf, sizeof buf, "%s%s", text, suffix);
  xl_diagnose((LLVMModuleRef)ctx, kind, buf);
}

xprof_diag xl_diag(LLVMModuleRef m, const xprof_options *o) {
  xprof_diag d = {o, emit, m};
  return d;
}

static void *checked(void *block, size_t size) {
  if (!block && size) {
    fprintf(stderr, "xprof: out of memory (%zu bytes)\n", size);
    abort();
  }
  return block;
}

void *xl_malloc(size_t size) { return checked(malloc(size), size); }

void *xl_calloc(size_t n, size_t size) { return checked(calloc(n, size), n * size); }

void *xl_realloc(void *block, size_t size) { return checked(realloc(block, size), size); }

char *xl_strdup(const char *s) { return checked(strdup(s), strlen(s) + 1); }

void *xl_check(void *block) { return checked(block, 1); }

void *xl_grow(void *array, uint32_t *cap, uint32_t n, size_t elem) {
  if (n < *cap)
    return array;
  *cap = *cap ? *cap * 2 : 16;
  return xl_realloc(array, (size_t)*cap * elem);
}

/* The attribute named, in v's context; NULL for a name LLVM lacks. */
static LLVMAttributeRef enum_attr(LLVMValueRef v, const char *name) {
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  if (kind == 0)
    return NULL;
  return LLVMCreateEnumAttribute(LLVMGetTypeContext(LLVMTypeOf(v)), kind, 0);
}

void xl_add_fn_attr(LLVMValueRef fn, const char *name) {
  LLVMAttributeRef a = enum_attr(fn, name);
  if (a)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
}

void xl_add_call_attr(LLVMValueRef call, const char *name) {
  LLVMAttributeRef a = enum_attr(call, name);
  if (a)
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, a);
}

int xl_has_fn_attr(LLVMValueRef fn, const char *name) {
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  return kind && LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind) != NULL;
}

/* The source file of fn as the debug information names it, else the
 * module's (malloc'd). */
static char *source_file(LLVMModuleRef m, LLVMValueRef fn) {
  size_t len;
  const char *file = NULL;
  LLVMMetadataRef sp = LLVMGetSubprogram(fn);
  if (sp) {
    unsigned n;
    file = LLVMDIFileGetFilename(LLVMDIScopeGetFile(sp), &n);
    len = n;
  }
  if (!file)
    file = LLVMGetSourceFileName(m, &len);
  char *copy = xl_malloc(len + 1);
  memcpy(copy, file, len);
  copy[len] = 0;
  return copy;
}

int xl_profiled_function(LLVMModuleRef m, LLVMValueRef fn, const xprof_options *o) {
  if (LLVMIsDeclaration(fn))
    return 0;
  LLVMLinkage l = LLVMGetLinkage(fn);
  if (l == LLVMAvailableExternallyLinkage)
    return 0;
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  if (len == 0 || strncmp(name, XPROF_ABI_PREFIX, strlen(XPROF_ABI_PREFIX)) == 0)
    return 0;
  unsigned attrs = (xl_has_fn_attr(fn, "noprofile") ? XPROF_ATTR_NO_PROFILE : 0) |
                   (xl_has_fn_attr(fn, "naked") ? XPROF_ATTR_NAKED : 0);
  if (xprof_skip_attributes(attrs))
    return 0;
  xprof_skip_list skip = xprof_options_skip(o);
  if (!skip.n_functions && !skip.n_files && !skip.file_filter && !skip.profile_list)
    return 1;
  char *plain = xl_plain_name(fn), *file = source_file(m, fn);
  int skip_it = xprof_skip_function(&skip, xl_function_name(fn), plain, file);
  free(plain);
  free(file);
  return !skip_it;
}

const char *xl_function_name(LLVMValueRef fn) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  return name[0] == 1 ? name + 1 : name;
}

char *xl_function_file(LLVMValueRef fn) {
  unsigned len = 0;
  const char *file = LLVMGetDebugLocFilename(fn, &len);
  if (!file || !len)
    return NULL;
  char *copy = xl_calloc(len + 1, 1);
  memcpy(copy, file, len);
  return copy;
}

int xl_is_indirect_call(LLVMValueRef i) {
  if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
    return 0;
  LLVMValueRef callee = LLVMGetCalledValue(i);
  return !LLVMIsAFunction(callee) && !LLVMIsAInlineAsm(callee) &&
         !LLVMIsAConstant(callee);
}

void xl_branch_weights(LLVMValueRef term, const uint64_t *w, unsigned n,
                       LLVMMetadataRef *ops) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(term));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(cx);
  uint64_t max = 0;
  for (unsigned i = 0; i < n; i++)
    if (w[i] > max)
      max = w[i];
  uint64_t scale = max > UINT32_MAX ? max / UINT32_MAX + 1 : 1;
  ops[0] = LLVMMDStringInContext2(cx, "branch_weights", 14);
  for (unsigned i = 0; i < n; i++)
    ops[i + 1] = LLVMValueAsMetadata(LLVMConstInt(i32, w[i] / scale, 0));
  LLVMSetMetadata(term, LLVMGetMDKindIDInContext(cx, "prof", 4),
                  LLVMMetadataAsValue(cx, LLVMMDNodeInContext2(cx, ops, n + 1)));
}

int xl_division(LLVMValueRef inst) {
  switch (LLVMGetInstructionOpcode(inst)) {
  case LLVMSDiv:
  case LLVMUDiv:
  case LLVMSRem:
  case LLVMURem:
    break;
  default:
    return 0;
  }
  LLVMTypeRef t = LLVMTypeOf(inst);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) <= 64 &&
         !LLVMIsAConstant(LLVMGetOperand(inst, 1));
}

enum xprof_site_kind xl_site_kind(const LLVMValueRef *sites, uint32_t s) {
  if (xl_memop_length(sites[s]))
    return XPROF_SITE_LENGTH;
  if (!xl_division(sites[s]))
    return XPROF_SITE_CALL;
  return s > 0 && sites[s - 1] == sites[s] ? XPROF_SITE_QUOTIENT : XPROF_SITE_DIVISOR;
}

unsigned xl_site_vp_type(const LLVMValueRef *sites, uint32_t s) {
  switch (xl_site_kind(sites, s)) {
  case XPROF_SITE_CALL:
    return XPROF_VP_PROC;
  case XPROF_SITE_LENGTH:
    return XPROF_VP_LLONG;
  default:
    return LLVMGetIntTypeWidth(LLVMTypeOf(sites[s])) <= 32 ? XPROF_VP_INT : XPROF_VP_LLONG;
  }
}

static LLVMValueRef *push_site(LLVMValueRef *v, uint32_t *cap, uint32_t *k, LLVMValueRef i) {
  v = xl_grow(v, cap, *k, sizeof *v);
  v[(*k)++] = i;
  return v;
}

LLVMValueRef *xl_vp_sites(LLVMValueRef fn, uint32_t *n) {
  uint32_t cap = 0, k = 0;
  LLVMValueRef *v = NULL;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
         i = LLVMGetNextInstruction(i)) {
      if (xl_is_indirect_call(i) || xl_memop_length(i) || xl_division(i))
        v = push_site(v, &cap, &k, i);
      if (xl_division(i) && LLVMGetInstructionOpcode(i) == LLVMURem)
        v = push_site(v, &cap, &k, i); /* its quotient */
    }
  if (!v)
    v = xl_malloc(sizeof *v);
  *n = k;
  return v;
}

/* Block -> node, by open addressing on the block's address. */
typedef struct block_map {
  LLVMBasicBlockRef *keys;
  uint32_t *vals, mask;
} block_map;

static uint32_t bm_slot(const block_map *m, LLVMBasicBlockRef b) {
  uint32_t h = (uint32_t)(((uintptr_t)b >> 4) * 2654435761u) & m->mask;
  while (m->keys[h] && m->keys[h] != b)
    h = (h + 1) & m->mask;
  return h;
}

static uint32_t node_of(const block_map *m, LLVMBasicBlockRef b) {
  return m->vals[bm_slot(m, b)];
}


static int terminator_kind(LLVMValueRef t, int *exits, int *fake_exit) {
  LLVMOpcode op = LLVMGetInstructionOpcode(t);
  *exits = op == LLVMRet;
  *fake_exit = op == LLVMUnreachable || op == LLVMResume ||
               (op == LLVMCleanupRet && LLVMGetNumSuccessors(t) == 0) ||
               (op == LLVMCatchSwitch && LLVMGetNumSuccessors(t) == 0);
  return op;
}

/* Does the block hold a call that needs a fake edge (xl_call_risk 2)?
 * Calls that may leave only through a call through a pointer further
 * down (1) do not: that call has its own. */
static int has_risky_call(LLVMBasicBlockRef b) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
    if ((LLVMIsACallInst(i) || LLVMIsAInvokeInst(i)) && xl_call_risk(i) == 2)
      return 1;
  return 0;
}

static int after_returns_twice(LLVMBasicBlockRef b) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
  LLVMValueRef prev = t ? LLVMGetPreviousInstruction(t) : NULL;
  return prev && LLVMIsACallInst(prev) && xl_call_returns_twice(prev);
}

/* Before CoroSplit, a coroutine's suspend point is a switch on the
 * result of llvm.coro.suspend, in the same block.  CoroSplit cuts the
 * block before the call: what follows it runs when the coroutine
 * suspends (the switch then takes its default edge) and again each time
 * the resume or destroy function enters there (its two cases) -- from
 * nowhere, as far as this CFG goes, as a setjmp continuation is. */
static int is_coro_suspend(LLVMValueRef t) {
  static unsigned id;
  if (!id)
    id = LLVMLookupIntrinsicID("llvm.coro.suspend", strlen("llvm.coro.suspend"));
  if (!t || LLVMGetInstructionOpcode(t) != LLVMSwitch)
    return 0;
  LLVMValueRef c = LLVMGetOperand(t, 0), f = NULL;
  if (LLVMIsACallInst(c) && LLVMGetInstructionParent(c) == LLVMGetInstructionParent(t))
    f = LLVMGetCalledValue(c);
  return f && LLVMIsAFunction(f) && id && LLVMGetIntrinsicID(f) == id;
}

/* So that the block a suspend point's switch ends starts where CoroSplit
 * cuts: the call to llvm.coro.suspend. */
static void split_before_suspends(LLVMValueRef fn) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
    if (is_coro_suspend(t) && LLVMGetPreviousInstruction(LLVMGetOperand(t, 0)))
      xl_split_block_before(LLVMGetOperand(t, 0));
  }
}

/* The blocks entered from nowhere that a block leads to: a setjmp call's
 * continuation; a suspend point (after split_before_suspends), itself. */
static void for_each_reentry(LLVMBasicBlockRef b, void (*fn)(LLVMBasicBlockRef, void *),
                             void *arg) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
  if (!t)
    return;
  if (after_returns_twice(b) && LLVMGetNumSuccessors(t) == 1)
    fn(LLVMGetSuccessor(t, 0), arg);
  else if (is_coro_suspend(t))
    fn(b, arg);
}

static void split_if_risky(LLVMBasicBlockRef b, void *arg) {
  (void)arg;
  if (has_risky_call(b))
    xl_split_block_at_start(b);
}

/* A continuation (see for_each_reentry) that also holds a call that may
 * not return would have its flow in (fake, from ENTRY) and out (fake, to
 * EXIT) uncounted: a cycle with no counter, and the function would go
 * unprofiled.  Its head becomes a block of its own, so that the edge
 * between the two parts can be counted. */
static void split_risky_continuations(LLVMValueRef fn) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for_each_reentry(b, split_if_risky, NULL);
}

/* Does successor slot i of terminator t go where an earlier slot goes? */
static int repeated_successor(LLVMValueRef t, unsigned i) {
  LLVMBasicBlockRef d = LLVMGetSuccessor(t, i);
  for (unsigned j = 0; j < i; j++)
    if (LLVMGetSuccessor(t, j) == d)
      return 1;
  return 0;
}

struct mark_ctx {
  block_map *m;
  unsigned char *fake_entry;
};

static void mark_fake_entry(LLVMBasicBlockRef b, void *arg) {
  struct mark_ctx *mc = arg;
  mc->fake_entry[node_of(mc->m, b)] = 1;
}

/* Each indirect call that its site measures starts a block of its own,
 * entered by one edge from the block split off before it: that edge runs
 * as often as the call, which the site's counts sum to, so it needs no
 * counter -- one counter fewer per call, and no more for a fake edge
 * beside a call that may not return.  Returns the new blocks by site
 * (NULL for sites not measured). */
static LLVMBasicBlockRef *split_before_measured_calls(const LLVMValueRef *sites,
                                                      uint32_t n_sites) {
  LLVMBasicBlockRef *head = xl_calloc(n_sites + 1, sizeof *head);
  for (uint32_t s = 0; s < n_sites; s++)
    if (xl_site_kind(sites, s) == XPROF_SITE_CALL)
      head[s] = xl_split_block_before(sites[s]);
  return head;
}

/* The selects whose conditions are counted: those outside loops, in a
 * function with loops.  clang's code generator turns a select that goes
 * one way more than 99% of the time into a branch, and LLVM's own
 * instrumentation counts every select for it; outside loops a counter
 * runs once per call of a function that does far more work in its loops
 * (zstd's match finders), where the
 * selects of small loop-free functions would be counted in their
 * callers' loops once inlined. */
/* The selects of fn that find_selects counts, grown to fit. */
typedef struct select_list {
  LLVMValueRef *inst;
  uint32_t *node, *slot; /* its block's node; the side counter it shares */
  uint32_t n, cap, n_counters;
} select_list;

static void add_select(select_list *l, LLVMValueRef i, uint32_t node, uint32_t first_of_block) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->inst = xl_realloc(l->inst, l->cap * sizeof *l->inst);
    l->node = xl_realloc(l->node, l->cap * sizeof *l->node);
    l->slot = xl_realloc(l->slot, l->cap * sizeof *l->slot);
  }
  /* Selects of a block with the same condition share one counter. */
  LLVMValueRef cond = LLVMGetOperand(i, 0);
  uint32_t slot = l->n_counters;
  for (uint32_t j = first_of_block; j < l->n; j++)
    if (LLVMGetOperand(l->inst[j], 0) == cond)
      slot = l->slot[j];
  if (slot == l->n_counters)
    l->n_counters++;
  l->inst[l->n] = i;
  l->node[l->n] = node;
  l->slot[l->n++] = slot;
}

static void find_selects(LLVMValueRef fn, LLVMBasicBlockRef *blocks, uint32_t n_nodes,
                         select_list *l) {
  unsigned char *on_cycle = xl_calloc(n_nodes - 2 + 1, 1);
  if (xl_mark_cycle_blocks(fn, on_cycle) == 0) {
    free(on_cycle);
    return;
  }
  for (uint32_t k = 2; k < n_nodes; k++) {
    if (on_cycle[k - 2])
      continue;
    uint32_t first_of_block = l->n;
    for (LLVMValueRef i = LLVMGetFirstInstruction(blocks[k]); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMGetInstructionOpcode(i) != LLVMSelect)
        continue;
      LLVMValueRef cond = LLVMGetOperand(i, 0);
      if (LLVMIsAConstant(cond) || LLVMGetTypeKind(LLVMTypeOf(cond)) != LLVMIntegerTypeKind)
        continue; /* vector selects have no branch weights */
      add_select(l, i, k, first_of_block);
    }
  }
  free(on_cycle);
}

/* What building a function's graph needs to know of its blocks: their
 * nodes, how many blocks lead to each, which are entered again after a
 * return (fake entry), and which begin with a measured indirect call (the
 * call's site, or UINT32_MAX); and the room the edges need. */
typedef struct graph_builder {
  block_map m;
  uint32_t *preds;
  unsigned char *fake_entry;
  uint32_t *site_of_node;
  uint32_t n_nodes, cap_edges;
  LLVMBasicBlockRef *blocks;
} graph_builder;

/* Number the blocks (node 2 on) and fill gb: room for every successor
 * slot, plus entry, exits and fakes. */
static void index_blocks(LLVMValueRef fn, LLVMBasicBlockRef *measured, uint32_t n_sites,
                         graph_builder *gb) {
  gb->n_nodes = LLVMCountBasicBlocks(fn) + 2;
  gb->blocks = xl_calloc(gb->n_nodes, sizeof *gb->blocks);
  uint32_t size = 16;
  while (size < 2 * gb->n_nodes)
    size *= 2;
  gb->m = (block_map){xl_calloc(size, sizeof *gb->m.keys), xl_calloc(size, sizeof *gb->m.vals),
                      size - 1};
  gb->preds = xl_calloc(gb->n_nodes, sizeof *gb->preds);
  gb->fake_entry = xl_calloc(gb->n_nodes, 1);
  gb->site_of_node = xl_malloc(gb->n_nodes * sizeof *gb->site_of_node);
  uint32_t cap = 2, k = 2;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b), k++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
    cap += (t ? LLVMGetNumSuccessors(t) : 0) + 3;
    gb->blocks[k] = b;
    uint32_t s = bm_slot(&gb->m, b);
    gb->m.keys[s] = b;
    gb->m.vals[s] = k;
  }
  gb->cap_edges = cap;
  for (k = 2; k < gb->n_nodes; k++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(gb->blocks[k]);
    /* Predecessor blocks, not slots: a switch's cases that share a
     * destination are one edge. */
    for (unsigned i = 0; t && i < LLVMGetNumSuccessors(t); i++)
      if (!repeated_successor(t, i))
        gb->preds[node_of(&gb->m, LLVMGetSuccessor(t, i))]++;
    struct mark_ctx mc = {&gb->m, gb->fake_entry};
    for_each_reentry(gb->blocks[k], mark_fake_entry, &mc);
  }
  for (k = 0; k < gb->n_nodes; k++)
    gb->site_of_node[k] = UINT32_MAX;
  for (uint32_t s = 0; measured && s < n_sites; s++)
    if (measured[s])
      gb->site_of_node[node_of(&gb->m, measured[s])] = s;
}

static void free_builder(graph_builder *gb) {
  free(gb->m.keys);
  free(gb->m.vals);
  free(gb->preds);
  free(gb->fake_entry);
  free(gb->site_of_node);
}

/* An edge of the graph, and the successor slot of its source it leaves
 * by (0 for edges into EXIT). */
static void add_edge(struct xl_cfg *c, uint32_t src, uint32_t dst, uint32_t flags,
                     uint64_t weight, uint32_t site, uint32_t slot) {
  c->succ_slot[c->g.n_edges] = slot;
  if (xprof_graph_edge(&c->g, src, dst, flags, weight, site) < 0)
    xl_check(NULL); /* no room: the count of edges above is wrong */
}

/* The edges from block node k to its successors. */
static void successor_edges(struct xl_cfg *c, const graph_builder *gb, void *freq, uint32_t k,
                            LLVMValueRef t) {
  unsigned ns = LLVMGetNumSuccessors(t);
  int exits, fake_exit, op = terminator_kind(t, &exits, &fake_exit);
  for (unsigned i = 0; i < ns; i++) {
    if (repeated_successor(t, i))
      continue; /* parallel slots are one edge: indistinguishable */
    LLVMBasicBlockRef d = LLVMGetSuccessor(t, i);
    uint32_t dn = node_of(&gb->m, d);
    uint32_t flags = 0;
    if (ns > 1 && gb->preds[dn] > 1)
      flags |= XPROF_EDGE_CRITICAL;
    /* No counter where no block can be inserted. */
    if ((flags & XPROF_EDGE_CRITICAL) &&
        (op == LLVMIndirectBr || op == LLVMCallBr || xl_is_eh_pad_block(d)))
      flags |= XPROF_EDGE_NOCOUNT;
    if (!(flags & XPROF_EDGE_CRITICAL) && ns > 1 && !xl_first_insertion_point(d))
      flags |= XPROF_EDGE_NOCOUNT;
    uint32_t site = gb->site_of_node[dn];
    if (site != UINT32_MAX) /* the block's one way in (split off) */
      flags |= XPROF_EDGE_MEASURED;
    add_edge(c, k, dn, flags, xl_freq_edge(freq, c->blocks[k], i),
             site != UINT32_MAX ? site : 0, i);
  }
}

/* Block node k's edges: a fake one in from ENTRY when it is entered again
 * after a return, to its successors, and out to EXIT (its return, and a
 * fake edge for a call that may not return). */
static void block_edges(struct xl_cfg *c, const graph_builder *gb, void *freq, uint32_t k) {
  LLVMBasicBlockRef b = c->blocks[k];
  LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
  if (gb->fake_entry[k])
    add_edge(c, XPROF_ENTRY, k, XPROF_EDGE_FAKE, 0, 0, 0);
  int exits = 0, fake_exit = !t;
  if (t) {
    terminator_kind(t, &exits, &fake_exit);
    successor_edges(c, gb, freq, k, t);
  }
  /* A block that returns and holds a call that may not return needs no
   * fake edge beside its return: the return edge, never counted, carries
   * both (its count is everything that entered the block). */
  int risky = has_risky_call(b);
  /* But a call through a pointer that its site measures keeps the two
   * apart, so that the calls that did not return are known (use.c,
   * unreturned_calls): the return costs a counter. */
  int apart = risky && exits && gb->site_of_node[k] != UINT32_MAX;
  if (exits)
    add_edge(c, k, XPROF_EXIT, risky && !apart ? XPROF_EDGE_NOCOUNT : 0, xl_freq_block(freq, b),
             0, 0);
  if (fake_exit || (risky && (!exits || apart)))
    add_edge(c, k, XPROF_EXIT, XPROF_EDGE_FAKE, 0, 0, 0);
}

/* What an instruction does, for its block's hash: its opcode, its
 * comparison, whom it calls; not its operands' names, its constants or
 * its debug location, which an edit elsewhere changes.  Debug intrinsics
 * are left out: -g does not change a hash. */
static uint32_t instruction_hash(uint32_t h, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  if (op == LLVMCall || op == LLVMInvoke || op == LLVMCallBr) {
    LLVMValueRef callee = LLVMGetCalledValue(i);
    if (callee && LLVMIsAFunction(callee)) {
      size_t len;
      const char *name = LLVMGetValueName2(callee, &len);
      if (len > 9 && strncmp(name, "llvm.dbg.", 9) == 0)
        return h;
      return xprof_block_hash_str(xprof_block_hash_add(h, op), name);
    }
    return xprof_block_hash_add(xprof_block_hash_add(h, op), 999); /* indirect */
  }
  h = xprof_block_hash_add(h, op);
  if (op == LLVMICmp)
    return xprof_block_hash_add(h, LLVMGetICmpPredicate(i));
  if (op == LLVMFCmp)
    return xprof_block_hash_add(h, LLVMGetFCmpPredicate(i));
  if (op == LLVMSwitch)
    return xprof_block_hash_add(h, LLVMGetNumSuccessors(i));
  return h;
}

static void hash_blocks(struct xl_cfg *c) {
  for (uint32_t k = 2; k < c->g.n_nodes; k++) {
    uint32_t h = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(c->blocks[k]); i;
         i = LLVMGetNextInstruction(i))
      h = instruction_hash(h, i);
    c->g.hash[k] = h;
  }
}

/* The sites' nodes, kinds and types, and the selects' nodes and counters,
 * in the graph. */
static void describe_sites(struct xl_cfg *c, const LLVMValueRef *sites, uint32_t n_sites,
                           const select_list *selects) {
  for (uint32_t k = 0; k < n_sites; k++) {
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(sites[k]);
    for (uint32_t v = 2; v < c->g.n_nodes; v++)
      if (c->blocks[v] == bb)
        c->g.site_node[k] = v;
    c->g.site_kind[k] = xl_site_kind(sites, k);
    c->g.site_type[k] = xl_site_vp_type(sites, k);
  }
  c->g.n_side_counters = selects->n_counters;
  for (uint32_t i = 0; i < selects->n; i++) {
    c->g.side_node[i] = selects->node[i];
    c->g.side_slot[i] = selects->slot[i];
  }
  c->selects = selects->inst;
}

int xl_cfg_build(LLVMValueRef fn, const LLVMValueRef *sites, uint32_t n_vp_sites,
                 int measure_calls, int count_selects, struct xl_cfg *c) {
  memset(c, 0, sizeof *c);
  xl_split_after_returns_twice(fn);
  xl_split_landing_pads(fn);
  split_before_suspends(fn);
  split_risky_continuations(fn);
  LLVMBasicBlockRef *measured =
      measure_calls ? split_before_measured_calls(sites, n_vp_sites) : NULL;
  graph_builder gb;
  index_blocks(fn, measured, n_vp_sites, &gb);
  select_list selects = {0};
  if (count_selects)
    find_selects(fn, gb.blocks, gb.n_nodes, &selects);
  if (xprof_graph_reserve(&c->g, gb.n_nodes, gb.cap_edges, n_vp_sites, selects.n) < 0)
    xl_check(NULL);
  c->blocks = gb.blocks;
  c->succ_slot = xl_calloc(gb.cap_edges + 1, sizeof *c->succ_slot);
  /* Estimated frequencies: the heaviest edges stay on the tree. */
  void *freq = xl_freq_open(fn);
  add_edge(c, XPROF_ENTRY, 2, 0, xl_freq_block(freq, c->blocks[2]), 0, 0);
  for (uint32_t k = 2; k < c->g.n_nodes; k++)
    block_edges(c, &gb, freq, k);
  xl_freq_close(freq);
  /* Fake edges to EXIT from blocks that cannot reach it (infinite loops),
   * after the others: there is room, since such a block has no edge to
   * EXIT of its own. */
  if (xprof_graph_connect_dead_ends(&c->g) < 0)
    xl_check(NULL);
  describe_sites(c, sites, n_vp_sites, &selects);
  free(selects.node);
  free(selects.slot);
  hash_blocks(c);
  free_builder(&gb);
  free(measured);
  return xprof_graph_place(&c->g) == 0;
}

void xl_cfg_free(struct xl_cfg *c) {
  xprof_graph_free(&c->g);
  free(c->blocks);
  free(c->succ_slot);
  free(c->selects);
  memset(c, 0, sizeof *c);
}

/* What a driver shipped in the module's asm for a compilation on another
 * machine (distcc: xprof_ship_object, xprof_use_ship), taken out by
 * xl_take_shipped at the start of each run. */
static struct {
  LLVMModuleRef m;
  xprof_shipped s;
} shipped;

void xl_take_shipped(LLVMModuleRef m) {
  xprof_shipped_free(&shipped.s);
  shipped.m = m;
  size_t len;
  const char *text = LLVMGetModuleInlineAsm(m, &len);
  if (!text || !len)
    return;
  int rc = xprof_take_shipped(text, len, &shipped.s);
  if (rc < 0)
    xl_check(NULL);
  if (rc > 0)
    LLVMSetModuleInlineAsm2(m, shipped.s.kept, shipped.s.kept_len);
}

const char *xl_shipped_data(LLVMModuleRef m, size_t *n) {
  *n = shipped.s.n;
  return shipped.m == m ? shipped.s.data : NULL;
}

/* The object file as the command names it, as GCC names the object of a
 * compile (xprof_link_object_name), resolved (malloc'd); NULL when
 * compiled on another machine. */
char *xl_object_file(LLVMModuleRef m, const xprof_options *o) {
  if (shipped.m == m && shipped.s.objpath) /* compiled elsewhere */
    return NULL;
  size_t len;
  const char *src = LLVMGetSourceFileName(m, &len);
  char *rel = xl_check(xprof_link_object_name(o->output, o->link, src, len));
  char *resolved = xl_check(xprof_object_path_resolve(rel));
  char *file = xl_strdup(resolved);
  xprof_free(rel);
  xprof_free(resolved);
  return file;
}

/* Then mapped by the prefix maps the driver passed (the compilation's
 * -ffile-prefix-map), then by -xprofile_prefix_map's (as the GCC plugin
 * maps it). */
char *xl_object_path(LLVMModuleRef m, const xprof_options *o) {
  if (shipped.m == m && shipped.s.objpath) /* compiled elsewhere, under a temporary name */
    return xl_strdup(shipped.s.objpath);
  char *file = xl_object_file(m, o);
  if (!file)
    return NULL;
  char *mapped = xl_check(xprof_map_object_path(file, o));
  char *path = xl_strdup(mapped);
  xprof_free(mapped);
  free(file);
  return path;
}
