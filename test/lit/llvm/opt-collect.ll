; The IR collect mode produces, through opt: with -xprof-tls-counters=false
; (and in PIC code, llvm/twins.ll), code at entry that finds the
; thread's copy of the counters and plain increments in it (relaxed
; atomic increments with -xprof-update=atomic), a value-profile call
; before the indirect call, a comdat counter array for the linkonce_odr
; function, the descriptor and the constructor and destructor.
; REQUIRES: llvm-plugin, typed-pointers
; RUN: opt -load=%llvm_plugin -load-pass-plugin=%llvm_plugin -passes=xprof-collect -xprof-tls-counters=false -S %s -o - | FileCheck %s
; RUN: opt -load=%llvm_plugin -load-pass-plugin=%llvm_plugin -passes=xprof-collect -xprof-update=atomic -S %s -o - | FileCheck --check-prefix=ATOMIC %s
; RUN: opt -load=%llvm_plugin -load-pass-plugin=%llvm_plugin -passes=xprof-collect -xprof-update=single -S %s -o - | FileCheck --check-prefix=SINGLE %s
; RUN: opt -load-pass-plugin=%llvm_plugin -passes=xprof-collect,xprof-collect -S %s -o - | FileCheck --check-prefix=TWICE %s
; RUN: opt -load=%llvm_plugin -load-pass-plugin=%llvm_plugin -passes=xprof-collect -xprof-tls-counters=false -xprof-promote -S %s -o - | FileCheck --check-prefix=PROMOTE %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$inl = comdat any

; CHECK-DAG: @__xprof_d = internal thread_local global i64 0, align 8
; CHECK-DAG: @__xprof_d.inl.{{[0-9a-f]+}} = linkonce_odr hidden thread_local global i64 0, comdat, align 8
; CHECK-DAG: @__xprof_c.inl.{{[0-9a-f]+}} = linkonce_odr hidden global [3 x i64] zeroinitializer, comdat, align 8
; CHECK-DAG: @__xprof_counters = internal global [{{[0-9]+}} x i64]
; CHECK-DAG: @llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 100, void ()* @__xprof_ctor, i8* null }]
; CHECK-DAG: @llvm.global_dtors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 100, void ()* @__xprof_dtor, i8* null }]

define i32 @dispatch(i32 (i32)* %fn, i32 %x) {
; CHECK-LABEL: define i32 @dispatch(
; CHECK:       %xprof.delta = load i64, i64* @__xprof_d
;   The slow path: an asm statement calling the runtime's trampoline.
; CHECK:       call i64 asm sideeffect "lea -128(%rsp), %rsp\0A\09call *__xprof_thread_counters_asm_r10@GOTPCREL(%rip)\0A\09lea 128(%rsp), %rsp", "={rax},{r10},{r11},~{dirflag},~{fpsr},~{flags},~{memory}"(i64* getelementptr inbounds ([{{[0-9]+}} x i64], [{{[0-9]+}} x i64]* @__xprof_counters, i32 0, i32 0), i64* @__xprof_d)
; CHECK:       [[D:%xprof.delta[0-9]+]] = phi i64
; CHECK-NEXT:  [[C:%xprof.copy]] = getelementptr i64, i64* getelementptr inbounds ({{.*}}@__xprof_counters, i32 0, i32 0), i64 [[D]]
; CHECK-NEXT:  [[P:%xprof.at[0-9]*]] = getelementptr i64, i64* [[C]], i64 0
; CHECK-NEXT:  [[V:%xprof.ctr[0-9]*]] = load volatile i64, i64* [[P]]
; CHECK-NEXT:  [[V2:%xprof.inc[0-9]*]] = add i64 [[V]], 1
; CHECK-NEXT:  store volatile i64 [[V2]], i64* [[P]]
;   The site's first two values are checked and counted inline, the
;   runtime called for others.
; CHECK-NOT:   atomicrmw add i64* {{.*}}@__xprof_counters
; CHECK:       [[T:%[0-9]+]] = ptrtoint i8* [[FN:%[0-9]+]] to i64
; CHECK-NEXT:  [[K0:%xprof.vp.value]] = load i64, i64* getelementptr inbounds ({{.*}}@__xprof_vp, i32 0, i64 2)
; CHECK-NEXT:  [[E0:%[0-9]+]] = icmp eq i64 [[K0]], [[T]]
; CHECK-NEXT:  br i1 [[E0]], label %xprof.vp.hit, label %xprof.vp.next
; CHECK:       atomicrmw add i64* getelementptr inbounds ({{.*}}@__xprof_vp, i32 0, i64 3), i64 1 monotonic
; CHECK:       load i64, i64* getelementptr inbounds ({{.*}}@__xprof_vp, i32 0, i64 4)
; CHECK:       atomicrmw add i64* getelementptr inbounds ({{.*}}@__xprof_vp, i32 0, i64 5), i64 1 monotonic
; CHECK-NOT:   atomicrmw add i64* {{.*}}@__xprof_counters
; CHECK:       call void @__xprof_vp_proc(i64* getelementptr inbounds ({{.*}}@__xprof_vp, i32 0, i32 0), i8* [[FN]])
; CHECK-NEXT:  br label %xprof.vp.join
; CHECK:       xprof.vp.join:
; CHECK-NEXT:  %r = call i32 %fn(i32 %x)
; ATOMIC-LABEL: define i32 @dispatch(
; ATOMIC-NOT:   __xprof_tls
; ATOMIC:       atomicrmw add i64* getelementptr inbounds ({{.*}}@__xprof_counters{{.*}}), i64 1 monotonic
; ATOMIC:       call void @__xprof_vp_proc(
; SINGLE-LABEL: define i32 @dispatch(
; SINGLE-NOT:   atomicrmw
; SINGLE:       load volatile i64, i64* getelementptr inbounds ({{.*}}@__xprof_counters
; SINGLE:       store i64 {{.*}}@__xprof_vp, i32 0, i64 3)
; SINGLE:       call void @__xprof_vp_proc_single(
entry:
  %big = icmp sgt i32 %x, 100
  br i1 %big, label %out, label %call
call:
  %r = call i32 %fn(i32 %x)
  br label %out
out:
  %v = phi i32 [ 0, %entry ], [ %r, %call ]
  ret i32 %v
}

; A loop without calls: with atomic updates (or -xprof-promote) each
; counter counts in a local, added to memory at the loop's exit (mem2reg
; later keeps it in a register); per-thread and single-threaded updates
; stay plain adds in the loop, volatile so that LICM leaves them there
; (LLVM 15 and later would keep the count in a register that each update
; still stores).  The local of a promoted counter is not volatile: SROA
; makes it a register.
define i32 @sum(i32 %n) {
; CHECK-LABEL: define i32 @sum(
; CHECK-NOT:   %xprof.local
; CHECK:       loop:
; CHECK:       [[Q:%.*]] = getelementptr i64, i64* %xprof.copy, i64 {{[0-9]+}}
; CHECK-NEXT:  [[OLD:%xprof.ctr.*]] = load volatile i64, i64* [[Q]]
; CHECK-NEXT:  [[NEW:%.*]] = add i64 [[OLD]], 1
; CHECK-NEXT:  store volatile i64 [[NEW]], i64* [[Q]]
; CHECK:       done:
; CHECK-NOT:   %xprof.local
; CHECK:       ret i32
; PROMOTE-LABEL: define i32 @sum(
; PROMOTE:       %xprof.local = alloca i64
; PROMOTE:       store i64 0, i64* %xprof.local
; PROMOTE-NEXT:  br label %loop
; PROMOTE:       loop:
; PROMOTE-NOT:   @__xprof_counters
; PROMOTE:       load i64, i64* %xprof.local
; PROMOTE:       store i64 %{{.*}}, i64* %xprof.local
; PROMOTE:       done:
; PROMOTE-NEXT:  %xprof.pending = load i64, i64* %xprof.local
; PROMOTE-NEXT:  [[Q:%.*]] = getelementptr i64, i64* %xprof.copy, i64 {{[0-9]+}}
; PROMOTE-NEXT:  [[OLD:%xprof.ctr.*]] = load i64, i64* [[Q]]
; PROMOTE-NEXT:  [[NEW:%.*]] = add i64 [[OLD]], %xprof.pending
; PROMOTE-NEXT:  store i64 [[NEW]], i64* [[Q]]
; ATOMIC-LABEL: define i32 @sum(
; ATOMIC:       %xprof.local = alloca i64
; ATOMIC:       done:
; ATOMIC-NEXT:  %xprof.pending = load i64, i64* %xprof.local
; ATOMIC-NEXT:  atomicrmw add i64* getelementptr inbounds ({{.*}}@__xprof_counters{{.*}}), i64 %xprof.pending monotonic
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %s1 = add i32 %s, %i
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret i32 %s1
}

; A loop with a call keeps counting in memory: a call that exits or
; longjmps would lose counts held in a register.
define i32 @calls_out(i32 %n) {
; ATOMIC-LABEL: define i32 @calls_out(
; ATOMIC-NOT:   %xprof.local
; ATOMIC:       call void @ext(
; ATOMIC-NOT:   %xprof.local
; ATOMIC:       ret i32
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @ext(i32 %i)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret i32 %i1
}

declare void @ext(i32)

define linkonce_odr i32 @inl(i32 %x) comdat {
; CHECK-LABEL: define linkonce_odr i32 @inl(
; CHECK:       call i64 asm sideeffect {{.*}}(i64* getelementptr inbounds ({{.*}}@__xprof_c.inl.{{[0-9a-f]+}}, i32 0, i32 0), i64* @__xprof_d.inl.
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %pos, label %neg
pos:
  ret i32 %x
neg:
  %n = sub i32 0, %x
  ret i32 %n
}

; CHECK-LABEL: define internal void @__xprof_ctor()
; CHECK:       call void @__xprof_register(i8* bitcast ({{.*}}@__xprof_object to i8*))
; CHECK-LABEL: define internal void @__xprof_dtor()
; CHECK:       call void @__xprof_unregister(

; A module is instrumented once, however often the pass runs.
; TWICE-COUNT-1: define internal void @__xprof_ctor()
