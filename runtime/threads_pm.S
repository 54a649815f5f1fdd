/*
 * threads_pm.S - XPROF_THREAD_COUNTERS for callers that keep their
 * registers (x86-64), so that the rarely taken slow path of a function's
 * entry code does not make small functions save and restore registers,
 * or look like a call to the inliner, on every call.
 */
#include "xprof_abi.h"

#if defined(__x86_64__) && defined(__ELF__)
/* Under -fcf-protection (__CET__: 1 branch tracking, 2 shadow stack) the
 * entry points, reached by indirect calls through the GOT, begin with
 * endbr64, and the object carries the property note that says so, as
 * the compiler's own objects do: the linker marks a program only if all
 * of its objects are marked.  Calls and returns pair up: nothing here
 * needs more for a shadow stack. */
#if defined(__CET__) && (__CET__ & 1)
#define ENTRY_BRANCH endbr64
#else
#define ENTRY_BRANCH
#endif
#ifdef __CET__
        .section .note.gnu.property, "a"
        .p2align 3
        .long   4               /* name size */
        .long   16              /* descriptor size */
        .long   5               /* NT_GNU_PROPERTY_TYPE_0 */
        .asciz  "GNU"
        .long   0xc0000002      /* GNU_PROPERTY_X86_FEATURE_1_AND */
        .long   4
        .long   (__CET__ & 3)   /* IBT 1, SHSTK 2 */
        .p2align 3
#endif
        .text

/*
 * XPROF_THREAD_COUNTERS_ASM - XPROF_THREAD_COUNTERS for code that
 * calls it from an asm statement the compiler does not see as a call, so that it pays for
 * no call in the functions it is in: the result in rax, every other
 * register kept, the sixteen SSE registers too (the plugins do not use it
 * in functions with vector arguments wider than 16 bytes, whose upper
 * halves it does not keep), any stack alignment.  The x87 state is not
 * saved: nothing the slow path runs (the runtime's C code, the C
 * library's allocation and locking) uses it, and fxsave would cost more
 * than the rest of a call that every thread makes once per procedure.  The caller has stepped
 * over the red zone and calls through the GOT, never through a lazily
 * bound PLT entry (the dynamic linker's resolver would not keep r10 and
 * r11).  Arguments in rax and rcx (registers GCC's asm constraints can
 * name that hold none of a function's first three arguments), or, at
 * XPROF_THREAD_COUNTERS_ASM_R10, in r10 and r11 (LLVM's can name any
 * register: a function's own arguments then all stay where they are).
 */
        .globl  XPROF_THREAD_COUNTERS_ASM_R10
        .type   XPROF_THREAD_COUNTERS_ASM_R10, @function
XPROF_THREAD_COUNTERS_ASM_R10:
        .cfi_startproc
        ENTRY_BRANCH
        pushq   %rcx
        .cfi_adjust_cfa_offset 8
        movq    %r10, %rax
        movq    %r11, %rcx
        call    .Lasm_body          /* local: no PLT, nothing lazily bound */
        popq    %rcx
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size   XPROF_THREAD_COUNTERS_ASM_R10, .-XPROF_THREAD_COUNTERS_ASM_R10

        .globl  XPROF_THREAD_COUNTERS_ASM
        .type   XPROF_THREAD_COUNTERS_ASM, @function
XPROF_THREAD_COUNTERS_ASM:
        .cfi_startproc
        ENTRY_BRANCH
.Lasm_body:
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbp, 0
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        andq    $-16, %rsp
        subq    $256, %rsp
        movdqa  %xmm0, 0(%rsp)
        movdqa  %xmm1, 16(%rsp)
        movdqa  %xmm2, 32(%rsp)
        movdqa  %xmm3, 48(%rsp)
        movdqa  %xmm4, 64(%rsp)
        movdqa  %xmm5, 80(%rsp)
        movdqa  %xmm6, 96(%rsp)
        movdqa  %xmm7, 112(%rsp)
        movdqa  %xmm8, 128(%rsp)
        movdqa  %xmm9, 144(%rsp)
        movdqa  %xmm10, 160(%rsp)
        movdqa  %xmm11, 176(%rsp)
        movdqa  %xmm12, 192(%rsp)
        movdqa  %xmm13, 208(%rsp)
        movdqa  %xmm14, 224(%rsp)
        movdqa  %xmm15, 240(%rsp)
        pushq   %rcx
        pushq   %rdx
        pushq   %rsi
        pushq   %rdi
        pushq   %r8
        pushq   %r9
        pushq   %r10
        pushq   %r11
        movq    %rax, %rdi
        movq    %rcx, %rsi
        call    XPROF_THREAD_COUNTERS@PLT
        popq    %r11
        popq    %r10
        popq    %r9
        popq    %r8
        popq    %rdi
        popq    %rsi
        popq    %rdx
        popq    %rcx
        movdqa  0(%rsp), %xmm0
        movdqa  16(%rsp), %xmm1
        movdqa  32(%rsp), %xmm2
        movdqa  48(%rsp), %xmm3
        movdqa  64(%rsp), %xmm4
        movdqa  80(%rsp), %xmm5
        movdqa  96(%rsp), %xmm6
        movdqa  112(%rsp), %xmm7
        movdqa  128(%rsp), %xmm8
        movdqa  144(%rsp), %xmm9
        movdqa  160(%rsp), %xmm10
        movdqa  176(%rsp), %xmm11
        movdqa  192(%rsp), %xmm12
        movdqa  208(%rsp), %xmm13
        movdqa  224(%rsp), %xmm14
        movdqa  240(%rsp), %xmm15
        movq    %rbp, %rsp
        .cfi_def_cfa_register %rsp
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbp
        ret
        .cfi_endproc
        .size   XPROF_THREAD_COUNTERS_ASM, .-XPROF_THREAD_COUNTERS_ASM
#endif
        .section .note.GNU-stack,"",@progbits
