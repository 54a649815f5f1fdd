// A bytecode loop that dispatches through differences of its labels kept
// in static data (&&op - &&base, as re2c's relative computed gotos and
// some interpreters write them); training never runs OP_NEG, so its
// block is cold by the profile.  step dispatches through the labels'
// addresses themselves (as lua's interpreter does), which stay right in
// any section.
#include <stdio.h>
#include <stdlib.h>

enum { OP_ADD, OP_SUB, OP_NEG, OP_END };

__attribute__((noinline)) long run(const unsigned char *code, long acc) {
  static const int offset[] = {&&op_add - &&op_add, &&op_sub - &&op_add,
                               &&op_neg - &&op_add, &&op_end - &&op_add};
#define NEXT goto *(&&op_add + offset[*code++])
  NEXT;
op_add:
  acc += 3;
  NEXT;
op_sub:
  acc -= 1;
  NEXT;
op_neg:
  acc = -acc;
  if (acc < -1000000)
    fprintf(stderr, "deep: %ld\n", acc);
  NEXT;
op_end:
  return acc;
}

__attribute__((noinline)) long step(int op, long acc) {
  static const void *const label[] = {&&add, &&sub, &&neg};
  goto *label[op];
add:
  return acc + 3;
sub:
  return acc - 1;
neg:
  if (acc < -1000000)
    fprintf(stderr, "deep: %ld\n", acc);
  return -acc;
}

int main(int argc, char **argv) {
  int neg = argc > 1 && atoi(argv[1]);
  unsigned char code[9] = {OP_ADD, OP_SUB, OP_ADD, OP_ADD, OP_SUB, OP_END};
  if (neg)
    code[5] = OP_NEG, code[6] = OP_END;
  long acc = 0;
  for (int i = 0; i < 100000; i++)
    acc = step(neg ? OP_NEG : i % 2, run(code, acc)) % 1000003;
  printf("%ld\n", acc);
  return 0;
}
