/* use.cc - -xprofile=use (issue 5). */
#include "gcc-common.h"
#include "xprof-gcc.h"

void xp_use_execute(void) {}
