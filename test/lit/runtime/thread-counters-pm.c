// The slow path LLVM-compiled code calls with preserve_most keeps every
// general register but rax and r11, and gives the same distance as the
// plain entry point.
// REQUIRES: x86_64
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/pm
// RUN: %t/pm | FileCheck %s
// CHECK: registers kept
// CHECK: same distance
#include <stdio.h>

#include "handmade.h"

static uint64_t array[2];
static __thread intptr_t array_tls;
static const struct xprof_rt_proc procs[] = {
    {"main", 0x1, 0, 2, &array[0], 0, 0, NULL, NULL},
};
XP_THREAD_OBJECT(obj, "/handmade/pm.o", 0x1, procs, array)

int main(void) {
  uint64_t out[7];
  intptr_t d;
  register uint64_t rcx __asm__("rcx") = 0x1111;
  register uint64_t rdx __asm__("rdx") = 0x2222;
  register uint64_t r8 __asm__("r8") = 0x8888;
  register uint64_t r9 __asm__("r9") = 0x9999;
  register uint64_t r10 __asm__("r10") = 0xaaaa;
  register uint64_t *rdi __asm__("rdi") = array;
  register intptr_t *rsi __asm__("rsi") = &array_tls;
  __asm__ volatile("call __xprof_thread_counters_pm"
                   : "=a"(d), "+r"(rcx), "+r"(rdx), "+r"(r8), "+r"(r9), "+r"(r10),
                     "+r"(rdi), "+r"(rsi)
                   :
                   : "r11", "memory", "cc");
  out[0] = rcx, out[1] = rdx, out[2] = r8, out[3] = r9, out[4] = r10;
  out[5] = (uint64_t)rdi, out[6] = (uint64_t)rsi;
  int kept = out[0] == 0x1111 && out[1] == 0x2222 && out[2] == 0x8888 &&
             out[3] == 0x9999 && out[4] == 0xaaaa && out[5] == (uint64_t)array &&
             out[6] == (uint64_t)&array_tls;
  puts(kept ? "registers kept" : "registers clobbered");
  puts(d != 0 && d == array_tls && d == __xprof_thread_counters(array, &array_tls)
           ? "same distance"
           : "different distance");
  return 0;
}
