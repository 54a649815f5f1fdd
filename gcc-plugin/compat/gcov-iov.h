/*
 * gcov-iov.h - stands in for the header that Debian's gcc-11-plugin-dev
 * leaves out (GCC builds it; gcov-io.h, which coverage.h includes, wants
 * it).  It only names the version of GCC's own .gcda format, which the
 * plugin neither reads nor writes.  Used only where the plugin headers
 * lack it (CMakeLists.txt).
 */
#define GCOV_VERSION ((gcov_unsigned_t)0x4231312a) /* "B11*" */
