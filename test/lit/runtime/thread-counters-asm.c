// The slow path compiled code calls from an asm statement (GCC: arguments
// in rax and rcx; LLVM: in r10 and r11) keeps every register but rax, the
// SSE registers too, whatever the stack's alignment, and gives the same
// distance as the plain entry point.
// REQUIRES: x86_64
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/asm
// RUN: %t/asm | FileCheck %s
// CHECK: registers kept (misaligned stack)
// CHECK: registers kept (aligned stack)
// CHECK: registers kept (r10 entry)
// CHECK: same distance
#include <stdio.h>

#include "handmade.h"

static uint64_t array[2];
static __thread intptr_t array_tls;
static const struct xprof_abi_proc procs[] = {
    {"main", 0x1, 0, 2, &array[0], 0, 0, NULL, NULL},
};
XP_THREAD_OBJECT(obj, "/handmade/asm.o", 0x1, procs, array)

/* The first call allocates the thread's copy (calloc, locks: code that
 * needs an aligned stack and may use SSE registers). */
static intptr_t call_slow_path(int misalign, int *kept) {
  register intptr_t rax __asm__("rax") = (intptr_t)array;
  register intptr_t *rcx __asm__("rcx") = &array_tls;
  register uint64_t rdx __asm__("rdx") = 0x2222;
  register uint64_t rdi __asm__("rdi") = 0x3333;
  register uint64_t rsi __asm__("rsi") = 0x4444;
  register uint64_t r8 __asm__("r8") = 0x8888;
  register uint64_t r9 __asm__("r9") = 0x9999;
  register uint64_t r10 __asm__("r10") = 0xaaaa;
  register uint64_t r11 __asm__("r11") = 0xbbbb;
  register double x0 __asm__("xmm0") = 1.25;
  register double x7 __asm__("xmm7") = 7.5;
  register double x15 __asm__("xmm15") = 15.75;
  /* misalign words more on the stack before the call (0 or 1). */
  uint64_t skip = 8 * (uint64_t)misalign;
  __asm__ volatile("sub %[skip], %%rsp\n\t"
                   "lea -128(%%rsp), %%rsp\n\t"
                   "call *__xprof_thread_counters_asm@GOTPCREL(%%rip)\n\t"
                   "lea 128(%%rsp), %%rsp\n\t"
                   "add %[skip], %%rsp"
                   : "+r"(rax), "+r"(rcx), "+r"(rdx), "+r"(rdi), "+r"(rsi), "+r"(r8),
                     "+r"(r9), "+r"(r10), "+r"(r11), "+x"(x0), "+x"(x7), "+x"(x15)
                   : [skip] "r"(skip)
                   : "memory", "cc");
  *kept = rcx == &array_tls && rdx == 0x2222 && rdi == 0x3333 && rsi == 0x4444 &&
          r8 == 0x8888 && r9 == 0x9999 && r10 == 0xaaaa && r11 == 0xbbbb &&
          x0 == 1.25 && x7 == 7.5 && x15 == 15.75;
  return rax;
}

/* The entry LLVM-compiled code uses: arguments in r10 and r11. */
static intptr_t call_r10_entry(int *kept) {
  intptr_t d;
  register uint64_t rcx __asm__("rcx") = 0x1111;
  register uint64_t rdx __asm__("rdx") = 0x2222;
  register uint64_t rdi __asm__("rdi") = 0x3333;
  register uint64_t rsi __asm__("rsi") = 0x4444;
  register uint64_t r8 __asm__("r8") = 0x8888;
  register uint64_t r9 __asm__("r9") = 0x9999;
  register uint64_t *r10 __asm__("r10") = array;
  register intptr_t *r11 __asm__("r11") = &array_tls;
  register double x3 __asm__("xmm3") = 3.5;
  __asm__ volatile("lea -128(%%rsp), %%rsp\n\t"
                   "call *__xprof_thread_counters_asm_r10@GOTPCREL(%%rip)\n\t"
                   "lea 128(%%rsp), %%rsp"
                   : "=a"(d), "+r"(rcx), "+r"(rdx), "+r"(rdi), "+r"(rsi), "+r"(r8),
                     "+r"(r9), "+r"(r10), "+r"(r11), "+x"(x3)
                   :
                   : "memory", "cc");
  *kept = rcx == 0x1111 && rdx == 0x2222 && rdi == 0x3333 && rsi == 0x4444 &&
          r8 == 0x8888 && r9 == 0x9999 && r10 == array && r11 == &array_tls &&
          x3 == 3.5;
  return d;
}

int main(void) {
  int kept;
  intptr_t d1 = call_slow_path(1, &kept);
  printf("registers %s (misaligned stack)\n", kept ? "kept" : "clobbered");
  intptr_t d2 = call_slow_path(0, &kept);
  printf("registers %s (aligned stack)\n", kept ? "kept" : "clobbered");
  intptr_t d3 = call_r10_entry(&kept);
  printf("registers %s (r10 entry)\n", kept ? "kept" : "clobbered");
  puts(d1 != 0 && d1 == d2 && d1 == d3 && d1 == array_tls &&
               d1 == __xprof_thread_counters(array, &array_tls)
           ? "same distance"
           : "different distance");
  return 0;
}
