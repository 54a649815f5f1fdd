/* vm.h - a small stack-machine interpreter: the xprof example program.
 * Programs are text, one instruction per line:
 *   push N | load R | store R | add | sub | mul | div | mod | neg | lt | eq
 *   dup | swap | drop | jz LABEL | jmp LABEL | call LABEL | ret | print | halt
 *   LABEL:
 * Arithmetic lives in a shared library (libvmops.so) and is reached through
 * a table of function pointers, so the hot loop makes indirect calls. */
#ifndef VM_H
#define VM_H

#include <stdint.h>

enum opcode {
  OP_PUSH, OP_LOAD, OP_STORE, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_NEG,
  OP_LT, OP_EQ, OP_DUP, OP_SWAP, OP_DROP, OP_JZ, OP_JMP, OP_CALL, OP_RET,
  OP_PRINT, OP_HALT, OP_COUNT
};

struct insn {
  enum opcode op;
  int64_t arg;
};

struct program {
  struct insn *code;
  int n, cap;
};

#define VM_REGS 16
#define VM_STACK 1024

struct vm {
  int64_t stack[VM_STACK];
  int sp;
  int64_t regs[VM_REGS];
  int calls[VM_STACK];
  int csp;
  uint64_t steps;
  int64_t checksum;
  int quiet;
};

/* A binary operation; returns 0, or an error message. */
typedef const char *(*binop_fn)(int64_t a, int64_t b, int64_t *out);
extern binop_fn vm_binops[OP_COUNT]; /* filled by vm_ops_init */
void vm_ops_init(void);              /* in libvmops.so */

int vm_parse(const char *text, struct program *prog, char *err, int errlen);
int vm_run(const struct program *prog, struct vm *vm, char *err, int errlen);
const char *vm_opname(enum opcode op);

#endif
