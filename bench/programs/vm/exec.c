/* exec.c - the interpreter loop. */
#include <stdio.h>

#include "vm.h"

/* Same name as in parse.c, different function. */
static int is_blank(const struct vm *vm) { return vm->sp == 0; }

static int fail(char *err, int errlen, int pc, const char *what) {
  snprintf(err, (size_t)errlen, "at instruction %d: %s", pc, what);
  return -1;
}

int vm_run(const struct program *p, struct vm *vm, char *err, int errlen) {
  int pc = 0;
  while (pc >= 0 && pc < p->n) {
    const struct insn *in = &p->code[pc];
    vm->steps++;
    switch (in->op) {
    case OP_PUSH:
      if (vm->sp == VM_STACK)
        return fail(err, errlen, pc, "stack overflow");
      vm->stack[vm->sp++] = in->arg;
      break;
    case OP_LOAD:
      if (vm->sp == VM_STACK)
        return fail(err, errlen, pc, "stack overflow");
      vm->stack[vm->sp++] = vm->regs[in->arg];
      break;
    case OP_STORE:
      if (is_blank(vm))
        return fail(err, errlen, pc, "stack underflow");
      vm->regs[in->arg] = vm->stack[--vm->sp];
      break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD:
    case OP_LT: case OP_EQ: {
      if (vm->sp < 2)
        return fail(err, errlen, pc, "stack underflow");
      int64_t r;
      const char *e = vm_binops[in->op](vm->stack[vm->sp - 2],
                                        vm->stack[vm->sp - 1], &r);
      if (e)
        return fail(err, errlen, pc, e);
      vm->sp--;
      vm->stack[vm->sp - 1] = r;
      break;
    }
    case OP_NEG:
      if (is_blank(vm))
        return fail(err, errlen, pc, "stack underflow");
      vm->stack[vm->sp - 1] = -vm->stack[vm->sp - 1];
      break;
    case OP_DUP:
      if (is_blank(vm) || vm->sp == VM_STACK)
        return fail(err, errlen, pc, "bad stack for dup");
      vm->stack[vm->sp] = vm->stack[vm->sp - 1];
      vm->sp++;
      break;
    case OP_SWAP:
      if (vm->sp < 2)
        return fail(err, errlen, pc, "stack underflow");
      {
        int64_t t = vm->stack[vm->sp - 1];
        vm->stack[vm->sp - 1] = vm->stack[vm->sp - 2];
        vm->stack[vm->sp - 2] = t;
      }
      break;
    case OP_DROP:
      if (is_blank(vm))
        return fail(err, errlen, pc, "stack underflow");
      vm->sp--;
      break;
    case OP_JZ:
      if (is_blank(vm))
        return fail(err, errlen, pc, "stack underflow");
      if (vm->stack[--vm->sp] == 0) {
        pc = (int)in->arg;
        continue;
      }
      break;
    case OP_JMP:
      pc = (int)in->arg;
      continue;
    case OP_CALL:
      if (vm->csp == VM_STACK)
        return fail(err, errlen, pc, "call stack overflow");
      vm->calls[vm->csp++] = pc + 1;
      pc = (int)in->arg;
      continue;
    case OP_RET:
      if (vm->csp == 0)
        return fail(err, errlen, pc, "return without call");
      pc = vm->calls[--vm->csp];
      continue;
    case OP_PRINT:
      if (is_blank(vm))
        return fail(err, errlen, pc, "stack underflow");
      vm->sp--;
      vm->checksum = vm->checksum * 31 + vm->stack[vm->sp];
      if (!vm->quiet)
        printf("%lld\n", (long long)vm->stack[vm->sp]);
      break;
    case OP_HALT:
      return 0;
    default:
      return fail(err, errlen, pc, "bad opcode");
    }
    pc++;
  }
  return 0;
}
