/*
 * elf_section.h - between the ELF readers of the views layer (elf.c,
 * dwarf_line.c); not installed.
 */
#ifndef XPROF_ELF_SECTION_H
#define XPROF_ELF_SECTION_H

#include <stddef.h>
#include <stdint.h>

/* The bytes of an ELF file's section of that name: 0, or -1 when the file
 * has none usable (missing, compressed, outside the file). */
int xprof_elf_section(const unsigned char *buf, size_t len, const char *name, uint64_t *off,
                      uint64_t *size);

#endif
