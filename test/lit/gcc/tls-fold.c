// Counters in a thread-local twin are addressed as plain code addresses
// a thread-local variable: %fs:N+TWIN@tpoff in the add itself, never
// through a register that holds TWIN@tpoff for the whole function (GCC's
// RTL PRE hoists that constant out of the loop when nothing folds it
// back into the counter asms: tls_fold.cc).  The loop below has five
// counters, four of them inside the loop; at -O2 and -O3, and beside
// -fno-gcse, which never hoisted it.  Other update modes are untouched
// (codegen.c).  The counts are those of a build whose counters are
// GIMPLE (no asm for the pass to fold): mix's counters add up to 1557
// for 1000 elements in both.
// REQUIRES: gcc-plugin
// RUN: xprof-gcc -O2 -xprofile=collect -S %s -o - | FileCheck %s
// RUN: xprof-gcc -O3 -xprofile=collect -S %s -o - | FileCheck %s
// RUN: xprof-gcc -O2 -fno-gcse -xprofile=collect -S %s -o - | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: xprof-gcc -O2 -xprofile=collect %s -o fold
// RUN: ./fold 1000 && xprof_show fold.profile | FileCheck --check-prefix=COUNT %s
// RUN: rm -rf fold.profile
// RUN: xprof-gcc -O2 -xprofile=collect -fplugin-arg-xprof-no-asm-counters %s -o fold
// RUN: ./fold 1000 && xprof_show fold.profile | FileCheck --check-prefix=COUNT %s
//
// CHECK-LABEL: mix:
// CHECK-NOT:   __xprof_t@tpoff, %
// CHECK-NOT:   %fs:{{[0-9]*}}(%r
// CHECK-COUNT-5: addq $1, %fs:{{([0-9]+\+)?}}__xprof_t@tpoff
// CHECK-NOT:   %fs:{{[0-9]*}}(%r
// CHECK-NOT:   __xprof_t@tpoff, %
// CHECK:       .cfi_endproc
//
// COUNT: busiest procedures
// COUNT-NEXT: {{^ *}}1557  mix  (
#include <stdlib.h>

__attribute__((noinline)) int mix(const int *a, int n, int *out) {
  int s = 0, t = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] > 3)
      s += a[i];
    else
      t ^= a[i];
    if (a[i] & 1)
      s -= 2;
    else
      t += 3;
    if (a[i] == 7)
      out[i] = s;
  }
  return s + t;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int *a = malloc(n * sizeof *a), *out = calloc(n, sizeof *out);
  for (int i = 0; i < n; i++)
    a[i] = i % 9;
  return mix(a, n, out) == 0;
}
