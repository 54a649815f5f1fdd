/*
 * checksum.c - CRC-32C (Castagnoli) for record checksums and FNV-1a for
 * the object-file index.  CRC-32C uses the SSE4.2 instruction when the
 * CPU has it (checking a 200 MB profile then costs a few milliseconds)
 * and a slicing-by-8 table otherwise.
 */
#include "internal.h"

static uint32_t crc_table[8][256];
static int crc_table_ready;

static void crc_init_table(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++)
      c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
    crc_table[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; i++)
    for (int t = 1; t < 8; t++)
      crc_table[t][i] =
          (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
  __atomic_store_n(&crc_table_ready, 1, __ATOMIC_RELEASE);
}

static uint32_t crc_soft(uint32_t crc, const unsigned char *p, size_t n) {
  if (!__atomic_load_n(&crc_table_ready, __ATOMIC_ACQUIRE))
    crc_init_table(); /* idempotent, so a race only repeats work */
  while (n && ((uintptr_t)p & 7)) {
    crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
    n--;
  }
  while (n >= 8) {
    uint32_t lo = crc ^ xprof_get32(p), hi = xprof_get32(p + 4);
    crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
          crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
          crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
          crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n--)
    crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
  return crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("sse4.2"))) static uint32_t
crc_hw(uint32_t crc, const unsigned char *p, size_t n) {
  uint64_t c = crc;
  while (n && ((uintptr_t)p & 7)) {
    c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
    n--;
  }
  while (n >= 8) {
    uint64_t v;
    memcpy(&v, p, 8);
    c = __builtin_ia32_crc32di(c, v);
    p += 8;
    n -= 8;
  }
  while (n--)
    c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
  return (uint32_t)c;
}
#endif

uint32_t xprof_crc32c(uint32_t crc, const void *data, size_t len) {
  crc = ~crc;
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("sse4.2"))
    return ~crc_hw(crc, data, len);
#endif
  return ~crc_soft(crc, data, len);
}

uint64_t xprof_hash64(const void *data, size_t len) {
  const unsigned char *p = data;
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}
