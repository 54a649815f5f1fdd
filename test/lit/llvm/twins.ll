; Per-thread counters in code for an executable (no "PIC Level" module
; flag, or a "PIE Level"): plain increments in a thread-local (local-exec)
; twin of each counter array, nothing at function entry, and the
; constructor points each twin's cell at it before registering; the
; procedure table names the cells.  Code with "PIC Level" alone (a shared
; library, whose TLS may be dynamic) finds the thread's copy at entry.
; REQUIRES: llvm-plugin, typed-pointers
; RUN: opt -load-pass-plugin=%llvm_plugin -passes=xprof-collect -S %s -o - | FileCheck %s
; RUN: sed 's/^;PIE: //' %s | opt -load-pass-plugin=%llvm_plugin -passes=xprof-collect -S -o - | FileCheck %s
; RUN: sed 's/^;PIC: //' %s | opt -load-pass-plugin=%llvm_plugin -passes=xprof-collect -S -o - | FileCheck --check-prefix=PIC %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$inl = comdat any

; CHECK-DAG: @__xprof_t = internal thread_local(localexec) global [3 x i64] zeroinitializer, align 8
; CHECK-DAG: @__xprof_tc = internal global i64* null, align 8
; CHECK-DAG: @__xprof_t.inl.[[SIG:[0-9a-f]+]] = linkonce_odr hidden thread_local(localexec) global [2 x i64] zeroinitializer, comdat, align 8
; CHECK-DAG: @__xprof_tc.inl.[[SIG]] = linkonce_odr hidden global i64* null, comdat, align 8
; CHECK-DAG: @__xprof_procs = internal global {{.*}} i64** @__xprof_tc, i64* getelementptr {{.*}} @__xprof_fr, {{.*}} }{{.*}} i64** @__xprof_tc.inl.[[SIG]], i64* getelementptr {{.*}} @__xprof_c.inl.[[SIG]], {{.*}} }
; PIC-NOT:   @__xprof_t
; PIC:       @__xprof_d = internal thread_local global i64 0

define i32 @f(i32 %x) {
; CHECK-LABEL: define i32 @f(
; CHECK-NEXT:  entry:
; CHECK-NOT:   __xprof_d
; CHECK:       load volatile i64, i64* getelementptr inbounds ([3 x i64], [3 x i64]* @__xprof_t, i32 0, i32 {{[0-9]}})
; CHECK-NOT:   __xprof_d
; CHECK:       ret i32
; PIC-LABEL:   define i32 @f(
; PIC:         %xprof.delta = load i64, i64* @__xprof_d
entry:
  %big = icmp sgt i32 %x, 100
  br i1 %big, label %a, label %b
a:
  ret i32 1
b:
  %c = icmp sgt i32 %x, 10
  br i1 %c, label %d, label %e
d:
  ret i32 2
e:
  ret i32 3
}

define linkonce_odr i32 @inl(i32 %x) comdat {
; CHECK-LABEL: define linkonce_odr i32 @inl(
; CHECK:       @__xprof_t.inl.[[SIG]]
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
; CHECK-NEXT:  entry:
; CHECK-DAG:   store i64* getelementptr inbounds ([3 x i64], [3 x i64]* @__xprof_t, i32 0, i32 0), i64** @__xprof_tc
; CHECK-DAG:   store i64* getelementptr inbounds ([2 x i64], [2 x i64]* @__xprof_t.inl.[[SIG]], i32 0, i32 0), i64** @__xprof_tc.inl.[[SIG]]
; CHECK:       call void @__xprof_register(

;PIE: !llvm.module.flags = !{!0, !1}
;PIE: !0 = !{i32 7, !"PIC Level", i32 2}
;PIE: !1 = !{i32 7, !"PIE Level", i32 2}
;PIC: !llvm.module.flags = !{!0}
;PIC: !0 = !{i32 7, !"PIC Level", i32 2}
