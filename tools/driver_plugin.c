/*
 * driver_plugin.c - what the drivers add to the compiler's command: the
 * plugin and the options it reads (libxprof's, from the command's
 * xprof_options: xprof_options_each), what use mode turns on, and the
 * runtime for a link of instrumented code.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "xprof_views.h"

/* Without an xprof mode, the -fprofile-list options the driver took go to
 * the compiler as the user gave them. */
static void give_back_profile_lists(struct args *a, const struct command *c) {
  for (unsigned k = 0; k < c->o.profile_lists.n; k++)
    pushf(a, "-fprofile-list=%s", c->o.profile_lists.v[k]);
}

#ifdef XPROF_FOR_CLANG
#define PLUGIN_FILE "xprof-llvm" XPROF_LLVM_MAJOR ".so"
static char *plugin_path(void) {
  static const char *const c[] = {"../llvm-pass/" PLUGIN_FILE,
                                  "../" XPROF_REL_LIBDIR "/xprof/" PLUGIN_FILE, NULL};
  return locate("XPROF_LLVM_PLUGIN", c);
}
#else
#define PLUGIN_FILE "xprof.so"
static char *plugin_path(void) {
  static const char *const c[] = {"../gcc-plugin/xprof.so",
                                  "../" XPROF_REL_LIBDIR "/xprof/xprof.so", NULL};
  return locate("XPROF_GCC_PLUGIN", c);
}
#endif

#ifndef XPROF_FOR_CLANG
/* What -fprofile-use turns on, except -fbranch-probabilities itself (the
 * plugin sets that at the right moment; see the plugin notes). */
static const char *const fdo_flags[] = {
    "-fprofile-values", "-funroll-loops", "-fpeel-loops", "-ftracer", "-fvpt",
    "-finline-functions", "-fipa-cp", "-fipa-cp-clone", "-fipa-bit-cp",
    "-fpredictive-commoning", "-fsplit-loops", "-funswitch-loops",
    "-fgcse-after-reload", "-ftree-loop-vectorize", "-ftree-slp-vectorize",
    "-fversion-loops-for-strides", "-fvect-cost-model=dynamic",
    "-ftree-loop-distribute-patterns", "-floop-interchange",
    "-floop-unroll-and-jam", "-ftree-loop-distribution",
    "-fprofile-reorder-functions", "-fno-devirtualize-speculatively", NULL};
#endif

/* The runtime as the drivers link it: one relocatable object made of the
 * archive's members (see add_runtime). */
static char *runtime_path(void) {
  static const char *const c[] = {"../runtime/xprof_rt.o",
                                  "../" XPROF_REL_LIBDIR "/xprof/xprof_rt.o", NULL};
  return locate("XPROF_RUNTIME", c);
}

/* The runtime's stand-ins that a version script can hide: the names of
 * XPROF_ABI_EXPORTS but its patterns (the runtime's own entry points,
 * which a library without them takes from its own copy). */
static void add_hidden(const char *name, const unsigned char *buf, size_t len, char *list,
                       size_t room, int *n) {
  if (strchr(name, '*') || strncmp(name, "__", 2) == 0 ||
      xprof_elf_program_exports(buf, len, name) != 0)
    return;
  size_t used = strlen(list);
  if (++*n <= 3)
    snprintf(list + used, room - used, "%s%s", *n > 1 ? ", " : "", name);
}

/* The driver's own warnings go out as the compiler's would: -w silences
 * them, -Werror makes them errors, and their names govern them. */
struct link_diag {
  const struct command *c;
  int errors;
};

static void link_emit(void *ctx, xprof_diag_kind kind, enum xprof_warning w, const char *text) {
  struct link_diag *l = ctx;
  for (int k = 0; k < l->c->n_user; k++)
    if (strcmp(l->c->user[k], "-w") == 0 && kind != XPROF_DIAG_ERROR)
      return;
  if (kind == XPROF_DIAG_WARNING && l->c->werror)
    kind = XPROF_DIAG_ERROR;
  char suffix[64];
  xprof_warning_suffix(kind, w, suffix, sizeof suffix);
  const char *prefix = "xprof: ";
  if (strncmp(text, prefix, strlen(prefix)) == 0)
    text += strlen(prefix);
  fprintf(stderr, "%s: %s: %s%s\n", me, kind == XPROF_DIAG_ERROR ? "error" : "warning", text,
          suffix);
  l->errors += kind == XPROF_DIAG_ERROR;
}

int check_runtime_exports(const struct command *c, time_t since) {
  const char *out = c->output ? c->output : "a.out";
  const unsigned char *buf;
  size_t len;
  xprof_error err;
  struct stat st;
  /* Not a file the link made (-###, -o /dev/null): nothing to say. */
  if (c->shared || c->static_link || stat(out, &st) < 0 || !S_ISREG(st.st_mode) ||
      st.st_mtime + 1 < since || xprof_map(out, &buf, &len, &err) < 0)
    return 0;
  char list[128] = "";
  int n = 0;
  if (xprof_elf_program_exports(buf, len, "pthread_create") >= 0) {
#define HIDDEN(pattern) add_hidden(pattern, buf, len, list, sizeof list, &n);
    XPROF_ABI_EXPORTS(HIDDEN)
#undef HIDDEN
  }
  xprof_unmap(buf, len);
  if (!n)
    return 0;
  struct link_diag l = {c, 0};
  xprof_diag d = {&c->o, link_emit, &l};
  xprof_warn(&d, XPROF_W_HIDDEN_RUNTIME,
             "%s: the program does not export %d functions of the xprof runtime that "
             "shared libraries must reach (%s%s), as when a version script says `local: *`: "
             "the threads that libraries start (std::thread, OpenMP) are unknown to the "
             "runtime, and with per-thread twins (the default) what they count is lost; "
             "make the names global (xprof_rt.dynlist lists them)",
             out, n, list, n > 3 ? ", ..." : "");
  if (l.errors)
    unlink(out);
  return l.errors ? 1 : 0;
}

/* A thin archive (GNU ar's T, Meson's static libraries) holds its
 * members' paths, relative to its own directory, and not their contents:
 * whether one of the members holds instrumented code.  buf: the archive,
 * len bytes. */
static int thin_archive_instrumented(const char *path, const char *buf, size_t len) {
  const char *names = NULL; /* the long names' member, "//" */
  size_t names_len = 0, pos = 8, dir_len = strrchr(path, '/') ? strrchr(path, '/') - path + 1 : 0;
  while (pos + 60 <= len) {
    const char *h = buf + pos, *name = h;
    size_t size = strtoul(h + 48, NULL, 10), n;
    pos += 60;
    if (h[0] == '/' && (h[1] == ' ' || h[1] == '/' || h[1] == 'S')) {
      /* the symbol index ("/", "/SYM64/") or the long names ("//"):
       * the only members with contents here, padded to an even size */
      if (h[1] == '/')
        names = buf + pos, names_len = size <= len - pos ? size : len - pos;
      pos += size + (size & 1);
      continue;
    }
    if (h[0] == '/') { /* "/OFFSET": a name in the long names, ended by "/\n" */
      size_t off = strtoul(h + 1, NULL, 10);
      if (!names || off >= names_len)
        continue;
      name = names + off;
      n = strcspn(name, "\n");
      n = n > names_len - off ? names_len - off : n;
    } else {
      n = strcspn(name, "/");
      n = n > 16 ? 16 : n;
    }
    while (n && (name[n - 1] == '/' || name[n - 1] == ' '))
      n--;
    char *member = NULL;
    int absolute = name[0] == '/';
    if (asprintf(&member, "%.*s%.*s", absolute ? 0 : (int)dir_len, path, (int)n, name) < 0)
      return 0;
    int found = instrumented_input(member);
    free(member);
    if (found)
      return 1;
  }
  return 0;
}

/* Does this input of a link hold code compiled with -xprofile=collect:
 * an object file or archive (ELF, or LLVM bitcode for -flto) that names
 * the runtime's registration function?  libtool drops options it does
 * not know from the commands that link shared libraries, so such a link
 * arrives here without -xprofile=collect and would leave the library's
 * calls into the runtime undefined: loadable only by an instrumented
 * program.  A byte search, not an ELF reader: the name is in the symbol
 * string table of an object file (an archive's members' among them), and
 * the string table of a bitcode file; a thin archive's members are read
 * where they are. */
int instrumented_input(const char *path) {
  static const char needle[] = XPROF_ABI_STR(XPROF_REGISTER);
  enum { CHUNK = 1 << 20, KEEP = sizeof needle - 2 };
  FILE *f = fopen(path, "rb");
  if (!f)
    return 0;
  char *buf = malloc(CHUNK + KEEP);
  size_t have = buf ? fread(buf, 1, CHUNK + KEEP, f) : 0;
  int kind_ok = have >= 18 &&
                ((memcmp(buf, "\177ELF", 4) == 0 && buf[16] == 1 && buf[17] == 0) ||
                 memcmp(buf, "!<arch>\n", 8) == 0 || memcmp(buf, "BC\300\336", 4) == 0);
  if (have >= 8 && memcmp(buf, "!<thin>\n", 8) == 0) {
    free(buf);
    fclose(f);
    unsigned char *all;
    size_t len;
    xprof_error err;
    if (xprof_slurp(path, &all, &len, &err) < 0)
      return 0;
    int found = thin_archive_instrumented(path, (const char *)all, len);
    xprof_free(all);
    return found;
  }
  int found = 0;
  while (kind_ok && have > 0 && !found) {
    found = memmem(buf, have, needle, sizeof needle - 1) != NULL;
    if (found || have < CHUNK + KEEP)
      break;
    /* The last KEEP bytes may start the name: carry them over. */
    memmove(buf, buf + have - KEEP, KEEP);
    have = KEEP + fread(buf + KEEP, 1, CHUNK, f);
    if (have == KEEP)
      break;
  }
  free(buf);
  fclose(f);
  return found;
}

/* The archive that -l NAME takes from the -L directories, looked for as
 * the linker looks (in each directory libNAME.so before libNAME.a, but in
 * a static link; -l:FILE by its name): its path, malloc'd, or NULL for a
 * shared library (which carries a runtime of its own) or nothing found
 * there (a system library). */
static char *library_archive(const struct command *c, const char *name) {
  for (int d = 0; d < c->n_lib_dirs; d++) {
    char *path = NULL;
    struct stat st;
    if (name[0] == ':') {
      if (asprintf(&path, "%s/%s", c->lib_dirs[d], name + 1) < 0)
        return NULL;
      if (stat(path, &st) == 0)
        return path;
      free(path);
      continue;
    }
    if (!c->static_link) {
      if (asprintf(&path, "%s/lib%s.so", c->lib_dirs[d], name) < 0)
        return NULL;
      int shared = stat(path, &st) == 0;
      free(path);
      if (shared)
        return NULL;
    }
    if (asprintf(&path, "%s/lib%s.a", c->lib_dirs[d], name) < 0)
      return NULL;
    if (stat(path, &st) == 0)
      return path;
    free(path);
  }
  return NULL;
}

int instrumented_library(const struct command *c, const char *name) {
  char *path = library_archive(c, name);
  int found = path && instrumented_input(path);
  free(path);
  return found;
}

/* Does the command write its object somewhere that is no file (-o
 * /dev/null, as build systems probe flags)?  Then no coverage table: GCC
 * would name it after the source, in the working directory. */
static int output_is_no_file(const struct command *c) {
  struct stat st;
  return c->output && stat(c->output, &st) == 0 && !S_ISREG(st.st_mode);
}

/* -xprofile=tcov:NAME: the compilers put the coverage tables into the
 * profile directory, NAME.profile/tcov, as Sun's compilers make the
 * profile directory at compile time (malloc'd; NULL without a NAME). */
static char *tcov_dir(const struct command *c) {
  if (!c->o.profile_name)
    return NULL;
  char *dir = xprof_profile_dir_name(c->o.profile_name), *out;
  if (!dir || asprintf(&out, "%s/tcov", dir) < 0)
    exit(die("%s", "out of memory"));
  xprof_free(dir);
  return out;
}

/* What the driver itself sets of the options: where the coverage tables
 * go, the per-thread copies that sanitizers need, the command's output and
 * link (clang's plugin cannot see them), its prefix maps. */
/* Before a use build compiles: each profile's line profile, made again
 * when older than its data (xprof_lines_refresh), while the objects and
 * program of the training build that it comes from are still there.  A
 * profile directory the build may not write in keeps what it has (said
 * with -xprofile_verbose). */
static void refresh_lines(const struct command *c) {
  for (unsigned i = 0; i < c->o.use_names.n; i++) {
    char *dir = xprof_use_profile_name(c->o.use_names.v[i]);
    xprof_error err;
    if (dir && xprof_lines_refresh(dir, NULL, &err) < 0 && c->o.verbose)
      die("note: the profile's lines were not made again: %s", err.msg);
    xprof_free(dir);
  }
}

static void driver_settings(struct command *c) {
  xprof_options *o = &c->o;
  xprof_error err;
  if (o->mode == XPROF_MODE_COLLECT) {
    char *dir = o->tcov ? tcov_dir(c) : NULL;
    if (output_is_no_file(c))
      xprof_options_set(o, "no-coverage-table", NULL, XPROF_OPT_BOTH, &err);
    else if (dir)
      xprof_options_set(o, "tcov-dir", dir, XPROF_OPT_BOTH, &err);
    free(dir);
    if (c->sanitizers && !c->tls_given)
      o->tls_counters = 0;
  } else {
    o->update = XPROF_UPDATE_THREAD; /* use builds count nothing */
    o->tls_counters = 1;
    if (c->sources)
      refresh_lines(c);
  }
#ifdef XPROF_FOR_CLANG
  for (int k = 0; k < c->n_prefix_maps; k++)
    xprof_options_set(o, "prefix-map", c->prefix_maps[k], XPROF_OPT_LLVM, &err);
  if (c->output)
    xprof_options_set(o, "output", c->output, XPROF_OPT_LLVM, &err);
  o->link = c->link;
  o->lto = c->lto && o->mode == XPROF_MODE_USE; /* promotions the link can inline */
  /* Under -Werror, a warning the user kept a warning (-Wno-error=NAME):
   * clang's -Werror would make the plugin's warnings errors, so they are
   * not, and the plugin makes the others errors itself. */
  int keep = 0;
  for (unsigned w = 0; w < XPROF_N_WARNINGS; w++)
    keep |= o->warning[w] == XPROF_WARN_NO_ERROR;
  for (unsigned w = 0; c->werror && keep && w < XPROF_N_WARNINGS; w++)
    if (o->warning[w] == XPROF_WARN_DEFAULT || o->warning[w] == XPROF_WARN_ON)
      o->warning[w] = XPROF_WARN_ERROR;
#endif
}

#ifdef XPROF_FOR_CLANG
/* May clang's splitting of machine functions be asked for here?  Before
 * LLVM 20 it can lose a landing pad: one that begins the cold part of a
 * function (after nothing, LLVM 14; after blocks that emit no code, up to
 * LLVM 19) gets offset 0 from the part's start in the exception table,
 * which means "no landing pad", and the unwinder goes past it -- a catch
 * that does not catch (std::terminate) or a destructor that does not run.
 * Landing pads that never ran in training are what the splitter moves, so
 * only compilations without them get it: C and Objective-C without
 * -fexceptions, C++ with -fno-exceptions. */
static int split_keeps_landing_pads(const struct command *c) {
  if (atoi(XPROF_LLVM_MAJOR) >= 20)
    return 1;
  return c->exceptions == 0 || (c->exceptions < 0 && !c->cxx);
}

/* An option of the LLVM plugin.  -Xclang -mllvm reaches only the
 * compiler's own jobs (clang -cc1), which load the plugin (-fplugin); a
 * plain -mllvm would reach the integrated assembler of a .S file (and
 * every job of -save-temps), which does not load it and stops at the
 * option it does not know. */
static void plugin_option(void *ctx, const char *name, const char *value) {
  struct args *a = ctx;
  push(a, "-Xclang");
  push(a, "-mllvm");
  push(a, "-Xclang");
  char *arg;
  if (asprintf(&arg, "-%s%s%s%s", strcmp(name, "xprofile") ? "xprof-" : "", name,
               value ? "=" : "", value ? value : "") < 0)
    exit(die("%s", "out of memory"));
  push(a, arg);
}

/* The LLVM plugin and its options: only for commands that compile (an
 * LTO link would hand them to the linker). */
int add_plugin(struct args *a, struct command *c) {
  int use = c->o.mode == XPROF_MODE_USE;
  if (use && c->partition && c->sources) {
    int on = c->partition[2] == 'r';
    if (!on || split_keeps_landing_pads(c))
      push(a, on ? "-fsplit-machine-functions" : "-fno-split-machine-functions");
    /* LLVM's splitter leaves alone a function with a section of its own,
     * which the plugin gives hot functions for -xprofile_order: the
     * compiler's -ffunction-sections gives every function one instead,
     * and the split parts theirs (.text.split.NAME). */
    if (on && c->o.order) {
      push(a, "-ffunction-sections");
      c->o.function_sections = 1;
    }
  }
  if (c->o.mode == XPROF_MODE_NONE && c->partition)
    push(a, c->partition); /* as the user gave it: no xprof, no change */
  if (c->o.mode == XPROF_MODE_NONE && c->profile_values)
    push(a, c->profile_values);
  if (c->o.mode == XPROF_MODE_NONE)
    give_back_profile_lists(a, c);
  if (c->o.mode == XPROF_MODE_NONE || !c->sources)
    return 0;
  char *plugin = plugin_path();
  if (!plugin)
    return die("%s", "cannot find the xprof LLVM plugin (" PLUGIN_FILE
                     ") next to this driver; set XPROF_LLVM_PLUGIN");
  pushf(a, "-fplugin=%s", plugin);
  pushf(a, "-fpass-plugin=%s", plugin);
  /* The plugin's verbose notes are clang's remarks of plugins. */
  if (c->o.verbose)
    push(a, "-Rremark-backend-plugin");
  /* Line numbers: clang keeps them in the IR only with debug info, or
   * when remarks are asked for, which track locations without emitting
   * any debug information (the code is the same).  Asking for the
   * remarks of a pass that does not exist gives a collect build the
   * lines of its coverage tables and the profile's line profile
   * (xprof_lines_refresh), and a use build those of its match by source
   * line.  The user's own -g or -Rpass (after this) stands. */
  if (!c->debug_given && c->o.mode == XPROF_MODE_COLLECT && c->o.tcov)
    push(a, "-gline-tables-only");
  else if (!c->debug_given)
    push(a, "-Rpass=^xprof-track-locations$");
  if (c->werror) {
    for (unsigned w = 0; w < XPROF_N_WARNINGS; w++)
      if (c->o.warning[w] == XPROF_WARN_NO_ERROR) {
        push(a, "-Wno-error=backend-plugin");
        break;
      }
  }
  /* GCC's -f[no-]profile-values, which clang ignores. */
  if (c->profile_values)
    xprof_options_profile_values(&c->o, c->profile_values[2] != 'n');
  driver_settings(c);
  xprof_options_each(&c->o, XPROF_OPT_LLVM, plugin_option, a);
  return 0;
}
#else
/* GCC hands a plugin argument's value over only up to a second '=' (a
 * profile named "run=2", a path with '=' in it): '=' and '%' go as %3D
 * and %25 in every value the driver passes (malloc'd; the plugin decodes
 * them all). */
static char *plugin_arg_encode(const char *v) {
  char *out = malloc(3 * strlen(v) + 1), *o = out;
  if (!out)
    exit(die("%s", "out of memory"));
  for (; *v; v++)
    if (*v == '=' || *v == '%')
      o += sprintf(o, "%%%02X", (unsigned char)*v);
    else
      *o++ = *v;
  *o = 0;
  return out;
}

static void plugin_arg(void *ctx, const char *name, const char *value) {
  struct args *a = ctx;
  char *arg, *v = value ? plugin_arg_encode(value) : NULL;
  if (asprintf(&arg, "-fplugin-arg-xprof-%s%s%s", name, v ? "=" : "", v ? v : "") < 0)
    exit(die("%s", "out of memory"));
  free(v);
  push(a, arg);
}

/* The GCC plugin and its arguments; in use mode what -fprofile-use turns
 * on, before the user's options so that theirs win. */
int add_plugin(struct args *a, struct command *c) {
  if (c->o.mode == XPROF_MODE_NONE) {
    give_back_profile_lists(a, c);
    return 0;
  }
  char *plugin = plugin_path();
  if (!plugin)
    return die("%s", "cannot find the xprof GCC plugin (xprof.so) next to "
                     "this driver; set XPROF_GCC_PLUGIN");
  pushf(a, "-fplugin=%s", plugin);
  driver_settings(c);
  xprof_options_each(&c->o, XPROF_OPT_GCC, plugin_arg, a);
  if (c->o.mode == XPROF_MODE_USE) {
    for (const char *const *f = fdo_flags; *f; f++)
      push(a, *f);
    /* So that the plugin can tell them from the user's (partial training
     * gives untrained functions the plain build's options). */
    plugin_arg(a, "use-flags-added", NULL);
  }
  return 0;
}
#endif

/* The runtime, for a link of instrumented code. */
int add_runtime(struct args *a, const struct command *c) {
  char *rt = runtime_path();
  if (!rt)
    return die("%s", "cannot find the xprof runtime (xprof_rt.o) next "
                     "to this driver; set XPROF_RUNTIME");
  /* As linker options, not as an input: an extra input would change the
   * names cc1 derives the object file's path from (-dumpdir).  An object,
   * not an archive: -Wl,--exclude-libs,ALL (common in the links of shared
   * libraries, and of programs that link static libraries) hides every
   * symbol that comes from an archive, and with the runtime's stand-ins
   * hidden, the threads that libraries start (std::thread, OpenMP) went
   * uncounted.  XPROF_RUNTIME may still name the archive. */
  size_t len = strlen(rt);
  int archive = len > 2 && strcmp(rt + len - 2, ".a") == 0;
  static const char *const whole[] = {"--push-state", "--whole-archive", NULL, "--pop-state"};
  for (size_t k = 0; k < sizeof whole / sizeof *whole; k++)
    if (archive || !whole[k]) {
      push(a, "-Xlinker");
      push(a, whole[k] ? whole[k] : rt);
    }
  /* One runtime per process: a program exports its runtime's entry
   * points, so that instrumented libraries, dlopen'ed ones too, register
   * with it rather than with their own copies; and what else the ABI
   * lists (the compilers' dump calls, pthread_create). */
#define EXPORT(pattern)                                                                     \
  push(a, "-Xlinker");                                                                      \
  pushf(a, "--export-dynamic-symbol=%s", pattern);
  XPROF_ABI_EXPORTS(EXPORT)
#undef EXPORT
  /* A static link has no dynamic symbol table to find the C library's
   * functions in (pthread_create, exec, signal, timers: the runtime's
   * stand in front of them) or its quick_exit registration: they are linked under
   * their own names. */
  if (c->static_link) {
    static const char *const libc_names[] = {"__pthread_create_2_1", "__cxa_at_quick_exit",
                                             "__execve", "__execvpe", "__bsd_signal",
                                             "___timer_create", "__mq_notify",
                                             "__sigwait", "__sigtimedwait"};
    for (size_t k = 0; k < sizeof libc_names / sizeof *libc_names; k++) {
      push(a, "-Xlinker");
      pushf(a, "--undefined=%s", libc_names[k]);
    }
    push(a, "-Xlinker");
    push(a, "--defsym=" XPROF_ABI_STR(XPROF_QUICK_REGISTER) "=__cxa_at_quick_exit");
  }
  push(a, "-lpthread");
  push(a, "-ldl");
  return 0;
}

