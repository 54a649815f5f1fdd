/* use.c - -xprofile=use on LLVM IR (issue 7). */
#include "core.h"

int xl_run_use(LLVMModuleRef m, const struct xl_options *o) {
  (void)m;
  (void)o;
  return 0;
}
