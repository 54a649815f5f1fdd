// A threaded interpreter: labels as values and computed goto (abnormal
// edges from every dispatch to every handler), with hot/cold partitioning.
// RUN: %corpus %s | FileCheck %s
// corpus: gcc-flags=-freorder-blocks-and-partition
// corpus: train=2000
// corpus: run=5000
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 1 object file, 2 procedures (2 ran)
// CHECK: clang: use: as plain
#include <stdio.h>
#include <stdlib.h>

enum { SET, ADD, MULK, DEC, JNZ, HALT };

/* Register machine: each instruction is an opcode and two operands. */
__attribute__((noinline)) static long run(const int *code) {
  static void *const op[] = {&&set, &&add, &&mulk, &&dec, &&jnz, &&halt};
  long r[4] = {0, 0, 0, 0};
  const int *pc = code;
#define NEXT goto *op[*pc]
  NEXT;
set:
  r[pc[1]] = pc[2];
  pc += 3;
  NEXT;
add:
  r[pc[1]] = (r[pc[1]] + r[pc[2]]) % 1000003;
  pc += 3;
  NEXT;
mulk:
  r[pc[1]] = r[pc[1]] * pc[2] % 1000003;
  pc += 3;
  NEXT;
dec:
  r[pc[1]]--;
  pc += 3;
  NEXT;
jnz:
  pc = r[pc[1]] ? code + pc[2] : pc + 3;
  NEXT;
halt:
  return r[pc[1]];
#undef NEXT
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  /* r0 = 1; r1 = n; do { r0 = r0 * 3 + r1; } while (--r1); */
  const int code[] = {SET,  0, 1, SET, 1, n, MULK, 0, 3, ADD, 0, 1,
                      DEC,  1, 0, JNZ, 1, 6, HALT, 0, 0};
  printf("%ld\n", run(code));
  return 0;
}
