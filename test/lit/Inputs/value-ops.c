/* One function per value-profile transformation GCC's own -fprofile-use
 * makes (value-prof.cc), each given the values that make it pay in
 * training: value-ops N [SHIFT] runs N rounds; SHIFT, when given and
 * nonzero, changes every divisor and size, so that no specialization
 * holds (a workload training never saw, whose output must still be the
 * plain build's).  Output: a checksum of every result. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <strings.h>
#endif

#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noclone))
#endif

/* TOPN: division and modulo by a variable that is nearly always one
 * constant. */
KEEP int div_int(int a, int b) { return a / b; }
KEEP long long div_llong(long long a, long long b) { return a / b; }
KEEP int mod_int(int a, int b) { return a % b; }
KEEP long long mod_llong(long long a, long long b) { return a % b; }

/* POW2: unsigned modulo by a power of two, a different one each time. */
KEEP unsigned mod_pow2_uint(unsigned a, unsigned b) { return a % b; }
KEEP unsigned long long mod_pow2_ullong(unsigned long long a, unsigned long long b) {
  return a % b;
}

/* INTERVAL: unsigned modulo whose quotient is nearly always 0 or 1. */
KEEP unsigned mod_small_uint(unsigned a, unsigned b) { return a % b; }
KEEP unsigned long long mod_small_ullong(unsigned long long a, unsigned long long b) {
  return a % b;
}

/* String operations of a variable size that is nearly always one value. */
KEEP void copy_words(int *d, const int *s, size_t n) { memcpy(d, s, n * sizeof *d); }
KEEP char *append(char *d, const char *s, size_t n) { return mempcpy(d, s, n); }
KEEP void clear(char *d, size_t n) { memset(d, 0, n); }
KEEP void shift(char *d, size_t n) { memmove(d + 1, d, n); }
KEEP void zero(char *d, size_t n) { bzero(d, n); }

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 1000;
  int other = argc > 2 ? atoi(argv[2]) : 0;
  unsigned long long sum = 0;
  static int wa[64], wb[64];
  static char ca[128], cb[128];
  for (int k = 0; k < 64; k++)
    wb[k] = k * 3 + 1;
  for (int k = 0; k < 128; k++)
    cb[k] = (char)(k * 7);
  for (long i = 0; i < rounds; i++) {
    int d = other ? 3 + (int)(i % 13) : 257;
    sum += (unsigned)div_int((int)i * 31, d);
    sum += (unsigned long long)div_llong(i * 1234567ll, other ? d : 997);
    sum += (unsigned)mod_int((int)i * 17, d);
    sum += (unsigned long long)mod_llong(i * 7654321ll, other ? d : 997);
    unsigned p = other ? 3 + (unsigned)(i % 5) : 16u << (i % 4);
    sum += mod_pow2_uint((unsigned)i * 2654435761u, p);
    sum += mod_pow2_ullong((unsigned long long)i * 11400714819323198485ull, p);
    unsigned b = 1000 + (unsigned)(i % 97);
    unsigned a = other ? (unsigned)i * 40503u : (unsigned)(i * 7) % (2 * b);
    sum += mod_small_uint(a, b);
    sum += mod_small_ullong(a, b);
    size_t n = other ? (size_t)(i % 29) : 1;
    copy_words(wa, wb, n);
    sum += (unsigned)wa[0];
    sum += (unsigned long long)(append(ca, cb, other ? n : 8) - ca);
    clear(ca, other ? n : 24);
    shift(ca, other ? n : 55);
    zero(cb + 64, other ? n : 8);
    sum += (unsigned char)ca[5] + (unsigned char)cb[66];
  }
  printf("%llu\n", sum);
  return 0;
}
