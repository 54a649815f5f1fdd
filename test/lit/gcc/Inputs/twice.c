/* A library function for the driver tests' shared-library links. */
int twice(int x) { return x > 10 ? 2 * x : x + x; }
