/* Loaded beside dlcycle/lib.c now and then, so that lib.c is not always
 * mapped at the same address. */
int filler_fn(int x) { return x + 1; }
