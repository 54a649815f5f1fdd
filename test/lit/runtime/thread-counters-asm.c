// The slow path GCC-compiled code calls from an asm statement keeps every
// register but rax, the SSE registers too, whatever the stack's alignment,
// and gives the same distance as the plain entry point.
// REQUIRES: x86_64
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/asm
// RUN: %t/asm | FileCheck %s
// CHECK: registers kept (misaligned stack)
// CHECK: registers kept (aligned stack)
// CHECK: same distance
#include <stdio.h>

#include "handmade.h"

static uint64_t array[2];
static __thread intptr_t array_tls;
static const struct xprof_rt_proc procs[] = {
    {"main", 0x1, 0, 2, &array[0], 0, 0, NULL, NULL},
};
XP_THREAD_OBJECT(obj, "/handmade/asm.o", 0x1, procs, array)

/* The first call allocates the thread's copy (calloc, locks: code that
 * needs an aligned stack and may use SSE registers). */
static intptr_t call_slow_path(int misalign, int *kept) {
  intptr_t d;
  register uint64_t rcx __asm__("rcx") = 0x1111;
  register uint64_t rdx __asm__("rdx") = 0x2222;
  register uint64_t r8 __asm__("r8") = 0x8888;
  register uint64_t r9 __asm__("r9") = 0x9999;
  register uint64_t r10 __asm__("r10") = 0xaaaa;
  register uint64_t r11 __asm__("r11") = 0xbbbb;
  register uint64_t *rdi __asm__("rdi") = array;
  register intptr_t *rsi __asm__("rsi") = &array_tls;
  register double x0 __asm__("xmm0") = 1.25;
  register double x7 __asm__("xmm7") = 7.5;
  register double x15 __asm__("xmm15") = 15.75;
  if (misalign)
    __asm__ volatile("sub $8, %%rsp\n\t"
                     "lea -128(%%rsp), %%rsp\n\t"
                     "call __xprof_thread_counters_asm\n\t"
                     "lea 128(%%rsp), %%rsp\n\t"
                     "add $8, %%rsp"
                     : "=a"(d), "+r"(rcx), "+r"(rdx), "+r"(r8), "+r"(r9), "+r"(r10),
                       "+r"(r11), "+r"(rdi), "+r"(rsi), "+x"(x0), "+x"(x7), "+x"(x15)
                     :
                     : "memory", "cc");
  else
    __asm__ volatile("lea -128(%%rsp), %%rsp\n\t"
                     "call __xprof_thread_counters_asm\n\t"
                     "lea 128(%%rsp), %%rsp"
                     : "=a"(d), "+r"(rcx), "+r"(rdx), "+r"(r8), "+r"(r9), "+r"(r10),
                       "+r"(r11), "+r"(rdi), "+r"(rsi), "+x"(x0), "+x"(x7), "+x"(x15)
                     :
                     : "memory", "cc");
  *kept = rcx == 0x1111 && rdx == 0x2222 && r8 == 0x8888 && r9 == 0x9999 &&
          r10 == 0xaaaa && r11 == 0xbbbb && rdi == array && rsi == &array_tls &&
          x0 == 1.25 && x7 == 7.5 && x15 == 15.75;
  return d;
}

int main(void) {
  int kept;
  intptr_t d1 = call_slow_path(1, &kept);
  printf("registers %s (misaligned stack)\n", kept ? "kept" : "clobbered");
  intptr_t d2 = call_slow_path(0, &kept);
  printf("registers %s (aligned stack)\n", kept ? "kept" : "clobbered");
  puts(d1 != 0 && d1 == d2 && d1 == array_tls &&
               d1 == __xprof_thread_counters(array, &array_tls)
           ? "same distance"
           : "different distance");
  return 0;
}
