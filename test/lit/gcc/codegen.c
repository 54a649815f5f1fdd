// What collect mode inserts: by default, in code for an executable, plain
// increments in the counter array's thread-local twin, whose address the
// constructor hands to the runtime; in code that may go into a shared
// library (-fPIC, or with no-tls-counters) code at entry that finds the
// thread's copy of the counters and plain increments in it; relaxed
// atomic increments with update=atomic, plain ones in the shared array
// with update=single; before each indirect call, a check of the
// value-profile site's first target that counts it inline (atomically but
// with update=single) and a call of the runtime for other targets; the
// descriptor registered from a constructor and unregistered from a
// destructor.  On x86-64 each increment is one add in an "asm inline"
// (in either assembler dialect), so that GCC's size estimates count it
// as one statement; with no-asm-counters, and with -m32, GIMPLE.
// REQUIRES: gcc-plugin
// RUN: xprof-gcc -O2 -xprofile=collect -S %s -o - | FileCheck --check-prefix=TWIN %s
// RUN: xprof-gcc -O2 -xprofile=collect -fplugin-arg-xprof-no-tls-counters -S %s -o - | FileCheck --check-prefix=THREAD %s
// RUN: xprof-gcc -O2 -fPIC -xprofile=collect -S %s -o - | FileCheck --check-prefix=PIC %s
// RUN: xprof-gcc -O2 -xprofile=collect -fplugin-arg-xprof-update=atomic -S %s -o - | FileCheck --check-prefix=ATOMIC %s
// RUN: xprof-gcc -O2 -xprofile=collect -fplugin-arg-xprof-update=single -S %s -o - | FileCheck --check-prefix=SINGLE %s
// RUN: xprof-gcc -O2 -xprofile=collect -fplugin-arg-xprof-no-tls-counters -fdump-tree-optimized=- -S %s -o /dev/null | FileCheck --check-prefixes=TREE,TREE-ASM %s
// RUN: xprof-gcc -O2 -xprofile=collect -fplugin-arg-xprof-no-tls-counters -fplugin-arg-xprof-no-asm-counters -fdump-tree-optimized=- -S %s -o /dev/null | FileCheck --check-prefixes=TREE,TREE-GIMPLE %s
// RUN: xprof-gcc -O2 -xprofile=collect -masm=intel -S %s -o - | FileCheck --check-prefix=INTEL %s
// RUN: xprof-gcc -O2 -xprofile=collect -fplugin-arg-xprof-no-asm-counters -S %s -o - | FileCheck --check-prefix=NOASM %s
// RUN: xprof-gcc -O2 -xprofile=collect -m32 -S %s -o - | FileCheck --check-prefix=M32 %s
//
// TWIN-LABEL: dispatch:
// TWIN-NOT:   __xprof_d
// TWIN-NOT:   lock
// TWIN:       #APP
// TWIN-NEXT:  addq $1, %fs:{{[0-9]*\+?}}__xprof_t@tpoff
// TWIN-NEXT:  #NO_APP
// TWIN:       cmpq 16+__xprof_vp(%rip), %r{{[a-z0-9]+}}
// TWIN-NEXT:  jne
// TWIN-NEXT:  #APP
// TWIN-NEXT:  lock addq $1, 24+__xprof_vp(%rip)
// TWIN:       call *
// TWIN:       cmpq 32+__xprof_vp(%rip), %r{{[a-z0-9]+}}
// TWIN-NEXT:  jne
// TWIN-NEXT:  #APP
// TWIN-NEXT:  lock addq $1, 40+__xprof_vp(%rip)
// TWIN:       call __xprof_vp_proc
// TWIN-NOT:   __xprof_thread_counters
// TWIN-LABEL: _sub_I_00100_0:
// TWIN:       movq %fs:0, [[TP:%r[a-z0-9]+]]
// TWIN:       addq $__xprof_t@tpoff, [[TP]]
// TWIN:       movq [[TP]], __xprof_tc(%rip)
// TWIN:       __xprof_register
// TWIN:       __xprof_procs:
// TWIN-COUNT-2: .quad __xprof_tc
//
// PIC-LABEL: dispatch:
// PIC:       __xprof_d@{{dtpoff|tlsld}}
// PIC-NOT:   __xprof_t@tpoff
// PIC:       call *__xprof_thread_counters_asm@GOTPCREL(%rip)
// PIC-NOT:   __xprof_t@tpoff
// PIC-LABEL: _sub_I_00100_0:
//
// THREAD-LABEL: dispatch:
// THREAD:       movq %fs:__xprof_d@tpoff, [[D:%r[a-z0-9]+]]
// THREAD:       testq [[D]], [[D]]
// THREAD-NOT:   lock addq $1, {{.*}}__xprof_counters
// THREAD:       addq $1, {{[0-9]*}}(%r{{[a-z0-9]+}},%r{{[a-z0-9]+}},8)
// THREAD-NOT:   lock addq $1, {{.*}}__xprof_counters
// THREAD:       call __xprof_vp_proc
// THREAD:       call *__xprof_thread_counters_asm@GOTPCREL(%rip)
// THREAD-LABEL: _sub_I_00100_0:
// THREAD-NOT:   __xprof_tc
// THREAD:       __xprof_register
//
// ATOMIC-LABEL: dispatch:
// ATOMIC:       lock addq $1, {{[0-9]*\+?}}__xprof_counters
// ATOMIC:       cmpq 16+__xprof_vp(%rip)
// ATOMIC-NEXT:  jne
// ATOMIC-NEXT:  #APP
// ATOMIC-NEXT:  lock addq $1, 24+__xprof_vp(%rip)
// ATOMIC:       call *
// ATOMIC:       call __xprof_vp_proc@
// ATOMIC-LABEL: _sub_I_00100_0:
// ATOMIC:       __xprof_object
// ATOMIC:       {{call|jmp}} __xprof_register
// ATOMIC-LABEL: _sub_D_00100_1:
// ATOMIC:       {{call|jmp}} __xprof_unregister
// SINGLE-LABEL: dispatch:
// SINGLE-NOT:   lock
// SINGLE:       addq $1, {{[0-9]*\+?}}__xprof_counters
// SINGLE-NOT:   lock
// SINGLE:       addq $1, 24+__xprof_vp(%rip)
// SINGLE-NOT:   lock
// SINGLE:       call __xprof_vp_proc_single
//
// TREE-LABEL: dispatch (
// TREE:       [[D1:PROF_delta_[0-9]+]] = __xprof_d;
// TREE-NEXT:  if ([[D1]] != 0)
// TREE:       __asm__ __volatile__("lea -128(%%rsp), %%rsp
// TREE-NEXT:  call *__xprof_thread_counters_asm@GOTPCREL(%%rip)
// TREE-NEXT:  lea 128(%%rsp), %%rsp" : "=a" PROF_delta_{{[0-9]+}} : "a" &__xprof_counters[0], "c" &__xprof_d : "cc", "memory");
// TREE:       # [[D:PROF_delta_[0-9]+]] = PHI <
// TREE:       [[I:PROF_idx_[0-9]+]] = [[D]] + {{[0-9]+}};
// TREE-ASM-NEXT:     __asm__ __volatile__ __inline__("{addq	$1, %0|add	%0, 1}" : "=m" __xprof_counters[[[I]]] : "m" __xprof_counters[[[I]]]);
// TREE-GIMPLE-NEXT:  [[E:PROF_edge_[0-9]+]] = __xprof_counters[[[I]]];
// TREE-GIMPLE-NEXT:  [[E2:PROF_edge_[0-9]+]] = [[E]] + 1;
// TREE-GIMPLE-NEXT:  __xprof_counters[[[I]]] = [[E2]];
// TREE:       [[T:PROF_fn_[0-9]+]] = (long int) [[FN:fn_[0-9]+]](D);
// TREE-NEXT:  [[V:PROF_vp_[0-9]+]] = __xprof_vp[2];
// TREE-NEXT:  if ([[T]] == [[V]])
// TREE-ASM:     __asm__ __volatile__ __inline__("lock {addq	$1, %0|add	%0, 1}" : "=m" __xprof_vp[3] : "m" __xprof_vp[3]);
// TREE-GIMPLE:  __atomic_fetch_add_8 (&__xprof_vp[3], 1, 0);
// TREE:       __xprof_vp_proc (&__xprof_vp[0], [[FN]](D));
// TREE:       _{{[0-9]+}} = [[FN]](D) (x_{{[0-9]+}}(D));
//
// INTEL-LABEL: dispatch:
// INTEL:       #APP
// INTEL-NEXT:  add QWORD PTR fs:{{[0-9]*\+?}}__xprof_t@tpoff, 1
// INTEL:       cmp r{{[a-z0-9]+}}, QWORD PTR __xprof_vp[rip+16]
// INTEL-NEXT:  jne
// INTEL-NEXT:  #APP
// INTEL-NEXT:  lock add QWORD PTR __xprof_vp[rip+24], 1
//
// NOASM-LABEL: dispatch:
// NOASM-NOT:   #APP
// NOASM:       addq $1, %fs:{{[0-9]*\+?}}__xprof_t@tpoff
// NOASM-NOT:   #APP
// NOASM:       lock addq $1, 24+__xprof_vp(%rip)
// NOASM-NOT:   #APP
// NOASM-LABEL: .size dispatch
//
// M32-LABEL: dispatch:
// M32-NOT:   #APP
// M32:       addl $1, %gs:{{[0-9]*\+?}}__xprof_t@ntpoff
// M32-NEXT:  adcl $0, %gs:{{[0-9]*\+?}}__xprof_t@ntpoff
// M32-NOT:   #APP
// M32:       lock cmpxchg8b
// M32-NOT:   #APP
// M32-LABEL: .size dispatch
int dispatch(int (*fn)(int), int x) {
  if (x > 100)
    return 0;
  return fn(x);
}


// Another function, so that the procedure table lists the cell twice.
int twice(int x) { return x > 3 ? x * 2 : x; }
