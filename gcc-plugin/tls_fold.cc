/*
 * tls_fold.cc - collect builds: a counter in a thread-local twin addressed
 * as %fs:TWIN@tpoff+8i, as plain code addresses a thread-local variable,
 * not through a register.
 *
 * GCC expands the memory operand of each counter's asm (collect.cc,
 * asm_increment) as (plus (plus TP R) 8i), with R a pseudo set to the
 * constant TWIN@tpoff just before it.  For ordinary loads and stores
 * fwprop puts the constant back into the address; into an asm it does so
 * only where nothing has moved it first, and RTL PRE (-fgcse) hoists
 * those constants, equal for every counter of the array, to the top of
 * the function, where one register holds it for the whole body: one
 * register fewer for the program's own code, spills and copies in its
 * loops.  This pass, right after expansion, puts the constant into the
 * addresses of the counter asms itself, before PRE can see it; the sets
 * left without a use go with the next dead code elimination.
 */
#include "gcc-common.h"

#include "xprof-gcc.h"

/* The constant a pseudo is set to once in the whole function, by
 * regno; NULL_RTX where it is set more than once or to anything else. */
struct single_consts {
  rtx *value;
  unsigned char *sets; /* 0, 1, or 2 for "more" */
  unsigned n;
};

static void note_set(rtx dest, const_rtx, void *data) {
  single_consts *s = (single_consts *)data;
  if (REG_P(dest) && REGNO(dest) < s->n && s->sets[REGNO(dest)] < 2)
    s->sets[REGNO(dest)]++;
}

/* Record every pseudo's one constant: a CONST (which is what TWIN@tpoff
 * is) is a value no later set can change. */
static void find_single_consts(single_consts *s) {
  for (rtx_insn *insn = get_insns(); insn; insn = NEXT_INSN(insn)) {
    if (!INSN_P(insn))
      continue;
    note_pattern_stores(PATTERN(insn), note_set, s);
    rtx set = single_set(insn);
    if (set && REG_P(SET_DEST(set)) && REGNO(SET_DEST(set)) >= FIRST_PSEUDO_REGISTER &&
        REGNO(SET_DEST(set)) < s->n && GET_CODE(SET_SRC(set)) == CONST)
      s->value[REGNO(SET_DEST(set))] = SET_SRC(set);
  }
  for (unsigned r = 0; r < s->n; r++)
    if (s->sets[r] != 1)
      s->value[r] = NULL_RTX;
}

/* The SET of a counter asm (its destination the asm's "=m", its source
 * the ASM_OPERANDS with the "m"); NULL if insn is not one of ours. */
static rtx counter_asm_set(rtx_insn *insn) {
  rtx pat = PATTERN(insn);
  if (GET_CODE(pat) == PARALLEL)
    pat = XVECEXP(pat, 0, 0);
  if (GET_CODE(pat) != SET || GET_CODE(SET_SRC(pat)) != ASM_OPERANDS ||
      !MEM_P(SET_DEST(pat)) || ASM_OPERANDS_INPUT_LENGTH(SET_SRC(pat)) != 1 ||
      !xp_is_counter_asm(ASM_OPERANDS_TEMPLATE(SET_SRC(pat))))
    return NULL_RTX;
  return pat;
}

/* addr with every pseudo that single_consts knows replaced by its
 * constant, or NULL_RTX where none is. */
static rtx folded_address(rtx addr, const single_consts *s) {
  rtx out = addr;
  subrtx_iterator::array_type array;
  FOR_EACH_SUBRTX(iter, array, addr, NONCONST) {
    const_rtx x = *iter;
    if (REG_P(x) && REGNO(x) < s->n && s->value[REGNO(x)])
      out = simplify_replace_rtx(out, x, s->value[REGNO(x)]);
  }
  return out == addr ? NULL_RTX : out;
}

/* Both memory operands of a counter asm (its "=m" and its "m") get the
 * folded address, or neither does: the asm must still be recognized.
 * Each gets its own copy (RTL sharing rules). */
static void fold_counter(rtx_insn *insn, rtx set, const single_consts *s) {
  rtx mem = SET_DEST(set), in = ASM_OPERANDS_INPUT(SET_SRC(set), 0);
  rtx addr = folded_address(XEXP(mem, 0), s);
  if (!addr || !memory_address_addr_space_p(GET_MODE(mem), addr, MEM_ADDR_SPACE(mem)))
    return;
  validate_change(insn, &XEXP(mem, 0), copy_rtx(addr), 1);
  if (MEM_P(in))
    validate_change(insn, &XEXP(in, 0), copy_rtx(addr), 1);
  apply_change_group();
}

static unsigned int tls_fold_execute(void) {
  single_consts s;
  s.n = max_reg_num();
  s.value = XCNEWVEC(rtx, s.n);
  s.sets = XCNEWVEC(unsigned char, s.n);
  find_single_consts(&s);
  for (rtx_insn *insn = get_insns(); insn; insn = NEXT_INSN(insn))
    if (NONJUMP_INSN_P(insn)) {
      rtx set = counter_asm_set(insn);
      if (set)
        fold_counter(insn, set, &s);
    }
  XDELETEVEC(s.value);
  XDELETEVEC(s.sets);
  return 0;
}

static const pass_data xp_tls_fold_pass_data = {
    RTL_PASS,          /* type */
    "xprof_tls_fold",  /* name */
    OPTGROUP_NONE,     /* optinfo_flags */
    TV_NONE,           /* tv_id */
    0,                 /* properties_required */
    0,                 /* properties_provided */
    0,                 /* properties_destroyed */
    0,                 /* todo_flags_start */
    0                  /* todo_flags_finish */
};

class xp_tls_fold_pass : public rtl_opt_pass {
public:
  xp_tls_fold_pass(gcc::context *ctx) : rtl_opt_pass(xp_tls_fold_pass_data, ctx) {}
  /* Only optimizing compiles have the passes that hoist the constant. */
  bool gate(function *) override { return optimize && !seen_error(); }
  unsigned int execute(function *) override { return tls_fold_execute(); }
};

opt_pass *xp_make_tls_fold_pass(void) { return new xp_tls_fold_pass(g); }
