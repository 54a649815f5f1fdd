/* cet-helper.c - compiled without CET marks by cet.test: the linker's
 * report names it, which shows that the report works. */
int helper(int x) { return x / 3; }
