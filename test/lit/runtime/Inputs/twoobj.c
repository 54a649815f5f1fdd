/* Object one.o of a two-object program; -DREBUILT changes its build. */
#include "handmade.h"

#ifdef REBUILT
#define SIG 0x2222
#define TV 1763777999
#else
#define SIG 0x1111
#define TV 1763777000
#endif

static uint64_t counters[1];
static const struct xprof_abi_proc procs[] = {
    {"f", SIG, 0, 1, counters, 0, 0, NULL, NULL},
};
static struct xprof_abi_object obj = {
    XPROF_ABI_VERSION, 1, "/handmade/one.o", TV, 0, 1, SIG, NULL, 1, 1,
    procs, counters, 0, {0}};
__attribute__((constructor)) static void ctor(void) { __xprof_register(&obj); }
__attribute__((destructor)) static void dtor(void) { __xprof_unregister(&obj); }

void g(void);
int main(void) {
  XP_INC(counters, 0);
  g();
  return 0;
}
