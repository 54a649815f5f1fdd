/* An assembler source with a C preprocessor directive, as zstd's
 * huf_decompress_amd64.S: long asm_add(long a, long b). */
#define FUNCTION(name) .globl name; .type name, @function; name:
  .text
FUNCTION(asm_add)
  lea (%rdi,%rsi), %rax
  ret
  .size asm_add, .-asm_add
  .section .note.GNU-stack, "", @progbits
