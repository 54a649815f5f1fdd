/* tool_common.h - what the xprof command-line tools share. */
#ifndef XPROF_TOOL_COMMON_H
#define XPROF_TOOL_COMMON_H

#include <stdio.h>

#include "xprof_plan.h"
#include "xprof_views.h"

/* The tool's name for messages, set by tool_init. */
extern const char *tool_name;

/* Name the tool, and check at exit that its standard output was all
 * written (else a message and exit status 1). */
void tool_init(const char *name);
/* Print "tool: message" on stderr; returns 1 (the exit status). */
int tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tool_fail(const xprof_error *err);
/* Handle --help / --version; returns 1 when the tool should exit 0. */
int tool_standard_options(int argc, char **argv, const char *usage);

/* The output file at path ("-" or NULL: the standard output), opened
 * with mode ("w", "wb"); NULL when it cannot be (said). */
FILE *tool_open_output(const char *path, const char *mode);
/* Close what tool_open_output opened.  A file is removed rather than
 * left partial when `failed` is set (the caller has said why) or its
 * last bytes cannot be written.  0, or 1 when failed or they cannot
 * (said).  The standard output is flushed, not closed (tool_init closes
 * it at exit). */
int tool_close_output(FILE *f, const char *path, int failed);

/* The object file whose CFG dump (OBJECT.xpcfg, see xprof_verify) is
 * `dump`, as the profile knows it, or NULL; `path` (8192 bytes) gets the
 * path it was looked up by. */
const xprof_objfile *tool_dump_object(const xprof_profile *p, const char *dump, char *path);


#endif
