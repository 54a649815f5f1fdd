/*
 * plan_internal.h - what the plan layer's own files share and its users
 * need not see.
 */
#ifndef XPROF_PLAN_INTERNAL_H
#define XPROF_PLAN_INTERNAL_H

#include <regex.h>
#include <stddef.h>

/* regcomp(3) of an extended expression for matching only (REG_NOSUB),
 * refused when its repetitions would make the C library's compiled form
 * huge (a{999}{999} takes gigabytes): the expressions come from users'
 * command lines and files (naming.c).  0, or -1 with why (room bytes)
 * saying what is wrong. */
int xprof_regcomp(regex_t *re, const char *ere, char *why, size_t room);

#endif
