/*
 * driver_command.c - the user's command as the drivers read it: xprof's
 * own options (the -xprofile family, read by libxprof's option parser,
 * which the plugins read theirs with too) and what the compiler's
 * arguments say of the command -- whether it links, its sources, its
 * output, the compiler's own profiling options.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "driver.h"

/* What -x LANG makes the inputs after it: sources that the compiler proper
 * compiles (and the plugin sees), C++ ones among them, or not sources
 * (assembler, and "none", which goes back to the file names). */
enum { X_LANG_NONE = 0, X_LANG_SOURCE = 1, X_LANG_CXX = 2 };
static int compiled_language(const char *lang) {
  if (strcmp(lang, "none") == 0 || strncmp(lang, "assembler", 9) == 0)
    return X_LANG_NONE;
  return strstr(lang, "c++") ? X_LANG_CXX : X_LANG_SOURCE;
}

/* What the compiler takes an input for by its name: a source (a C++ or
 * Objective-C++ one among them), or not (X_LANG_NONE: objects, archives,
 * assembler, options). */
static int source_language(const char *a) {
  static const struct {
    const char *ext;
    int lang;
  } ext[] = {{".c", X_LANG_SOURCE},  {".i", X_LANG_SOURCE},  {".m", X_LANG_SOURCE},
             {".ll", X_LANG_SOURCE}, {".bc", X_LANG_SOURCE}, {".cc", X_LANG_CXX},
             {".cp", X_LANG_CXX},    {".cpp", X_LANG_CXX},   {".cxx", X_LANG_CXX},
             {".c++", X_LANG_CXX},   {".C", X_LANG_CXX},     {".ii", X_LANG_CXX},
             {".mm", X_LANG_CXX}};
  const char *dot = strrchr(a, '.');
  if (!dot || a[0] == '-')
    return X_LANG_NONE;
  for (size_t k = 0; k < sizeof ext / sizeof *ext; k++)
    if (strcmp(dot, ext[k].ext) == 0)
      return ext[k].lang;
  return X_LANG_NONE;
}

/* Options whose value is the next argument (so it is not an input). */
static int takes_value(const char *a) {
  static const char *const opts[] = {
      "-o", "-I", "-D", "-U", "-include", "-imacros", "-iquote", "-isystem",
      "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
      "-isysroot", "-MF", "-MT", "-MQ", "-x", "-Xlinker", "-Xassembler",
      "-Xpreprocessor", "-Xclang", "-L", "-l", "-T", "-u", "-e", "-z",
      "--param", "-aux-info", "-dumpbase", "-dumpdir", "-mllvm", "-target",
      "--target", "-arch", NULL};
  for (const char *const *o = opts; *o; o++)
    if (strcmp(a, *o) == 0)
      return 1;
  return 0;
}

/* Is the argument one of the compiler's own profiling options (GCC's and
 * clang's instrumentation, coverage and profile feedback)?  Beside an
 * -xprofile option it changes the code that xprof counts or sets counts
 * on, so that every procedure's profile mismatches in the other build,
 * or a second profile sets the same counts.  Negations and modifiers
 * (-fno-profile-use, -fprofile-update=, -fprofile-dir=) are not. */
static int native_profiling(const char *a) {
  static const char *const options[] = {
      "-fprofile-generate", "-fprofile-use", "-fprofile-instr-generate",
      "-fprofile-instr-use", "-fcs-profile-generate", "-fprofile-sample-use",
      "-fauto-profile", "-fprofile-arcs", "-fbranch-probabilities",
      "--coverage", "-coverage", NULL};
  for (int k = 0; options[k]; k++) {
    size_t n = strlen(options[k]);
    if (strncmp(a, options[k], n) == 0 && (a[n] == 0 || a[n] == '='))
      return 1;
  }
  return 0;
}

/* Is a one of -fpic, -fPIC, -fpie, -fPIE or their -fno- forms? */
static int code_model_option(const char *a) {
  if (strncmp(a, "-f", 2) != 0)
    return 0;
  a += strncmp(a, "-fno-", 5) == 0 ? 5 : 2;
  return strcasecmp(a, "pic") == 0 || strcasecmp(a, "pie") == 0;
}

/* Does option a (followed by next, or NULL) ask for a partial link: -r,
 * or the linker's -r, --relocatable or -i through -Wl, or -Xlinker? */
static int relocatable_option(const char *a, const char *next) {
  static const char *const linker[] = {"-r", "--relocatable", "-i", NULL};
  if (strcmp(a, "-r") == 0)
    return 1;
  if (strcmp(a, "-Xlinker") == 0 && next)
    a = next;
  else if (strncmp(a, "-Wl,", 4) == 0)
    a += 3; /* at the comma before the first */
  else
    return 0;
  for (const char *p = a; p; p = strchr(p + 1, ',')) {
    const char *item = *p == ',' ? p + 1 : p;
    size_t n = strcspn(item, ",");
    for (int k = 0; linker[k]; k++)
      if (n == strlen(linker[k]) && strncmp(item, linker[k], n) == 0)
        return 1;
  }
  return 0;
}

/* One of the -xprofile family: -xprofile=MODE[:NAME] and the options
 * named -xprofile_NAME=VALUE, as libxprof's options of those names;
 * 0, or 1 after saying why the option is wrong. */
static int xprofile_option(struct command *c, const char *a) {
  static const struct {
    const char *spelling, *name;
  } options[] = {{"-xprofile=", "xprofile"},
                 {"-xprofile_pathmap=", "pathmap"},
                 {"-xprofile_prefix_map=", "object-prefix-map"},
                 {"-xprofile_update=", "update"},
                 {"-xprofile_salvage=", "salvage"},
                 {"-xprofile_order=", "order"}};
  if (strcmp(a, "-xprofile_order") == 0)
    a = "-xprofile_order=yes";
  for (size_t k = 0; k < sizeof options / sizeof *options; k++) {
    size_t n = strlen(options[k].spelling);
    if (strncmp(a, options[k].spelling, n) != 0)
      continue;
    xprof_error err;
    if (xprof_options_set(&c->o, options[k].name, a + n, XPROF_OPT_BOTH, &err) < 0) {
      fprintf(stderr, "%s: %s: %s\n", me, a, err.msg);
      return 1;
    }
    c->update_given |= strcmp(options[k].name, "update") == 0;
    return 0;
  }
  return die("unknown option %s: expected -xprofile=collect[:NAME], -xprofile=tcov[:NAME], "
             "-xprofile=use[:NAME], -xprofile_pathmap=OLD:NEW, -xprofile_prefix_map=OLD=NEW, "
             "-xprofile_update=MODE, -xprofile_salvage=PERCENT|no or "
             "-xprofile_order[=yes|no]",
             a);
}

#ifdef XPROF_FOR_CLANG
/* An option of the LLVM plugin the user gave (-mllvm -xprof-NAME[=V] or
 * -mllvm -xprofile=MODE): read into the options, which the driver hands
 * on once, with its own; 0, or 1 after saying why it is wrong. */
static int plugin_option(struct command *c, const char *a) {
  const char *name = strncmp(a, "-xprofile", 9) == 0 ? a + 1 : a + 7;
  const char *eq = strchr(name, '=');
  char *key = eq ? strndup(name, (size_t)(eq - name)) : strdup(name);
  xprof_error err;
  int rc = key ? xprof_options_set(&c->o, key, eq ? eq + 1 : NULL, XPROF_OPT_LLVM, &err) : -1;
  if (key && strstr(key, "tls-counters"))
    c->tls_given = 1;
  if (rc < 0)
    fprintf(stderr, "%s: -mllvm %s: %s\n", me, a, key ? err.msg : "out of memory");
  free(key);
  return rc < 0;
}

/* clang's own options that the driver takes: GCC's hot/cold partitioning,
 * which clang does not know (and refuses) -- in use mode clang's own from
 * profile data, -fsplit-machine-functions (add_plugin); GCC's
 * -f[no-]profile-values, which clang ignores (add_plugin), and its
 * options of which files are profiled and how they are named; and GCC's
 * spellings of what the plugin does, as its options.  1 when a was one,
 * -1 after saying why it is wrong. */
static int clang_switch(struct command *c, const char *a) {
  if (strcmp(a, "-freorder-blocks-and-partition") == 0 ||
      strcmp(a, "-fno-reorder-blocks-and-partition") == 0) {
    c->partition = a;
    return 1;
  }
  if (strcmp(a, "-fprofile-values") == 0 || strcmp(a, "-fno-profile-values") == 0) {
    c->profile_values = a;
    return 1;
  }
  /* GCC's options of which files are profiled and how they are named,
   * which the GCC plugin reads itself. */
  const char *eq = strncmp(a, "-fprofile-", 10) == 0 ? strchr(a, '=') : NULL;
  if (eq) {
    char name[64];
    xprof_error err;
    snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
    int rc = (size_t)(eq - a) < sizeof name ? xprof_options_gcc_files(&c->o, name, eq + 1, &err)
                                             : 0;
    if (rc < 0)
      fprintf(stderr, "%s: %s: %s\n", me, a, err.msg);
    if (rc != 0)
      return rc;
  }
  static const struct {
    const char *gcc;
    size_t offset;
  } switches[] = {
      {"profile-partial-training", offsetof(xprof_options, partial_training)},
      {"vpt", offsetof(xprof_options, specialize)},
      {"profile-reorder-functions", offsetof(xprof_options, reorder_functions)},
  };
  int off = strncmp(a, "-fno-", 5) == 0;
  for (size_t k = 0; k < sizeof switches / sizeof *switches; k++)
    if (strncmp(a, "-f", 2) == 0 && strcmp(a + (off ? 5 : 2), switches[k].gcc) == 0) {
      *(int *)((char *)&c->o + switches[k].offset) = !off;
      return 1;
    }
  return 0;
}
#endif

/* A -W option of an xprof warning: taken when the compiler does not know
 * the name (xprof's own names; GCC's with clang), handed on to the
 * compiler when it does (GCC's names with GCC, clang's with clang).
 * 1 when taken. */
static int warning_option(struct command *c, const char *a) {
  enum xprof_warning w;
  int clang_name;
  if (strcmp(a, "-Werror") == 0)
    c->werror = 1;
  if (!xprof_options_warning_flag(&c->o, a, &w, &clang_name))
    return 0;
#ifdef XPROF_FOR_CLANG
  return !clang_name;
#else
  /* GCC's diagnostics govern its own names, which the plugin uses. */
  int native = !clang_name && (w == XPROF_W_MISSING_PROFILE || w == XPROF_W_COVERAGE_MISMATCH);
  if (native)
    c->o.warning[w] = XPROF_WARN_DEFAULT;
  return !native;
#endif
}

/* The driver's own options: returns 1 when argv[*i] was one (with *i
 * moved past its value), 0 when it goes to the compiler, -1 after saying
 * why it is wrong. */
static int driver_option(struct command *c, char **argv, int argc, int *i) {
  const char *a = argv[*i];
  /* --xprofile...: the same options in a spelling that compiler caches
   * pass on (ccache reads -xprofile=... as -x LANGUAGE and gives up). */
  if (strncmp(a, "--xprofile", 10) == 0)
    a++;
  else if (strncmp(a, "-xprofile", 9) == 0)
    c->one_dash = 1;
  if (strncmp(a, "-xprofile", 9) == 0)
    return xprofile_option(c, a) ? -1 : 1;
  if (warning_option(c, a))
    return 1;
  /* clang's list of what to profile, for both compilers (add_plugin hands
   * it back to the compiler when there is no xprof mode). */
  if (strncmp(a, "-fprofile-list=", 15) == 0) {
    xprof_error err;
    if (xprof_options_set(&c->o, "profile-list", a + 15, XPROF_OPT_BOTH, &err) == 0)
      return 1;
    fprintf(stderr, "%s: %s: %s\n", me, a, err.msg);
    return -1;
  }
#ifdef XPROF_FOR_CLANG
  if (strcmp(a, "-mllvm") == 0 && *i + 1 < argc && strncmp(argv[*i + 1], "-xprof", 6) == 0)
    return plugin_option(c, argv[++*i]) ? -1 : 1;
  return clang_switch(c, a);
#else
  (void)argc;
  return 0;
#endif
}

/* The sanitizers of a -fsanitize= or -fno-sanitize= list whose runtime
 * defines pthread_create (its interceptor), one bit each.  Linked into the
 * executable (clang's always, GCC's with -static-libasan and the like),
 * it starts the program's threads without the xprof runtime's wrapper,
 * and what those threads count in per-thread twins would be lost:
 * compilations that ask for one get per-thread copies instead, which each
 * thread finds for itself (add_plugin; docs/runtime.md). */
static unsigned thread_sanitizers(const char *list) {
  static const char *const names[] = {"address", "thread", "memory", "leak", "hwaddress"};
  unsigned bits = 0;
  for (const char *p = list; *p;) {
    size_t n = strcspn(p, ",");
    if (n == 3 && strncmp(p, "all", 3) == 0)
      bits = ~0u;
    for (unsigned k = 0; k < sizeof names / sizeof *names; k++)
      if (strlen(names[k]) == n && strncmp(p, names[k], n) == 0)
        bits |= 1u << k;
    p += n + (p[n] == ',');
  }
  return bits;
}

/* The option that makes the compiler build for an ABI other than
 * x86-64's (-m32, -mx32, -m16; clang: --target= another machine), a NULL
 * for one that makes it x86-64 again (-m64), else `abi`, the one before.
 * The runtime is built for x86-64 only. */
static const char *abi_option(const char *a, const char *next, const char *abi) {
  if (strcmp(a, "-m32") == 0 || strcmp(a, "-mx32") == 0 || strcmp(a, "-m16") == 0)
    return a;
  if (strcmp(a, "-m64") == 0)
    return NULL;
#ifdef XPROF_FOR_CLANG
  const char *t = strncmp(a, "--target=", 9) == 0 ? a + 9
                  : (strcmp(a, "-target") == 0 || strcmp(a, "--target") == 0) ? next
                                                                               : NULL;
  if (t)
    return strncmp(t, "x86_64", 6) == 0 && !strstr(t, "gnux32") ? NULL : a;
#else
  (void)next;
#endif
  return abi;
}

#ifdef XPROF_FOR_CLANG
/* clang 14's -flegacy-pass-manager (also through -Xclang, a then being
 * -Xclang and next its value) runs no pass plugins, and xprof's pass is
 * one: the option, or NULL after one that turns it off again; `before`
 * otherwise. */
static const char *legacy_pass_manager(const char *a, const char *next, const char *before) {
  if (strcmp(a, "-Xclang") == 0 && next)
    a = next;
  if (strcmp(a, "-flegacy-pass-manager") == 0)
    return a;
  if (strcmp(a, "-fno-legacy-pass-manager") == 0 ||
      strcmp(a, "-fexperimental-new-pass-manager") == 0)
    return NULL;
  return before;
}
#endif

/* Note what a compiler argument says about the command: whether it links,
 * its inputs and sources, its output.  *x_lang: after -x LANG (not none)
 * every input is a source. */
static void compiler_argument(struct command *c, char **argv, int argc, int *i,
                              int *x_lang) {
  const char *a = argv[*i];
  if (!c->native && native_profiling(a))
    c->native = a;
  c->other_abi = abi_option(a, *i + 1 < argc ? argv[*i + 1] : NULL, c->other_abi);
#ifdef XPROF_FOR_CLANG
  c->legacy_pm = legacy_pass_manager(a, *i + 1 < argc ? argv[*i + 1] : NULL, c->legacy_pm);
#endif
  if (strncmp(a, "-g", 2) == 0 && strncmp(a, "-gz", 3) != 0)
    c->debug_given = 1;
  /* The object paths a profile records and looks up are mapped as the
   * compiler maps its own profiles' paths (see xprof_remap_prefix). */
  if (strncmp(a, "-ffile-prefix-map=", 18) == 0)
    c->prefix_maps[c->n_prefix_maps++] = a + 18;
  else if (strncmp(a, "-fprofile-prefix-map=", 21) == 0) {
    c->prefix_maps[c->n_prefix_maps++] = a + 21;
#ifdef XPROF_FOR_CLANG
    return; /* GCC's option, which clang does not know: the plugin's only */
#endif
  }
  /* GCC's and clang's own spelling picks the update of xprof's counters
   * too (and goes on to the compiler, which accepts it). */
  if (strncmp(a, "-fprofile-update=", 17) == 0)
    c->native_update = strcmp(a + 17, "single") == 0 ? "single" : "atomic";
  if (strncmp(a, "-fsanitize=", 11) == 0)
    c->sanitizers |= thread_sanitizers(a + 11);
  else if (strncmp(a, "-fno-sanitize=", 14) == 0)
    c->sanitizers &= ~thread_sanitizers(a + 14);
  c->user[c->n_user++] = a;
  if (strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0 || strcmp(a, "-E") == 0 ||
      strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0 ||
      strcmp(a, "-fsyntax-only") == 0)
    c->link = 0;
  if (strcmp(a, "-E") == 0)
    c->preprocess = 1;
  if (strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0)
    c->make_deps = 1;
  if (strcmp(a, "-MF") == 0 && *i + 1 < argc)
    c->depfile = argv[*i + 1];
  if (strcmp(a, "-o") == 0 && *i + 1 < argc)
    c->output = argv[*i + 1];
  if (strcmp(a, "-shared") == 0)
    c->shared = 1;
  if (relocatable_option(a, *i + 1 < argc ? argv[*i + 1] : NULL))
    c->relocatable = 1;
  if (code_model_option(a))
    c->pic_given = 1;
  if (strcmp(a, "-flto") == 0 || strncmp(a, "-flto=", 6) == 0)
    c->lto = 1;
  else if (strcmp(a, "-fno-lto") == 0)
    c->lto = 0;
  if (strcmp(a, "-static") == 0 || strcmp(a, "--static") == 0 ||
      strcmp(a, "-static-pie") == 0)
    c->static_link = 1;
  if (strcmp(a, "-x") == 0 && *i + 1 < argc)
    *x_lang = compiled_language(argv[*i + 1]);
  else if (strncmp(a, "-x", 2) == 0 && a[2])
    *x_lang = compiled_language(a + 2);
  if (takes_value(a) && *i + 1 < argc) {
    if (strcmp(a, "-l") == 0) { /* a library is an input of the link */
      c->inputs++;
      c->libs[c->n_libs++] = argv[*i + 1];
    } else if (strcmp(a, "-L") == 0) {
      c->lib_dirs[c->n_lib_dirs++] = argv[*i + 1];
    }
    c->user[c->n_user++] = argv[++*i];
    return;
  }
  if (strncmp(a, "-l", 2) == 0)
    c->libs[c->n_libs++] = a + 2;
  else if (strncmp(a, "-L", 2) == 0)
    c->lib_dirs[c->n_lib_dirs++] = a + 2;
  int input = a[0] != '-' || strcmp(a, "-") == 0;
  if (input || strncmp(a, "-l", 2) == 0)
    c->inputs++;
  int lang = input ? (*x_lang ? *x_lang : source_language(a)) : X_LANG_NONE;
  int source = lang != X_LANG_NONE;
  c->sources += source;
#ifdef XPROF_FOR_CLANG
  if (strcmp(a, "-fexceptions") == 0 || strcmp(a, "-fno-exceptions") == 0)
    c->exceptions = a[2] == 'e';
  if (lang == X_LANG_CXX)
    c->cxx = 1;
#endif
  if (source && !c->source)
    c->source = a;
  if (a[0] != '-' && !source)
    c->objects[c->n_objects++] = a;
}

/* Say that `option` cannot go with the command's -xprofile mode, and why;
 * returns 1. */
static int refuse(const struct command *c, const char *option, const char *why) {
  const char *mode = c->o.mode == XPROF_MODE_USE ? "use" : c->o.tcov ? "tcov" : "collect";
  fprintf(stderr, "%s: %s cannot be combined with -xprofile=%s: %s\n", me, option, mode, why);
  return 1;
}

/* The options that cannot go with the command's -xprofile mode: 1 after
 * saying which and why, else 0. */
static int refused_combination(const struct command *c) {
  int use = c->o.mode == XPROF_MODE_USE;
  if (c->o.mode == XPROF_MODE_NONE)
    return 0;
  if (c->native)
    return refuse(c, c->native,
                  use ? "the compiler's own profiling changes the code that xprof optimizes, "
                        "and the profile would not match the other build; use one or the other"
                      : "the compiler's own profiling changes the code that xprof counts, and "
                        "the profile would not match the other build; use one or the other");
  /* Without xprof's pass a collect build would count nothing and a use
   * build use nothing, without a word. */
  if (c->legacy_pm)
    return refuse(c, c->legacy_pm,
                  use ? "LLVM's legacy pass manager runs no pass plugins, and xprof's pass is "
                        "one (the program would be built without the profile); drop the option"
                      : "LLVM's legacy pass manager runs no pass plugins, and xprof's pass is "
                        "one (the program would count nothing); drop the option");
  /* A use build takes a profile whatever the ABI (its functions are
   * matched by name and shape, else by line); a collect build compiles
   * for any (the plugins count in GIMPLE or IR there), but its link needs
   * the runtime, which exists for x86-64 alone. */
  if (c->other_abi && !use && c->link)
    return refuse(c, c->other_abi,
                  "xprof's runtime is built for x86-64 only, and the program could not be "
                  "linked with it; train an x86-64 build of the program (-m64), whose "
                  "profile -xprofile=use takes for this one");
  return 0;
}

/* Read the command line into c; returns 0, or 1 after saying why not. */
int parse_command(struct command *c, int argc, char **argv) {
  memset(c, 0, sizeof *c);
  xprof_options_init(&c->o);
  c->link = 1;
  c->prefix_maps = calloc((size_t)argc, sizeof *c->prefix_maps);
  c->user = calloc((size_t)argc, sizeof *c->user);
  c->objects = calloc((size_t)argc, sizeof *c->objects);
  c->lib_dirs = calloc((size_t)argc, sizeof *c->lib_dirs);
  c->libs = calloc((size_t)argc, sizeof *c->libs);
  if (!c->prefix_maps || !c->user || !c->objects || !c->lib_dirs || !c->libs)
    return die("%s", "out of memory");
  int x_lang = 0;
#ifdef XPROF_FOR_CLANG
  c->exceptions = -1;
  c->cxx = strstr(XPROF_DRIVER_NAME, "++") != NULL; /* as clang++ compiles .c */
#endif
  for (int i = 1; i < argc; i++) {
    int own = driver_option(c, argv, argc, &i);
    if (own < 0)
      return 1;
    if (!own)
      compiler_argument(c, argv, argc, &i, &x_lang);
  }
  if (!c->update_given && c->native_update) {
    xprof_error err;
    xprof_options_set(&c->o, "update", c->native_update, XPROF_OPT_BOTH, &err);
  }
  if (refused_combination(c))
    return 1;
  /* Default profile of use mode: the program this command links, else
   * a.out (libxprof's default). */
  xprof_error err;
  if (c->o.mode == XPROF_MODE_USE && c->o.use_names.n == 0 && c->link && c->output) {
    char *v = NULL;
    if (asprintf(&v, "use:%s", c->output) < 0 ||
        xprof_options_set(&c->o, "xprofile", v, XPROF_OPT_BOTH, &err) < 0)
      return die("%s", v ? err.msg : "out of memory");
    free(v);
  }
  if (c->o.mode != XPROF_MODE_NONE && xprof_options_finish(&c->o, &err) < 0)
    return die("%s", err.msg);
  return 0;
}
