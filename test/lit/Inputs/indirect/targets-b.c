/* The targets of targets-a.c's indirect calls. */
static int twice(int x) { return 2 * x; }
int thrice(int x) { return 3 * x; }
int square(int x) { return x * x; }

int (*pick(int k))(int) { return k == 0 ? twice : k == 1 ? thrice : square; }
