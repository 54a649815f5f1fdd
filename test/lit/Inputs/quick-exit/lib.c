/* A function of a shared library loaded and unloaded by dlopen-main.c. */
int lib_f(int x) { return x % 3 ? x * 2 : x + 1; }
