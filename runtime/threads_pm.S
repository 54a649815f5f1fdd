/*
 * threads_pm.S - __xprof_thread_counters for callers that keep their
 * registers (x86-64): LLVM-compiled code calls it with the preserve_most
 * convention, so the rarely taken slow path of a function's entry code
 * does not make small leaf functions save and restore registers on every
 * call.  It preserves every general register but rax (the result) and r11.
 */
#if defined(__x86_64__) && defined(__ELF__)
        .text
        .globl  __xprof_thread_counters_pm
        .type   __xprof_thread_counters_pm, @function
__xprof_thread_counters_pm:
        .cfi_startproc
        pushq   %rcx
        .cfi_adjust_cfa_offset 8
        pushq   %rdx
        .cfi_adjust_cfa_offset 8
        pushq   %rsi
        .cfi_adjust_cfa_offset 8
        pushq   %rdi
        .cfi_adjust_cfa_offset 8
        pushq   %r8
        .cfi_adjust_cfa_offset 8
        pushq   %r9
        .cfi_adjust_cfa_offset 8
        pushq   %r10
        .cfi_adjust_cfa_offset 8
        /* 7 words pushed after the return address: 16-byte aligned. */
        call    __xprof_thread_counters@PLT
        popq    %r10
        .cfi_adjust_cfa_offset -8
        popq    %r9
        .cfi_adjust_cfa_offset -8
        popq    %r8
        .cfi_adjust_cfa_offset -8
        popq    %rdi
        .cfi_adjust_cfa_offset -8
        popq    %rsi
        .cfi_adjust_cfa_offset -8
        popq    %rdx
        .cfi_adjust_cfa_offset -8
        popq    %rcx
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size   __xprof_thread_counters_pm, .-__xprof_thread_counters_pm

/*
 * __xprof_thread_counters_asm - the same for GCC-compiled code, which
 * calls it from an asm statement the compiler does not see as a call
 * (GCC has no preserve_most): arguments in rdi and rsi, the result in
 * rax, every other register kept, the x87/SSE state too (fxsave: the
 * plugin does not use it in functions with vector arguments wider than
 * 16 bytes, whose upper halves it does not keep), any stack alignment.
 * The caller has stepped over the red zone.
 */
        .globl  __xprof_thread_counters_asm
        .type   __xprof_thread_counters_asm, @function
__xprof_thread_counters_asm:
        .cfi_startproc
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbp, 0
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        andq    $-16, %rsp
        subq    $512, %rsp
        fxsave64 (%rsp)
        pushq   %rcx
        pushq   %rdx
        pushq   %rsi
        pushq   %rdi
        pushq   %r8
        pushq   %r9
        pushq   %r10
        pushq   %r11
        call    __xprof_thread_counters@PLT
        popq    %r11
        popq    %r10
        popq    %r9
        popq    %r8
        popq    %rdi
        popq    %rsi
        popq    %rdx
        popq    %rcx
        fxrstor64 (%rsp)
        movq    %rbp, %rsp
        .cfi_def_cfa_register %rsp
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbp
        ret
        .cfi_endproc
        .size   __xprof_thread_counters_asm, .-__xprof_thread_counters_asm
#endif
        .section .note.GNU-stack,"",@progbits
