/* The targets of const-main.c's indirect call. */
__attribute__((noinline)) int generic(int n) { return n * 1000; }
/* Inlined at a call that passes a constant: the product folded; else a
 * call. */
int scale(int n) { return __builtin_constant_p(n) ? n * 1000 : generic(n); }
int shift(int n) { return n + 1; }
