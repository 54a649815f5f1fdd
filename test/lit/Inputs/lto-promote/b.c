/* The targets of a.c's indirect call, in another translation unit. */
long target_b(long x) { return x * 3 + 1; }
long other_b(long x) { return -x; }
