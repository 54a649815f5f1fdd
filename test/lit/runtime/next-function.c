// rt_next_function finds what dlsym(RTLD_NEXT) finds, without dlsym: the
// C library's function behind the runtime's stand-in (execve, sigaction),
// and of a name with older versions kept beside the default one
// (realpath@GLIBC_2.2.5, realpath@@GLIBC_2.3; timer_create has three),
// the default version, also where an older one comes first in the
// symbol table (vfun: readelf shows vfun@V1 before vfun@@V2).  A name
// nothing defines: NULL.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gcc -shared -fPIC %S/Inputs/versioned.c -Wl,--version-script=%S/Inputs/versioned.map -o %t/libversioned.so
// RUN: readelf --dyn-syms %t/libversioned.so | FileCheck --check-prefix=ORDER %s
// ORDER: vfun@V1
// ORDER: vfun@@V2
// RUN: %cc_rt %s -L%t -lversioned -Wl,-rpath,%t -o %t/next
// RUN: %t/next | FileCheck %s
// The lookup follows each module's hash table: the GNU one (what the
// linkers here make by default), or the System V one where a module has
// only that (an older or another toolchain's library).
// RUN: readelf -S %t/libversioned.so | FileCheck --check-prefix=GNU %s
// GNU: .gnu.hash
// RUN: mkdir -p %t/sysv
// RUN: gcc -shared -fPIC %S/Inputs/versioned.c -Wl,--version-script=%S/Inputs/versioned.map -Wl,--hash-style=sysv -o %t/sysv/libversioned.so
// RUN: readelf -S %t/sysv/libversioned.so | FileCheck --check-prefix=SYSV %s
// SYSV-NOT: .gnu.hash
// SYSV: .hash
// SYSV-NOT: .gnu.hash
// RUN: %cc_rt %s -L%t/sysv -lversioned -Wl,-rpath,%t/sysv -o %t/next-sysv
// RUN: %t/next-sysv | FileCheck %s
// CHECK:      execve: same
// CHECK-NEXT: sigaction: same
// CHECK-NEXT: realpath: same
// CHECK-NEXT: timer_create: same
// CHECK-NEXT: vfun: same, 2
// CHECK-NEXT: no_such_function_here: NULL
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

void *rt_next_function(const char *name, const void *self);
int vfun(void);

int main(void) {
  static const char *const names[] = {"execve", "sigaction", "realpath", "timer_create",
                                      "vfun", "no_such_function_here"};
  for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
    void *ours = rt_next_function(names[i], (const void *)main);
    void *theirs = dlsym(RTLD_NEXT, names[i]);
    printf("%s: %s", names[i], !ours && !theirs ? "NULL" : ours == theirs ? "same" : "differs");
    if (ours && i == 4)
      printf(", %d", ((int (*)(void))ours)());
    printf("\n");
  }
  return vfun() == 2 ? 0 : 1;
}
