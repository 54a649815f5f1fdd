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
#endif
        .section .note.GNU-stack,"",@progbits
