/*
 * xprof-cc.c - the compiler drivers xprof-gcc, xprof-g++ (and their clang
 * twins): Sun Studio's -xprofile options on top of an ordinary compiler.
 *
 *   xprof-gcc -xprofile=collect[:NAME] ...   instrument (and link the runtime)
 *   xprof-gcc -xprofile=use[:NAME] ...       optimize with NAME.profile
 *   xprof-gcc -xprofile_pathmap=OLD:NEW ...  (use) object paths moved
 *   xprof-gcc -xprofile_update=MODE ...      (collect) thread, atomic, single
 *
 * Every other argument goes to the compiler unchanged, so CC=xprof-gcc
 * works with configure scripts and CMake.  The compiler, plugin and
 * runtime are found next to this program (build tree or installation);
 * XPROF_CC (XPROF_CXX for the C++ drivers), XPROF_GCC_PLUGIN and
 * XPROF_RUNTIME override them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef XPROF_DRIVER_NAME
#define XPROF_DRIVER_NAME "xprof-gcc"
#endif
#ifndef XPROF_COMPILER
#define XPROF_COMPILER "gcc"
#endif
#ifndef XPROF_REL_LIBDIR
#define XPROF_REL_LIBDIR "lib"
#endif

static const char *me = XPROF_DRIVER_NAME;

static int die(const char *fmt, const char *arg) {
  fprintf(stderr, "%s: ", me);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return 1;
}

static char self_dir[PATH_MAX];

static void find_self(void) {
  ssize_t n = readlink("/proc/self/exe", self_dir, sizeof self_dir - 1);
  if (n <= 0) {
    strcpy(self_dir, ".");
    return;
  }
  self_dir[n] = 0;
  char *slash = strrchr(self_dir, '/');
  if (slash)
    *slash = 0;
}

/* First existing path among self_dir/candidates; NULL if none. */
static char *locate(const char *env, const char *const *candidates) {
  const char *e = getenv(env);
  if (e && *e)
    return strdup(e);
  for (const char *const *c = candidates; *c; c++) {
    char *p;
    if (asprintf(&p, "%s/%s", self_dir, *c) < 0)
      return NULL;
    char real[PATH_MAX];
    if (realpath(p, real)) {
      free(p);
      return strdup(real);
    }
    free(p);
  }
  return NULL;
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

/* Is this argument a source file the compiler will compile? */
static int is_source(const char *a) {
  static const char *const ext[] = {".c", ".cc", ".cp", ".cpp", ".cxx", ".c++",
                                    ".C", ".i", ".ii", ".m", ".mm", ".ll",
                                    ".bc", NULL};
  const char *dot = strrchr(a, '.');
  if (!dot || a[0] == '-')
    return 0;
  for (const char *const *e = ext; *e; e++)
    if (strcmp(dot, *e) == 0)
      return 1;
  return 0;
}

#ifdef XPROF_FOR_CLANG
/* Append an option of the LLVM plugin.  -Xclang -mllvm reaches only the
 * compiler's own jobs (clang -cc1), which load the plugin (-fplugin); a
 * plain -mllvm would reach the integrated assembler of a .S file (and
 * every job of -save-temps), which does not load it and stops at the
 * option it does not know. */
static int plugin_option(char **pass, int n, const char *opt) {
  pass[n++] = "-Xclang";
  pass[n++] = "-mllvm";
  pass[n++] = "-Xclang";
  pass[n++] = (char *)opt;
  return n;
}
#endif

/* -xprofile_update=MODE: the mode, or NULL when it is none of them. */
static const char *update_mode(const char *m) {
  static const char *const modes[] = {"thread", "atomic", "single", NULL};
  for (const char *const *k = modes; *k; k++)
    if (strcmp(m, *k) == 0)
      return *k;
  return NULL;
}

/* Does -x LANG make the inputs after it sources that the compiler proper
 * compiles (and the plugin sees)?  Not for assembler, nor for "none". */
static int compiled_language(const char *lang) {
  return strcmp(lang, "none") != 0 && strncmp(lang, "assembler", 9) != 0;
}

static char *runtime_path(void) {
  static const char *const c[] = {"../runtime/libxprof_rt.a",
                                  "../" XPROF_REL_LIBDIR "/libxprof_rt.a", NULL};
  return locate("XPROF_RUNTIME", c);
}

/* Does this input of a link hold code compiled with -xprofile=collect:
 * an object file or archive (ELF, or LLVM bitcode for -flto) that names
 * the runtime's registration function?  libtool drops options it does
 * not know from the commands that link shared libraries, so such a link
 * arrives here without -xprofile=collect and would leave the library's
 * calls into the runtime undefined: loadable only by an instrumented
 * program.  A byte search, not an ELF reader: the name is in the symbol
 * string table of an object file, the symbol index of an archive, and
 * the string table of a bitcode file. */
static int instrumented_input(const char *path) {
  static const char needle[] = "__xprof_register";
  enum { CHUNK = 1 << 20, KEEP = sizeof needle - 2 };
  FILE *f = fopen(path, "rb");
  if (!f)
    return 0;
  char *buf = malloc(CHUNK + KEEP);
  size_t have = buf ? fread(buf, 1, CHUNK + KEEP, f) : 0;
  int kind_ok = have >= 18 &&
                ((memcmp(buf, "\177ELF", 4) == 0 && buf[16] == 1 && buf[17] == 0) ||
                 memcmp(buf, "!<arch>\n", 8) == 0 || memcmp(buf, "BC\300\336", 4) == 0);
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

static void usage(FILE *f) {
  fprintf(f,
          "usage: %s [-xprofile=collect[:NAME] | -xprofile=use[:NAME]]...\n"
          "          [-xprofile_pathmap=COLLECT_PREFIX:USE_PREFIX]... "
          "[-xprofile_update=MODE]\n"
          "          COMPILER-ARGS...\n"
          "\n"
          "Runs %s with xprof's profile feedback.\n"
          "  -xprofile=collect[:NAME]  instrument; the program writes "
          "NAME.profile\n"
          "                            (default: the program's name) when it "
          "runs\n"
          "  -xprofile=use[:NAME]      optimize with NAME.profile (default: "
          "the -o name\n"
          "                            of a link, else a.out); repeat to "
          "merge several\n"
          "  -xprofile_pathmap=OLD:NEW the object files were compiled under "
          "OLD at\n"
          "                            collect time and are under NEW now\n"
          "  -xprofile_update=MODE     collect: counters updated per thread "
          "(thread,\n"
          "                            the default), atomically (atomic) or "
          "plainly\n"
          "                            (single)\n"
          "  -fprofile-partial-training\n"
          "                            use: functions that never ran in "
          "training are\n"
          "                            optimized as without a profile, not "
          "as cold\n"
          "Everything else is passed to %s unchanged.  Environment: "
          "XPROF_CC\n"
          "(XPROF_CXX for C++), XPROF_GCC_PLUGIN, XPROF_RUNTIME override the "
          "compiler,\nplugin and runtime.\n",
          me, XPROF_COMPILER, XPROF_COMPILER);
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

/* The compiler to run: XPROF_CXX for the C++ drivers, else XPROF_CC,
 * else the one the driver is named after. */
static const char *compiler(void) {
  size_t n = strlen(XPROF_DRIVER_NAME);
  const char *cc = NULL;
  if (n >= 2 && strcmp(XPROF_DRIVER_NAME + n - 2, "++") == 0)
    cc = getenv("XPROF_CXX");
  if (!cc || !*cc)
    cc = getenv("XPROF_CC");
  return cc && *cc ? cc : XPROF_COMPILER;
}

int main(int argc, char **argv) {
  find_self();
  const char *cc = compiler();

  if (argc == 2 && strcmp(argv[1], "--help") == 0) {
    usage(stdout);
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "--version") == 0) {
    printf("%s (xprof) %s, profile feedback for %s\n", me, XPROF_VERSION, cc);
    fflush(stdout);
    execlp(cc, cc, "--version", (char *)NULL);
    return die("cannot run %s", cc);
  }

  enum { NONE, COLLECT, USE } mode = NONE;
  const char *collect_name = NULL;
  const char **use_names = calloc((size_t)argc, sizeof *use_names);
  const char **pathmaps = calloc((size_t)argc, sizeof *pathmaps);
  char **user = calloc((size_t)argc + 1, sizeof *user);
  char **pass = calloc((size_t)argc + 96, sizeof *pass);
  int n_use = 0, n_map = 0, n_user = 0, n = 0;
  const char **objects = calloc((size_t)argc, sizeof *objects);
  int link = 1, inputs = 0, sources = 0, static_link = 0, n_objects = 0;
  const char *output = NULL;
  const char *native = NULL; /* the first of the compiler's own profiling options */
#ifdef XPROF_FOR_CLANG
  const char *partial_training = NULL; /* its -mllvm option, if given */
  /* The user's -mllvm -xprof-* options, given to the plugin's jobs only. */
  const char **plugin_opts = calloc((size_t)argc, sizeof *plugin_opts);
  int n_plugin_opts = 0;
  if (!plugin_opts)
    return die("%s", "out of memory");
#endif
  const char *update = NULL;        /* -xprofile_update=MODE */
  const char *native_update = NULL; /* the mode of -fprofile-update=MODE */
  int x_lang = 0; /* after -x LANG (not none): every input is a source */
  if (!use_names || !pathmaps || !user || !pass || !objects)
    return die("%s", "out of memory");

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "-xprofile=", 10) == 0) {
      const char *v = a + 10;
      const char *colon = strchr(v, ':');
      size_t len = colon ? (size_t)(colon - v) : strlen(v);
      /* "collect:" is a name left out by mistake (an unset variable in
       * "collect:$NAME"), not a request for the default. */
      if (colon && !colon[1])
        return die("%s: a profile name must follow the colon (leave the colon "
                   "out for the default name)",
                   a);
      const char *name = colon ? colon + 1 : NULL;
      if (len == 7 && strncmp(v, "collect", 7) == 0) {
        mode = COLLECT; /* the rightmost -xprofile wins, as in Sun Studio */
        collect_name = name;
        n_use = 0;
      } else if (len == 3 && strncmp(v, "use", 3) == 0) {
        if (mode != USE)
          n_use = 0;
        mode = USE;
        if (name)
          use_names[n_use++] = name;
      } else if (len == 4 && strncmp(v, "tcov", 4) == 0) {
        return die("%s is not supported: build with -xprofile=collect and "
                   "read the counts with xprof_btoa",
                   a);
      } else {
        return die("unknown option %s: expected -xprofile=collect[:NAME] or "
                   "-xprofile=use[:NAME]",
                   a);
      }
      continue;
    }
    if (strncmp(a, "-xprofile_pathmap=", 18) == 0) {
      if (!strchr(a + 18, ':') || a[18] == ':')
        return die("%s: expected -xprofile_pathmap=COLLECT_PREFIX:USE_PREFIX",
                   a);
      pathmaps[n_map++] = a + 18;
      continue;
    }
    if (strncmp(a, "-xprofile_update=", 17) == 0) {
      update = update_mode(a + 17);
      if (!update)
        return die("%s: expected -xprofile_update=thread, atomic or single", a);
      continue;
    }
    if (strncmp(a, "-xprofile", 9) == 0)
      return die("unknown option %s: expected -xprofile=collect[:NAME], "
                 "-xprofile=use[:NAME], -xprofile_pathmap=OLD:NEW or "
                 "-xprofile_update=MODE",
                 a);
    /* GCC's and clang's own spelling picks the update of xprof's counters
     * too (and goes on to the compiler, which accepts it). */
    if (strncmp(a, "-fprofile-update=", 17) == 0)
      native_update = strcmp(a + 17, "single") == 0 ? "single" : "atomic";
#ifdef XPROF_FOR_CLANG
    if (strcmp(a, "-mllvm") == 0 && i + 1 < argc &&
        strncmp(argv[i + 1], "-xprof", 6) == 0) {
      plugin_opts[n_plugin_opts++] = argv[++i];
      continue;
    }
    /* GCC's spelling, for the LLVM plugin (clang does not know it). */
    if (strcmp(a, "-fprofile-partial-training") == 0 ||
        strcmp(a, "-fno-profile-partial-training") == 0) {
      partial_training = a[2] == 'p' ? "-xprof-partial-training=true"
                                     : "-xprof-partial-training=false";
      continue;
    }
#endif
    if (!native && native_profiling(a))
      native = a;
    user[n_user++] = (char *)a;
    if (strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0 || strcmp(a, "-E") == 0 ||
        strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0 ||
        strcmp(a, "-fsyntax-only") == 0)
      link = 0;
    if (strcmp(a, "-o") == 0 && i + 1 < argc)
      output = argv[i + 1];
    if (strcmp(a, "-static") == 0 || strcmp(a, "--static") == 0 ||
        strcmp(a, "-static-pie") == 0)
      static_link = 1;
    if (strcmp(a, "-x") == 0 && i + 1 < argc)
      x_lang = compiled_language(argv[i + 1]);
    else if (strncmp(a, "-x", 2) == 0 && a[2])
      x_lang = compiled_language(a + 2);
    if (takes_value(a) && i + 1 < argc) {
      if (strcmp(a, "-l") == 0) /* a library is an input of the link */
        inputs++;
      user[n_user++] = argv[++i];
      continue;
    }
    int input = a[0] != '-' || strcmp(a, "-") == 0;
    if (input || strncmp(a, "-l", 2) == 0)
      inputs++;
    int source = input && (x_lang || is_source(a));
    sources += source;
    if (a[0] != '-' && !source)
      objects[n_objects++] = a;
  }

  if (!update)
    update = native_update;
  if (mode != NONE && native) {
    fprintf(stderr,
            "%s: %s cannot be combined with -xprofile=%s: the compiler's own "
            "profiling changes the code that xprof %s, and the profile would "
            "not match the other build; use one or the other\n",
            me, native, mode == COLLECT ? "collect" : "use",
            mode == COLLECT ? "counts" : "optimizes");
    return 1;
  }

  /* Our options go first (the plugin must precede any of the user's
   * -fplugin-arg-xprof-* options, and the user's -f options override the
   * ones use mode adds), the runtime last. */
  pass[n++] = (char *)cc;
  /* Room for every argument and four words for each option we add. */
  pass = realloc(pass, ((size_t)argc * 4 + 96 + 4 * ((size_t)n_use + (size_t)n_map) +
                        sizeof fdo_flags / sizeof *fdo_flags) *
                           sizeof *pass);
  if (!pass)
    return die("%s", "out of memory");
#ifdef XPROF_FOR_CLANG
  /* The pass plugin takes its options through -mllvm, which needs it
   * loaded early as well (-fplugin); only commands that compile get them
   * (an LTO link would hand -mllvm options to the linker). */
  if (mode != NONE && sources) {
    char *plugin = plugin_path();
    if (!plugin)
      return die("%s", "cannot find the xprof LLVM plugin (" PLUGIN_FILE
                       ") next to this driver; set XPROF_LLVM_PLUGIN");
    char *arg;
    if (asprintf(&arg, "-fplugin=%s", plugin) < 0 ||
        (pass[n++] = arg, asprintf(&arg, "-fpass-plugin=%s", plugin) < 0))
      return 1;
    pass[n++] = arg;
    if (mode == USE && n_use == 0)
      use_names[n_use++] = link && output ? output : "a.out";
    for (int k = 0; k < (mode == COLLECT ? 1 : n_use); k++) {
      if (mode == COLLECT)
        arg = collect_name && asprintf(&arg, "-xprofile=collect:%s", collect_name) >= 0
                  ? arg
                  : "-xprofile=collect";
      else if (asprintf(&arg, "-xprofile=use:%s", use_names[k]) < 0)
        return 1;
      n = plugin_option(pass, n, arg);
    }
    for (int k = 0; k < n_map; k++) {
      if (asprintf(&arg, "-xprofile-pathmap=%s", pathmaps[k]) < 0)
        return 1;
      n = plugin_option(pass, n, arg);
    }
    if (output) {
      if (asprintf(&arg, "-xprof-output=%s", output) < 0)
        return 1;
      n = plugin_option(pass, n, arg);
    }
    if (link)
      n = plugin_option(pass, n, "-xprof-link");
    if (partial_training)
      n = plugin_option(pass, n, partial_training);
    if (update && mode == COLLECT) {
      if (asprintf(&arg, "-xprof-update=%s", update) < 0)
        return 1;
      n = plugin_option(pass, n, arg);
    }
    for (int k = 0; k < n_user; k++)
      if (strcmp(user[k], "-w") == 0) { /* the plugin cannot see it */
        n = plugin_option(pass, n, "-xprof-no-warnings");
        break;
      }
    for (int k = 0; k < n_plugin_opts; k++)
      n = plugin_option(pass, n, plugin_opts[k]);
  }
#else
  (void)sources;
  if (mode != NONE) {
    char *plugin = plugin_path();
    if (!plugin)
      return die("%s", "cannot find the xprof GCC plugin (xprof.so) next to "
                       "this driver; set XPROF_GCC_PLUGIN");
    char *arg;
    if (asprintf(&arg, "-fplugin=%s", plugin) < 0)
      return 1;
    pass[n++] = arg;
    if (mode == COLLECT) {
      if (asprintf(&arg, "-fplugin-arg-xprof-xprofile=collect%s%s",
                   collect_name ? ":" : "", collect_name ? collect_name : "") < 0)
        return 1;
      pass[n++] = arg;
      if (update) {
        if (asprintf(&arg, "-fplugin-arg-xprof-update=%s", update) < 0)
          return 1;
        pass[n++] = arg;
      }
    } else {
      /* Default profile: the program this command links, else a.out. */
      if (n_use == 0)
        use_names[n_use++] = link && output ? output : "a.out";
      for (int k = 0; k < n_use; k++) {
        if (asprintf(&arg, "-fplugin-arg-xprof-xprofile=use:%s", use_names[k]) < 0)
          return 1;
        pass[n++] = arg;
      }
      for (int k = 0; k < n_map; k++) {
        if (asprintf(&arg, "-fplugin-arg-xprof-pathmap=%s", pathmaps[k]) < 0)
          return 1;
        pass[n++] = arg;
      }
      for (const char *const *f = fdo_flags; *f; f++)
        pass[n++] = (char *)*f;
      /* So that the plugin can tell them from the user's (partial
       * training gives untrained functions the plain build's options). */
      pass[n++] = "-fplugin-arg-xprof-use-flags-added";
    }
  }
#endif
  for (int k = 0; k < n_user; k++)
    pass[n++] = user[k];
  /* A link of instrumented objects gets the runtime without being told
   * (see instrumented_input); use mode's objects are not instrumented. */
  for (int k = 0; mode == NONE && link && k < n_objects; k++)
    if (instrumented_input(objects[k]))
      mode = COLLECT;
  if (mode == COLLECT && link && inputs) {
    char *rt = runtime_path();
    if (!rt)
      return die("%s", "cannot find the xprof runtime (libxprof_rt.a) next "
                       "to this driver; set XPROF_RUNTIME");
    /* As linker options, not as an input: an extra input would change the
     * names cc1 derives the object file's path from (-dumpdir). */
    static char *const wrap[] = {"-Xlinker", "--push-state", "-Xlinker",
                                 "--whole-archive", "-Xlinker"};
    for (size_t k = 0; k < sizeof wrap / sizeof *wrap; k++)
      pass[n++] = wrap[k];
    pass[n++] = rt;
    pass[n++] = "-Xlinker";
    pass[n++] = "--pop-state";
    /* One runtime per process: a program exports its runtime's entry
     * points, so that instrumented libraries, dlopen'ed ones too, register
     * with it rather than with their own copies. */
    pass[n++] = "-Xlinker";
    pass[n++] = "--export-dynamic-symbol=__xprof_*";
    pass[n++] = "-Xlinker";
    pass[n++] = "--export-dynamic-symbol=xprof_*";
    /* Threads that libraries start (C++ std::thread) go through the
     * runtime's pthread_create too; a static link has no dlsym to find
     * the C library's, so it is linked under its own name. */
    pass[n++] = "-Xlinker";
    pass[n++] = "--export-dynamic-symbol=pthread_create";
    if (static_link) {
      pass[n++] = "-Xlinker";
      pass[n++] = "--undefined=__pthread_create_2_1";
    }
    pass[n++] = "-lpthread";
    pass[n++] = "-ldl";
  }
  pass[n] = NULL;
  execvp(cc, pass);
  fprintf(stderr, "%s: cannot run %s: %s\n", me, cc, strerror(errno));
  return 127;
}
