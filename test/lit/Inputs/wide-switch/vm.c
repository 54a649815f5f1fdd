/* A toy bytecode interpreter with 100 opcodes, dispatched by a switch and
 * by computed goto: far more successors than most branches have.  The
 * training program uses opcodes 0-3 only; 4-99 are rare, and each calls a
 * function of its own so that the optimizer cannot merge their blocks. */
#include <stdio.h>
#include <stdlib.h>

#define REP10(M, d) M(d##0) M(d##1) M(d##2) M(d##3) M(d##4) \
                    M(d##5) M(d##6) M(d##7) M(d##8) M(d##9)
/* M(k) for the rare opcodes, 4 to 99. */
#define RARE_OPS(M) M(4) M(5) M(6) M(7) M(8) M(9) REP10(M, 1) REP10(M, 2) \
                    REP10(M, 3) REP10(M, 4) REP10(M, 5) REP10(M, 6)       \
                    REP10(M, 7) REP10(M, 8) REP10(M, 9)

#define RARE(k) __attribute__((noinline)) static unsigned long rare##k(unsigned long a) { \
    return a * (k | 1) + (a >> (k % 7)) + k; }
RARE_OPS(RARE)

unsigned long run_switch(const unsigned char *code, long n) {
  unsigned long acc = 0;
  for (long pc = 0; pc < n; pc++) {
    switch (code[pc]) {
    case 0: acc += 1; break;
    case 1: acc ^= acc >> 3; break;
    case 2: acc -= 7; break;
    case 3: acc = acc * 3 + 1; break;
#define CASE(k) case k: acc = rare##k(acc); break;
    RARE_OPS(CASE)
    }
  }
  return acc;
}

/* Computed goto, as Lua's and CPython's interpreters dispatch: one
 * indirectbr with a successor per opcode. */
unsigned long run_goto(const unsigned char *code, long n) {
#define LABEL(k) &&op##k,
  static void *const labels[100] = {&&op0, &&op1, &&op2, &&op3, RARE_OPS(LABEL)};
  unsigned long acc = 0;
  long pc = 0;
  if (n == 0)
    return 0;
  goto *labels[code[0]];
#define NEXT if (++pc == n) return acc; goto *labels[code[pc]];
op0: acc += 1; NEXT
op1: acc ^= acc >> 3; NEXT
op2: acc -= 7; NEXT
op3: acc = acc * 3 + 1; NEXT
#define HANDLER(k) op##k: acc = rare##k(acc); NEXT
  RARE_OPS(HANDLER)
}

/* argv[1]: program length; argv[2]: "train" (opcodes 0-3) or "all". */
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  int all = argc > 2 && argv[2][0] == 'a';
  unsigned char *code = malloc((size_t)n + 1);
  unsigned seed = 12345;
  if (!code)
    return 1;
  for (long i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    code[i] = (unsigned char)((seed >> 16) % (all ? 100 : 4));
  }
  printf("%lu %lu\n", run_switch(code, n), run_goto(code, n));
  free(code);
  return 0;
}
