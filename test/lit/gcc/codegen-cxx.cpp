// C++: virtual calls are value-profiled like any indirect call, and an
// inline (comdat) function keeps its counters in a comdat array of its
// own, named after it and its signature, hidden.
// REQUIRES: gcc-plugin
// RUN: xprof-g++ -O2 -xprofile=collect -fdump-tree-optimized=- -S %s -o %t.s | FileCheck --check-prefix=TREE %s
// RUN: FileCheck --check-prefix=ASM %s < %t.s
// TREE-LABEL: call_area (
// TREE:       [[FN:_[0-9]+]] = *_{{[0-9]+}};
// TREE-NEXT:  [[T:PROF_fn_[0-9]+]] = (long int) [[FN]];
// TREE-NEXT:  [[V:PROF_vp_[0-9]+]] = __xprof_vp[2];
// TREE-NEXT:  if ([[T]] == [[V]])
// TREE:       __asm__ __volatile__ __inline__("lock {addq	$1, %0|add	%0, 1}" : "=m" __xprof_vp[3] : "m" __xprof_vp[3]);
// TREE:       __xprof_vp_proc (&__xprof_vp[0], [[FN]]);
// TREE:       _{{[0-9]+}} = OBJ_TYPE_REF([[FN]];
// ASM:        .hidden __xprof_c._Z6squarei.{{[0-9a-f]+}}
// ASM:        .section .bss.__xprof_c._Z6squarei.{{[0-9a-f]+}},"awG",@nobits,__xprof_c._Z6squarei.{{[0-9a-f]+}},comdat
struct Shape {
  virtual int area() const = 0;
};
int call_area(const Shape *s) { return s->area(); }
__attribute__((noinline)) inline int square(int x) { return x > 0 ? x * x : -x * x; }
int use_square(int x) { return square(x) + 1; }
