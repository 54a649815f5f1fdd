// What collect mode inserts: relaxed atomic increments by default, plain
// ones with update=single; a value-profile call before each indirect
// call; the descriptor registered from a constructor and unregistered from
// a destructor.
// REQUIRES: gcc-plugin
// RUN: xprof-gcc -O2 -xprofile=collect -S %s -o - | FileCheck --check-prefix=ATOMIC %s
// RUN: xprof-gcc -O2 -xprofile=collect -fplugin-arg-xprof-update=single -S %s -o - | FileCheck --check-prefix=SINGLE %s
// RUN: xprof-gcc -O2 -xprofile=collect -fdump-tree-optimized=- -S %s -o /dev/null | FileCheck --check-prefix=TREE %s
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
// TREE:       __atomic_fetch_add_8 (&__xprof_counters[{{[0-9]+}}], 1, 0);
// TREE:       __xprof_vp_proc (&__xprof_vp[0], [[FN:fn_[0-9]+]](D));
// TREE-NEXT:  _{{[0-9]+}} = [[FN]](D) (x_{{[0-9]+}}(D));
int dispatch(int (*fn)(int), int x) {
  if (x > 100)
    return 0;
  return fn(x);
}
