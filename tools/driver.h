/*
 * driver.h - the compiler drivers xprof-gcc, xprof-g++ (and their clang
 * twins), in three parts: the user's command read (driver_command.c), the
 * plugin's and the runtime's arguments added (driver_plugin.c), the
 * compiler run (xprof-cc.c).
 */
#ifndef XPROF_DRIVER_H
#define XPROF_DRIVER_H

#include <time.h>

#include "profile_deps.h"
#include "xprof_plan.h"

#ifndef XPROF_DRIVER_NAME
#define XPROF_DRIVER_NAME "xprof-gcc"
#endif
#ifndef XPROF_COMPILER
#define XPROF_COMPILER "gcc"
#endif
#ifndef XPROF_REL_LIBDIR
#define XPROF_REL_LIBDIR "lib"
#endif

#ifdef XPROF_FOR_CLANG
#define XPROF_DRIVER_PLUGIN XPROF_OPT_LLVM
#else
#define XPROF_DRIVER_PLUGIN XPROF_OPT_GCC
#endif

/* What the user's command asks for. */
struct command {
  xprof_options o; /* the xprof options, as the plugin will read them */
  int tls_given;   /* the user chose the tls-counters option */
  int update_given; /* -xprofile_update */
  const char *native_update; /* the last -fprofile-update=MODE's */
  int werror;      /* -Werror */
  int debug_given; /* the user chose debug information (-g...) */
  const char **prefix_maps; /* -ffile-prefix-map=OLD=NEW, -fprofile-prefix-map= */
  int n_prefix_maps;
  const char *native; /* the first of the compiler's own profiling options */
  const char *legacy_pm; /* clang: -flegacy-pass-manager, not turned off again */
  const char *other_abi; /* the last option that leaves x86-64's ABI (-m32), or NULL */
  const char **user;  /* the arguments that go to the compiler */
  int n_user;
  const char **objects; /* inputs that are not sources (for the link) */
  int n_objects;
  const char **lib_dirs; /* -L DIR, in order */
  int n_lib_dirs;
  const char **libs; /* -l NAME (NAME, or :FILE) */
  int n_libs;
  int link, inputs, sources, static_link;
  int shared;    /* -shared */
  int relocatable; /* -r (or the linker's -r, --relocatable, -i): a partial link */
  int pic_given; /* any of -f[no-]pic, -f[no-]PIC, -f[no-]pie, -f[no-]PIE */
  int lto;       /* -flto[=...], less a later -fno-lto */
  unsigned sanitizers; /* of thread_sanitizers: -fsanitize= less -fno-sanitize= */
  int preprocess;     /* -E */
  int make_deps;      /* -MD or -MMD: a dependency file beside the output */
  const char *depfile; /* -MF FILE */
  const char *source; /* the first source */
  const char *output;
  const char *partition; /* clang: -f[no-]reorder-blocks-and-partition */
  const char *profile_values; /* clang: GCC's -f[no-]profile-values */
  int exceptions;        /* clang: the last -f[no-]exceptions (1/0), or -1 */
  int cxx;               /* clang: a C++ or Objective-C++ source, or clang++ */
  int one_dash;          /* an option spelled -xprofile... (not --xprofile...) */
};

/* The driver's name, for messages; `fmt` (one %s, arg) and a newline to
 * stderr after it; returns 1. */
extern const char *me;
int die(const char *fmt, const char *arg);

/* Read the command line into c; returns 0, or 1 after saying why not. */
int parse_command(struct command *c, int argc, char **argv);

/* A growing argument vector; a failed allocation ends the driver. */
struct args {
  char **v;
  size_t n, cap;
};
void push(struct args *a, const char *s);
void pushf(struct args *a, const char *fmt, const char *s);

/* The plugin and its arguments (and in use mode what -fprofile-use turns
 * on), before the user's; 0, or 1 after saying why not.  What the driver
 * itself decides of the options goes into c's first. */
int add_plugin(struct args *a, struct command *c);
/* The runtime, for a link of instrumented code; 0, or 1. */
int add_runtime(struct args *a, const struct command *c);
/* -xprofile_order at a use build's link: the linker's arguments that
 * order the functions (driver_order.c); the order file to remove after
 * the link (malloc'd), or NULL when the link is not ordered (after a
 * note saying why, when there is a reason to tell). */
char *add_order(struct args *a, const struct command *c);
/* After a link that added the runtime: a warning (-Wxprof-hidden-runtime)
 * when the program's dynamic symbols lack the runtime's stand-ins
 * (pthread_create and the others of XPROF_ABI_EXPORTS), which shared
 * libraries must reach; an output older than `since` is not the link's.
 * 0, or 1 when the warning was an error (the output removed). */
int check_runtime_exports(const struct command *c, time_t since);
/* Does this input of a link hold code compiled with -xprofile=collect? */
int instrumented_input(const char *path);
/* Does the archive that -l NAME takes from the command's -L directories? */
int instrumented_library(const struct command *c, const char *name);

/* The file among self_dir/candidates (or named by the environment
 * variable env) that exists, resolved (malloc'd); NULL if none. */
char *locate(const char *env, const char *const *candidates);

#endif
