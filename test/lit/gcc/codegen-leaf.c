// On x86-64 the slow path of the entry code is an asm statement that GCC
// does not see as a call: a small leaf function starts with the thread-local
// load, saves no register for a call, and stays a leaf.  A function that receives vectors wider than the trampoline
// keeps calls the plain entry point.
// REQUIRES: gcc-plugin, x86_64
// With thread-local twins (the default in code for executables) there is
// no entry code at all.
// The time profile's test of the first-run word, first, is no call either.
// RUN: xprof-gcc -O2 -xprofile=collect -fplugin-arg-xprof-no-tls-counters -S %s -o %t.s
// RUN: FileCheck --check-prefix=LEAF %s < %t.s
// RUN: FileCheck --check-prefix=WIDE %s < %t.s
// RUN: xprof-gcc -O2 -xprofile=collect -S %s -o - | FileCheck --check-prefix=TWIN %s
// TWIN-LABEL: leaf:
// TWIN-NOT:    push
// TWIN-NOT:    __xprof_d
// TWIN:        %fs:{{[0-9]*\+?}}__xprof_t@tpoff
// TWIN-NOT:    __xprof_thread_counters
// TWIN:        .size leaf
// LEAF-LABEL: leaf:
// LEAF-NEXT:   .LFB{{[0-9]+}}:
// LEAF-NEXT:   .cfi_startproc
// LEAF-NEXT:   cmpq $0, {{([0-9]+\+)?}}__xprof_fr(%rip)
// LEAF-NOT:    call
// LEAF:        movq %fs:__xprof_d@tpoff
// LEAF-NOT:    call __xprof_thread_counters@PLT
// LEAF-DAG:    lock xaddq {{.*}}, __xprof_first_runs(%rip)
// LEAF-DAG:    call *__xprof_thread_counters_asm@GOTPCREL(%rip)
// LEAF-NOT:    call __xprof_thread_counters@PLT
// LEAF:        .size leaf
int leaf(const int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += p[i] > 0 ? p[i] : -p[i];
  return s;
}

typedef float v8sf __attribute__((vector_size(32)));
// WIDE-LABEL: wide:
// WIDE:        call __xprof_thread_counters@PLT
// WIDE:        .size wide
__attribute__((target("avx"))) float wide(v8sf v) { return v[0] > 0 ? v[1] : v[2]; }
