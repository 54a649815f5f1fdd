// A naked function: its asm alone, which reads its argument in %rdi.
#include <stdio.h>
__attribute__((naked)) long add1(long x) {
  __asm__("lea 1(%rdi), %rax\n\tret");
}
__attribute__((noinline)) long twice(long x) { return x * 2; }
int main(void) {
  long s = 0;
  for (long i = 0; i < 10; i++) s += add1(i) + twice(i);
  printf("%ld\n", s);
  return 0;
}
