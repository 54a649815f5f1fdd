/* ops.c - the arithmetic of the VM, built as libvmops.so. */
#include "vm.h"

binop_fn vm_binops[OP_COUNT];

static const char *op_add(int64_t a, int64_t b, int64_t *out) {
  *out = (int64_t)((uint64_t)a + (uint64_t)b);
  return 0;
}
static const char *op_sub(int64_t a, int64_t b, int64_t *out) {
  *out = (int64_t)((uint64_t)a - (uint64_t)b);
  return 0;
}
static const char *op_mul(int64_t a, int64_t b, int64_t *out) {
  *out = (int64_t)((uint64_t)a * (uint64_t)b);
  return 0;
}
static const char *op_div(int64_t a, int64_t b, int64_t *out) {
  if (b == 0)
    return "division by zero";
  if (a == INT64_MIN && b == -1)
    return "division overflow";
  *out = a / b;
  return 0;
}
static const char *op_mod(int64_t a, int64_t b, int64_t *out) {
  if (b == 0)
    return "modulo by zero";
  if (b == -1) {
    *out = 0;
    return 0;
  }
  *out = a % b;
  return 0;
}
static const char *op_lt(int64_t a, int64_t b, int64_t *out) {
  *out = a < b;
  return 0;
}
static const char *op_eq(int64_t a, int64_t b, int64_t *out) {
  *out = a == b;
  return 0;
}

void vm_ops_init(void) {
  vm_binops[OP_ADD] = op_add;
  vm_binops[OP_SUB] = op_sub;
  vm_binops[OP_MUL] = op_mul;
  vm_binops[OP_DIV] = op_div;
  vm_binops[OP_MOD] = op_mod;
  vm_binops[OP_LT] = op_lt;
  vm_binops[OP_EQ] = op_eq;
}
