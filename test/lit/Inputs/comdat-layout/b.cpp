#include "shared.h"
long acc;
__attribute__((noinline)) void helper(int x) { acc += x * 3; }
int from_b(int x) { shared(x * 3); return x; }
