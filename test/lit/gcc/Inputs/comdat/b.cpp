#include <cstdio>
#include "twice.h"
int from_b(int n) { return twice(n) + 1; }
int main() { std::printf("%d\n", from_a(150) + from_b(7)); return 0; }
