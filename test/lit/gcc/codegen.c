// What collect mode inserts: by default, code at entry that finds the
// thread's copy of the counters and plain increments in it; relaxed
// atomic increments with update=atomic, plain ones in the shared array
// with update=single; a value-profile call before each indirect call; the
// descriptor registered from a constructor and unregistered from a
// destructor.
// REQUIRES: gcc-plugin
// RUN: xprof-gcc -O2 -xprofile=collect -S %s -o - | FileCheck --check-prefix=THREAD %s
// RUN: xprof-gcc -O2 -xprofile=collect -fplugin-arg-xprof-update=atomic -S %s -o - | FileCheck --check-prefix=ATOMIC %s
// RUN: xprof-gcc -O2 -xprofile=collect -fplugin-arg-xprof-update=single -S %s -o - | FileCheck --check-prefix=SINGLE %s
// RUN: xprof-gcc -O2 -xprofile=collect -fdump-tree-optimized=- -S %s -o /dev/null | FileCheck --check-prefix=TREE %s
//
// THREAD-LABEL: dispatch:
// THREAD:       movq %fs:__xprof_d@tpoff, [[D:%r[a-z0-9]+]]
// THREAD-NEXT:  testq [[D]], [[D]]
// THREAD-NOT:   lock
// THREAD:       addq $1, {{[0-9]*}}(%r{{[a-z0-9]+}},%r{{[a-z0-9]+}},8)
// THREAD:       call __xprof_vp_proc
// THREAD:       call *
// THREAD:       call *__xprof_thread_counters_asm@GOTPCREL(%rip)
// THREAD-LABEL: _sub_I_65535_0:
//
// ATOMIC-LABEL: dispatch:
// ATOMIC:       lock addq $1, {{[0-9]*\+?}}__xprof_counters
// ATOMIC:       call __xprof_vp_proc
// ATOMIC:       call *
// ATOMIC-LABEL: _sub_I_65535_0:
// ATOMIC:       __xprof_object
// ATOMIC:       {{call|jmp}} __xprof_register
// ATOMIC-LABEL: _sub_D_65535_1:
// ATOMIC:       {{call|jmp}} __xprof_unregister
// SINGLE-LABEL: dispatch:
// SINGLE-NOT:   lock
// SINGLE:       addq $1, {{[0-9]*\+?}}__xprof_counters
//
// TREE-LABEL: dispatch (
// TREE:       [[D1:PROF_delta_[0-9]+]] = __xprof_d;
// TREE-NEXT:  if ([[D1]] != 0)
// TREE:       __asm__ __volatile__("lea -128(%%rsp), %%rsp
// TREE-NEXT:  call *__xprof_thread_counters_asm@GOTPCREL(%%rip)
// TREE-NEXT:  lea 128(%%rsp), %%rsp" : "=a" PROF_delta_{{[0-9]+}} : "a" &__xprof_counters[0], "c" &__xprof_d : "cc", "memory");
// TREE:       # [[D:PROF_delta_[0-9]+]] = PHI <
// TREE:       [[I:PROF_idx_[0-9]+]] = [[D]] + {{[0-9]+}};
// TREE-NEXT:  [[E:PROF_edge_[0-9]+]] = __xprof_counters[[[I]]];
// TREE-NEXT:  [[E2:PROF_edge_[0-9]+]] = [[E]] + 1;
// TREE-NEXT:  __xprof_counters[[[I]]] = [[E2]];
// TREE:       __xprof_vp_proc (&__xprof_vp[0], [[FN:fn_[0-9]+]](D));
// TREE-NEXT:  _{{[0-9]+}} = [[FN]](D) (x_{{[0-9]+}}(D));
int dispatch(int (*fn)(int), int x) {
  if (x > 100)
    return 0;
  return fn(x);
}

