/* A function with two versions, the older first in the dynamic symbol
 * table: vfun@V1 (1) and the default vfun@@V2 (2).  Linked with
 * versioned.map. */
__attribute__((used)) int vfun_old(void) { return 1; }
__attribute__((used)) int vfun_new(void) { return 2; }
__asm__(".symver vfun_old,vfun@V1");
__asm__(".symver vfun_new,vfun@@V2");
