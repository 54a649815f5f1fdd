/*
 * xprof-cc.c - the compiler drivers xprof-gcc, xprof-g++ (and their clang
 * twins): Sun Studio's -xprofile options on top of an ordinary compiler.
 *
 *   xprof-gcc -xprofile=collect[:NAME] ...   instrument (and link the runtime)
 *   xprof-gcc -xprofile=tcov[:NAME] ...      collect, for coverage (xprof_tcov)
 *   xprof-gcc -xprofile=use[:NAME] ...       optimize with NAME.profile
 *   xprof-gcc -xprofile_pathmap=OLD:NEW ...  (use) object paths moved
 *   xprof-gcc -xprofile_update=MODE ...      (collect) thread, atomic, single
 *   xprof-gcc -xprofile_salvage=PCT|no ...   (use) stale functions' profiles
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
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profile_deps.h"
#include "response_files.h"
#include "xprof.h"

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

/* -xprofile_update=MODE: the mode, or NULL when it is none of them. */
static const char *update_mode(const char *m) {
  static const char *const modes[] = {"thread", "atomic", "single", NULL};
  for (const char *const *k = modes; *k; k++)
    if (strcmp(m, *k) == 0)
      return *k;
  return NULL;
}

/* -xprofile_salvage=VALUE: VALUE when it is a percentage (0 to 100) or
 * "no", else NULL. */
static const char *salvage_percent(const char *v) {
  if (strcmp(v, "no") == 0)
    return v;
  char *end;
  errno = 0;
  long n = strtol(v, &end, 10);
  return *v >= '0' && *v <= '9' && !*end && !errno && n <= 100 ? v : NULL;
}

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

static void usage(FILE *f) {
  fprintf(f,
          "usage: %s [-xprofile=collect[:NAME] | -xprofile=tcov[:NAME] |\n"
          "           -xprofile=use[:NAME]]...\n"
          "          [-xprofile_pathmap=COLLECT_PREFIX:USE_PREFIX]... "
          "[-xprofile_update=MODE]\n"
          "          [-xprofile_prefix_map=OLD=NEW]...\n"
          "          COMPILER-ARGS...\n"
          "\n"
          "Runs %s with xprof's profile feedback.\n"
          "  -xprofile=collect[:NAME]  instrument; the program writes "
          "NAME.profile\n"
          "                            (default: the program's name) when it "
          "runs\n"
          "  -xprofile=tcov[:NAME]     collect, for coverage: xprof_tcov(1) reports "
          "it;\n"
          "                            with NAME, the coverage tables go into\n"
          "                            NAME.profile/tcov when compiling\n"
          "  -xprofile=use[:NAME]      optimize with NAME.profile (default: "
          "the -o name\n"
          "                            of a link, else a.out); repeat to "
          "merge several\n"
          "  -xprofile_pathmap=OLD:NEW the object files were compiled under "
          "OLD at\n"
          "                            collect time and are under NEW now\n"
          "  -xprofile_prefix_map=OLD=NEW  both modes: the profile knows object\n"
          "                            files under OLD as under NEW (a build\n"
          "                            directory as \".\", so that another finds them)\n"
          "  -xprofile_update=MODE     collect: counters updated per thread "
          "(thread,\n"
          "                            the default), atomically (atomic) or "
          "plainly\n"
          "                            (single)\n"
          "  -xprofile_salvage=PERCENT|no  use: a function changed since training\n"
          "                            keeps its profile when PERCENT of its counts\n"
          "                            match the new code (default %d); no: never\n"
          "  -fprofile-partial-training\n"
          "                            use: functions that never ran in "
          "training are\n"
          "                            optimized as without a profile, not "
          "as cold\n"
          "Under ccache, spell them --xprofile... (two dashes).  "
          "Everything else is passed to %s unchanged.  Environment: "
          "XPROF_CC\n"
          "(XPROF_CXX for C++), XPROF_GCC_PLUGIN, XPROF_RUNTIME override the "
          "compiler,\nplugin and runtime.\n",
          me, XPROF_COMPILER, XPROF_SALVAGE_DEFAULT_PERCENT, XPROF_COMPILER);
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

/* ---- the command line ---------------------------------------------------- */

enum mode { NONE, COLLECT, USE };

/* What the user's command asks for. */
struct command {
  enum mode mode;
  const char *collect_name;
  int tcov;           /* -xprofile=tcov: collect, coverage tables asked for */
  int debug_given;    /* the user chose debug information (-g...) */
  const char **use_names; /* -xprofile=use:NAME, in order */
  int n_use;
  const char **pathmaps; /* -xprofile_pathmap=OLD:NEW */
  int n_map;
  const char **prefix_maps; /* -ffile-prefix-map=OLD=NEW, -fprofile-prefix-map= */
  int n_prefix_maps;
  const char **object_maps; /* -xprofile_prefix_map=OLD=NEW */
  int n_object_maps;
  const char *update;        /* -xprofile_update=MODE */
  const char *salvage;       /* -xprofile_salvage=PERCENT: digits, or "no" */
  const char *native_update; /* the last -fprofile-update=MODE's */
  const char *native; /* the first of the compiler's own profiling options */
  const char **user;  /* the arguments that go to the compiler */
  int n_user;
  const char **objects; /* inputs that are not sources (for the link) */
  int n_objects;
  int link, inputs, sources, static_link;
  int shared;    /* -shared */
  int pic_given; /* any of -f[no-]pic, -f[no-]PIC, -f[no-]pie, -f[no-]PIE */
  int lto;       /* -flto[=...], less a later -fno-lto */
  unsigned sanitizers; /* of thread_sanitizers: -fsanitize= less -fno-sanitize= */
  int preprocess;     /* -E */
  int make_deps;      /* -MD or -MMD: a dependency file beside the output */
  const char *depfile; /* -MF FILE */
  const char *source; /* the first source */
  const char *output;
  const char *partial_training; /* clang: the plugin's option for it */
  const char *specialize;       /* clang: -f[no-]vpt as the plugin's option */
  const char *reorder;          /* clang: -f[no-]profile-reorder-functions */
  const char *partition;        /* clang: -f[no-]reorder-blocks-and-partition */
  int exceptions;               /* clang: the last -f[no-]exceptions (1/0), or -1 */
  int cxx;                      /* clang: a C++ or Objective-C++ source, or clang++ */
  const char **plugin_opts;     /* clang: the user's -mllvm -xprof-* */
  int n_plugin_opts;
};

/* Is a one of -fpic, -fPIC, -fpie, -fPIE or their -fno- forms? */
static int code_model_option(const char *a) {
  if (strncmp(a, "-f", 2) != 0)
    return 0;
  a += strncmp(a, "-fno-", 5) == 0 ? 5 : 2;
  return strcasecmp(a, "pic") == 0 || strcasecmp(a, "pie") == 0;
}

/* -xprofile=collect[:NAME] / use[:NAME]: returns 0, or 1 after saying why
 * the option is wrong. */
static int xprofile_option(struct command *c, const char *a) {
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
  if ((len == 7 && strncmp(v, "collect", 7) == 0) || (len == 4 && strncmp(v, "tcov", 4) == 0)) {
    c->mode = COLLECT; /* the rightmost -xprofile wins, as in Sun Studio */
    c->collect_name = name;
    c->tcov = len == 4;
    c->n_use = 0;
  } else if (len == 3 && strncmp(v, "use", 3) == 0) {
    if (c->mode != USE)
      c->n_use = 0;
    c->mode = USE;
    if (name)
      c->use_names[c->n_use++] = name;
  } else {
    return die("unknown option %s: expected -xprofile=collect[:NAME], "
               "-xprofile=tcov[:NAME] or -xprofile=use[:NAME]",
               a);
  }
  return 0;
}

/* The driver's own options (-xprofile..., and for clang -mllvm -xprof-*
 * and -f[no-]profile-partial-training): returns 1 when argv[*i] was one
 * (with *i moved past its value), 0 when it goes to the compiler, -1
 * after saying why it is wrong. */
static int driver_option(struct command *c, char **argv, int argc, int *i) {
  const char *a = argv[*i];
  /* --xprofile...: the same options in a spelling that compiler caches
   * pass on (ccache reads -xprofile=... as -x LANGUAGE and gives up). */
  if (strncmp(a, "--xprofile", 10) == 0)
    a++;
  if (strncmp(a, "-xprofile=", 10) == 0)
    return xprofile_option(c, a) ? -1 : 1;
  if (strncmp(a, "-xprofile_pathmap=", 18) == 0) {
    if (!strchr(a + 18, ':') || a[18] == ':')
      return -die("%s: expected -xprofile_pathmap=COLLECT_PREFIX:USE_PREFIX", a);
    c->pathmaps[c->n_map++] = a + 18;
    return 1;
  }
  if (strncmp(a, "-xprofile_prefix_map=", 21) == 0) {
    const char *eq = strchr(a + 21, '=');
    if (!eq || eq == a + 21)
      return -die("%s: expected -xprofile_prefix_map=OLD=NEW", a);
    c->object_maps[c->n_object_maps++] = a + 21;
    return 1;
  }
  if (strncmp(a, "-xprofile_update=", 17) == 0) {
    c->update = update_mode(a + 17);
    if (!c->update)
      return -die("%s: expected -xprofile_update=thread, atomic or single", a);
    return 1;
  }
  if (strncmp(a, "-xprofile_salvage=", 18) == 0) {
    c->salvage = salvage_percent(a + 18);
    if (!c->salvage)
      return -die("%s: expected -xprofile_salvage=PERCENT (0 to 100) or no", a);
    return 1;
  }
  if (strncmp(a, "-xprofile", 9) == 0)
    return -die("unknown option %s: expected -xprofile=collect[:NAME], "
                "-xprofile=tcov[:NAME], -xprofile=use[:NAME], -xprofile_pathmap=OLD:NEW, "
                "-xprofile_prefix_map=OLD=NEW, -xprofile_update=MODE or "
                "-xprofile_salvage=PERCENT|no",
                a);
#ifdef XPROF_FOR_CLANG
  if (strcmp(a, "-mllvm") == 0 && *i + 1 < argc &&
      strncmp(argv[*i + 1], "-xprof", 6) == 0) {
    c->plugin_opts[c->n_plugin_opts++] = argv[++*i];
    return 1;
  }
  /* GCC's hot/cold partitioning, which clang does not know (and refuses):
   * in use mode clang's own from profile data, -fsplit-machine-functions
   * (add_plugin); nothing to do in collect mode. */
  if (strcmp(a, "-freorder-blocks-and-partition") == 0 ||
      strcmp(a, "-fno-reorder-blocks-and-partition") == 0) {
    c->partition = a;
    return 1;
  }
  /* GCC's spellings, for the LLVM plugin (clang does not know them):
   * -fNAME and -fno-NAME as the plugin's option. */
  const struct {
    const char *name, *on, *off;
    const char **option;
  } gcc_switches[] = {
      {"profile-partial-training", "-xprof-partial-training=true",
       "-xprof-partial-training=false", &c->partial_training},
      {"vpt", "-xprof-specialize=true", "-xprof-specialize=false", &c->specialize},
      {"profile-reorder-functions", "-xprof-reorder-functions=true",
       "-xprof-reorder-functions=false", &c->reorder},
  };
  for (size_t k = 0; k < sizeof gcc_switches / sizeof *gcc_switches; k++) {
    int off = strncmp(a, "-fno-", 5) == 0;
    if (strncmp(a, "-f", 2) == 0 && strcmp(a + (off ? 5 : 2), gcc_switches[k].name) == 0) {
      *gcc_switches[k].option = off ? gcc_switches[k].off : gcc_switches[k].on;
      return 1;
    }
  }
#else
  (void)argc;
#endif
  return 0;
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

/* Note what a compiler argument says about the command: whether it links,
 * its inputs and sources, its output.  *x_lang: after -x LANG (not none)
 * every input is a source. */
static void compiler_argument(struct command *c, char **argv, int argc, int *i,
                              int *x_lang) {
  const char *a = argv[*i];
  if (!c->native && native_profiling(a))
    c->native = a;
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
    if (strcmp(a, "-l") == 0) /* a library is an input of the link */
      c->inputs++;
    c->user[c->n_user++] = argv[++*i];
    return;
  }
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

/* Read the command line into c; returns 0, or 1 after saying why not. */
static int parse_command(struct command *c, int argc, char **argv) {
  memset(c, 0, sizeof *c);
  c->link = 1;
  c->use_names = calloc((size_t)argc + 1, sizeof *c->use_names);
  c->pathmaps = calloc((size_t)argc, sizeof *c->pathmaps);
  c->prefix_maps = calloc((size_t)argc, sizeof *c->prefix_maps);
  c->object_maps = calloc((size_t)argc, sizeof *c->object_maps);
  c->user = calloc((size_t)argc, sizeof *c->user);
  c->objects = calloc((size_t)argc, sizeof *c->objects);
  c->plugin_opts = calloc((size_t)argc, sizeof *c->plugin_opts);
  if (!c->use_names || !c->pathmaps || !c->prefix_maps || !c->object_maps || !c->user || !c->objects || !c->plugin_opts)
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
  if (!c->update)
    c->update = c->native_update;
  if (c->mode != NONE && c->native) {
    fprintf(stderr,
            "%s: %s cannot be combined with -xprofile=%s: the compiler's own "
            "profiling changes the code that xprof %s, and the profile would "
            "not match the other build; use one or the other\n",
            me, c->native, c->mode == COLLECT ? "collect" : "use",
            c->mode == COLLECT ? "counts" : "optimizes");
    return 1;
  }
  /* Default profile of use mode: the program this command links, else
   * a.out. */
  if (c->mode == USE && c->n_use == 0)
    c->use_names[c->n_use++] = c->link && c->output ? c->output : "a.out";
  return 0;
}

/* ---- the compiler's command line -------------------------------------------- */

/* A growing argument vector; a failed allocation ends the driver. */
struct args {
  char **v;
  size_t n, cap;
};

static void push(struct args *a, const char *s) {
  if (a->n + 2 > a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 64;
    char **v = realloc(a->v, cap * sizeof *v);
    if (!v)
      exit(die("%s", "out of memory"));
    a->v = v;
    a->cap = cap;
  }
  a->v[a->n++] = (char *)s;
  a->v[a->n] = NULL;
}

static void pushf(struct args *a, const char *fmt, const char *s) {
  char *arg;
  if (asprintf(&arg, fmt, s) < 0)
    exit(die("%s", "out of memory"));
  push(a, arg);
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
  if (!c->collect_name)
    return NULL;
  char *dir = xprof_profile_dir_name(c->collect_name), *out;
  if (!dir || asprintf(&out, "%s/tcov", dir) < 0)
    exit(die("%s", "out of memory"));
  xprof_free(dir);
  return out;
}

#ifdef XPROF_FOR_CLANG
/* An option of the LLVM plugin.  -Xclang -mllvm reaches only the
 * compiler's own jobs (clang -cc1), which load the plugin (-fplugin); a
 * plain -mllvm would reach the integrated assembler of a .S file (and
 * every job of -save-temps), which does not load it and stops at the
 * option it does not know. */
static void plugin_option(struct args *a, const char *fmt, const char *s) {
  push(a, "-Xclang");
  push(a, "-mllvm");
  push(a, "-Xclang");
  pushf(a, fmt, s);
}

/* Did the user give the plugin option NAME (-mllvm NAME[=...])?  LLVM
 * takes most of its options once only. */
static int user_plugin_option(const struct command *c, const char *name) {
  size_t n = strlen(name);
  for (int k = 0; k < c->n_plugin_opts; k++)
    if (strncmp(c->plugin_opts[k], name, n) == 0 &&
        (c->plugin_opts[k][n] == 0 || c->plugin_opts[k][n] == '='))
      return 1;
  return 0;
}

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

/* The LLVM plugin and its options: only for commands that compile (an
 * LTO link would hand them to the linker). */
static int add_plugin(struct args *a, const struct command *c) {
  if (c->mode == USE && c->partition && c->sources) {
    int on = c->partition[2] == 'r';
    if (!on || split_keeps_landing_pads(c))
      push(a, on ? "-fsplit-machine-functions" : "-fno-split-machine-functions");
  }
  if (c->mode == NONE && c->partition)
    push(a, c->partition); /* as the user gave it: no xprof, no change */
  if (c->mode == NONE || !c->sources)
    return 0;
  char *plugin = plugin_path();
  if (!plugin)
    return die("%s", "cannot find the xprof LLVM plugin (" PLUGIN_FILE
                     ") next to this driver; set XPROF_LLVM_PLUGIN");
  pushf(a, "-fplugin=%s", plugin);
  pushf(a, "-fpass-plugin=%s", plugin);
  if (c->mode == COLLECT)
    plugin_option(a, c->collect_name ? "-xprofile=collect:%s" : "-xprofile=collect%s",
                  c->collect_name ? c->collect_name : "");
  if (c->mode == COLLECT && output_is_no_file(c))
    plugin_option(a, "%s", "-xprof-no-coverage-table");
  if (c->mode == COLLECT && c->tcov) {
    char *dir = tcov_dir(c);
    plugin_option(a, dir ? "-xprof-tcov-dir=%s" : "-xprof-tcov%s", dir ? dir : "");
    /* Line numbers: clang keeps them in the IR only with debug info. */
    if (!c->debug_given)
      push(a, "-gline-tables-only");
  }
  for (int k = 0; c->mode == USE && k < c->n_use; k++)
    plugin_option(a, "-xprofile=use:%s", c->use_names[k]);
  for (int k = 0; k < c->n_map; k++)
    plugin_option(a, "-xprofile-pathmap=%s", c->pathmaps[k]);
  for (int k = 0; k < c->n_prefix_maps; k++)
    plugin_option(a, "-xprof-prefix-map=%s", c->prefix_maps[k]);
  for (int k = 0; k < c->n_object_maps; k++)
    plugin_option(a, "-xprof-object-prefix-map=%s", c->object_maps[k]);
  if (c->output)
    plugin_option(a, "-xprof-output=%s", c->output);
  if (c->link)
    plugin_option(a, "%s", "-xprof-link");
  if (c->partial_training)
    plugin_option(a, "%s", c->partial_training);
  if (c->specialize)
    plugin_option(a, "%s", c->specialize);
  if (c->reorder)
    plugin_option(a, "%s", c->reorder);
  if (c->update && c->mode == COLLECT)
    plugin_option(a, "-xprof-update=%s", c->update);
  if (c->sanitizers && c->mode == COLLECT && !user_plugin_option(c, "-xprof-tls-counters"))
    plugin_option(a, "%s", "-xprof-tls-counters=false");
  if (c->salvage && c->mode == USE)
    plugin_option(a, "-xprof-salvage=%s", strcmp(c->salvage, "no") ? c->salvage : "101");
  if (c->lto && c->mode == USE) /* promotions the link can inline */
    plugin_option(a, "%s", "-xprof-lto");
  for (int k = 0; k < c->n_user; k++)
    if (strcmp(c->user[k], "-w") == 0) { /* the plugin cannot see it */
      plugin_option(a, "%s", "-xprof-no-warnings");
      break;
    }
  for (int k = 0; k < c->n_plugin_opts; k++)
    plugin_option(a, "%s", c->plugin_opts[k]);
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

/* The GCC plugin and its arguments; in use mode what -fprofile-use turns
 * on, before the user's options so that theirs win. */
static int add_plugin(struct args *a, const struct command *c) {
  if (c->mode == NONE)
    return 0;
  char *plugin = plugin_path();
  if (!plugin)
    return die("%s", "cannot find the xprof GCC plugin (xprof.so) next to "
                     "this driver; set XPROF_GCC_PLUGIN");
  pushf(a, "-fplugin=%s", plugin);
  for (int k = 0; k < c->n_object_maps; k++)
    pushf(a, "-fplugin-arg-xprof-object-prefix-map=%s", plugin_arg_encode(c->object_maps[k]));
  if (c->mode == COLLECT) {
    pushf(a, c->collect_name ? "-fplugin-arg-xprof-xprofile=collect:%s"
                             : "-fplugin-arg-xprof-xprofile=collect%s",
          c->collect_name ? plugin_arg_encode(c->collect_name) : "");
    if (c->update)
      pushf(a, "-fplugin-arg-xprof-update=%s", c->update);
    if (c->sanitizers)
      push(a, "-fplugin-arg-xprof-no-tls-counters");
    char *dir = c->tcov ? tcov_dir(c) : NULL;
    if (output_is_no_file(c))
      push(a, "-fplugin-arg-xprof-no-coverage-table");
    else if (dir)
      pushf(a, "-fplugin-arg-xprof-tcov-dir=%s", plugin_arg_encode(dir));
    else if (c->tcov)
      push(a, "-fplugin-arg-xprof-tcov");
    return 0;
  }
  for (int k = 0; k < c->n_use; k++)
    pushf(a, "-fplugin-arg-xprof-xprofile=use:%s", plugin_arg_encode(c->use_names[k]));
  if (c->salvage && strcmp(c->salvage, "no") == 0)
    push(a, "-fplugin-arg-xprof-no-salvage");
  else if (c->salvage)
    pushf(a, "-fplugin-arg-xprof-salvage=%s", c->salvage);
  for (int k = 0; k < c->n_map; k++)
    pushf(a, "-fplugin-arg-xprof-pathmap=%s", plugin_arg_encode(c->pathmaps[k]));
  for (const char *const *f = fdo_flags; *f; f++)
    push(a, *f);
  /* So that the plugin can tell them from the user's (partial training
   * gives untrained functions the plain build's options). */
  push(a, "-fplugin-arg-xprof-use-flags-added");
  return 0;
}
#endif

/* The runtime, for a link of instrumented code. */
static int add_runtime(struct args *a, const struct command *c) {
  char *rt = runtime_path();
  if (!rt)
    return die("%s", "cannot find the xprof runtime (libxprof_rt.a) next "
                     "to this driver; set XPROF_RUNTIME");
  /* As linker options, not as an input: an extra input would change the
   * names cc1 derives the object file's path from (-dumpdir). */
  static const char *const linker[] = {
      "--push-state", "--whole-archive", NULL, "--pop-state",
      /* One runtime per process: a program exports its runtime's entry
       * points, so that instrumented libraries, dlopen'ed ones too,
       * register with it rather than with their own copies. */
      "--export-dynamic-symbol=__xprof_*", "--export-dynamic-symbol=xprof_*",
      /* and the dump calls of the compilers' own runtimes (compat.c) */
      "--export-dynamic-symbol=__gcov_dump", "--export-dynamic-symbol=__gcov_reset",
      "--export-dynamic-symbol=__gcov_flush", "--export-dynamic-symbol=__llvm_profile_*",
      /* Threads that libraries start (C++ std::thread) go through the
       * runtime's pthread_create too. */
      "--export-dynamic-symbol=pthread_create"};
  for (size_t k = 0; k < sizeof linker / sizeof *linker; k++) {
    push(a, "-Xlinker");
    push(a, linker[k] ? linker[k] : rt);
  }
  /* A static link has no dlsym to find the C library's pthread_create:
   * it is linked under its own name. */
  if (c->static_link) {
    push(a, "-Xlinker");
    push(a, "--undefined=__pthread_create_2_1");
  }
  push(a, "-lpthread");
  push(a, "-ldl");
  return 0;
}

/* The temporary response file that carries a command too long to pass
 * as it is (NULL: none); removed once the compiler has run. */
static char *packed;

/* A command whose arguments add up to more than this goes to the compiler
 * in a response file: Linux takes 2 MB at most (less with a small stack
 * limit), and build systems write response files for longer ones. */
enum { PACK_ABOVE = 100000 };

/* When a's arguments are too long for one command line, put them in a
 * temporary response file and make a "COMPILER @FILE"; returns 0, or 1
 * after saying why not. */
static int pack_if_long(struct args *a) {
  size_t len = 0;
  for (size_t k = 0; k < a->n; k++)
    len += strlen(a->v[k]) + 1;
  if (len <= PACK_ABOVE)
    return 0;
  packed = write_response_file(a->v, 1);
  if (!packed)
    return die("cannot write a response file for the compiler: %s", strerror(errno));
  a->n = 1;
  pushf(a, "@%s", packed);
  return 0;
}

/* Run the compiler and wait for it; returns its exit status (128 + the
 * signal that ended it). */
static int run_compiler(struct args *a) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    return die("cannot fork: %s", strerror(errno));
  if (pid == 0) {
    execvp(a->v[0], a->v);
    fprintf(stderr, "%s: cannot run %s: %s\n", me, a->v[0], strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return die("cannot wait for the compiler: %s", strerror(errno));
  if (packed)
    unlink(packed);
  if (!WIFEXITED(status))
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return WEXITSTATUS(status);
}

/* Become the compiler (its exit status is the driver's), or run it and
 * wait when a response file must be removed afterwards; returns the
 * driver's exit status when it does not become the compiler. */
static int exec_compiler(struct args *a) {
  if (packed)
    return run_compiler(a);
  execvp(a->v[0], a->v);
  fprintf(stderr, "%s: cannot run %s: %s\n", me, a->v[0], strerror(errno));
  return 127;
}

/* The dependency file that -MD writes: -MF's, else the object's name
 * (-o, else the source's base name) with .d for its suffix, as GCC and
 * clang name it; malloc'd. */
static char *dependency_file(const struct command *c) {
  if (c->depfile)
    return strdup(c->depfile);
  char *obj = xprof_compile_object_name(c->output, c->source);
  char *dep = obj ? strdup(obj) : NULL;
  xprof_free(obj);
  if (dep) /* "NAME.o" */
    dep[strlen(dep) - 1] = 'd';
  return dep;
}

/* Run the compiler, then append `lines` to the preprocessed output it
 * wrote (profile_deps.c); returns the driver's exit status. */
static int preprocess_for_tool(struct args *a, const char *output, const char *lines) {
  int rc = run_compiler(a);
  if (rc != 0)
    return rc;
  int to_stdout = !output || strcmp(output, "-") == 0;
  FILE *f = to_stdout ? stdout : fopen(output, "a");
  if (!f || fputs(lines, f) < 0 || (to_stdout ? fflush(f) : fclose(f)) != 0)
    return die("cannot write the preprocessed output %s", to_stdout ? "(stdout)" : output);
  return 0;
}

/* The header that turns ccache's direct mode off (profile_deps.c). */
static char *ccache_header(void) {
  static const char *const c[] = {"xprof-ccache.h", "../" XPROF_REL_LIBDIR "/xprof/xprof-ccache.h",
                                  NULL};
  char *h = locate("XPROF_CCACHE_HEADER", c);
  if (!h)
    fprintf(stderr, "%s: warning: xprof-ccache.h is not next to this driver nor its "
                    "plugin: ccache's direct mode may give an object compiled for "
                    "another output file\n", me);
  return h;
}

/* One source compiled (not linked) in collect or use mode: under ccache,
 * preprocessed output that ccache's key covers the profile with, and a
 * dependency file (-MD) that names the profile for make and ccache; the
 * compiler run as it is otherwise.  Returns the driver's exit status. */
static int compile_one(struct args *a, const struct command *c, const struct cache_use *u) {
  const struct cache_use *use = c->mode == USE ? u : NULL;
  /* Only preprocessed output and dependency files depend on who runs the
   * driver: other compilations look no further. */
  int cache = (c->preprocess || c->make_deps) && under_ccache();
  char *header = cache ? ccache_header() : NULL;
  if (c->preprocess) {
    char *lines = preprocess_lines(use, u, c->source, header);
    if (lines)
      return preprocess_for_tool(a, c->output, lines);
  }
  if (!c->make_deps || c->preprocess || (!use && !cache))
    return exec_compiler(a);
  int rc = run_compiler(a);
  char *dep = rc == 0 ? dependency_file(c) : NULL;
  if (dep && add_profile_deps(use, header, dep) < 0)
    rc = 1;
  free(dep);
  return rc;
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

  /* Options in response files are options of the command: expanded
   * before anything looks at the command, and passed on expanded. */
  if (expand_response_files(&argc, &argv) < 0)
    return die("cannot read the command's response files: %s", strerror(errno));
  struct command c;
  if (parse_command(&c, argc, argv))
    return 1;
  /* Our options go first (the plugin must precede any of the user's
   * -fplugin-arg-xprof-* options, and the user's -f options override the
   * ones use mode adds), the runtime last. */
  struct args a = {NULL, 0, 0};
  push(&a, cc);
  if (add_plugin(&a, &c))
    return 1;
  /* `cc -shared a.c -o a.so` without -fPIC builds a working library from
   * the compiler's default (PIE) code when that code refers to no other
   * object's data; xprof's counters in code for an executable are
   * thread-local at fixed offsets (docs/runtime.md), which no shared
   * library may have.  Such a command compiles its sources for a shared
   * library, in both modes so that their graphs agree.  (Objects compiled
   * apart, with -c, cannot be told: they need the user's -fPIC.) */
  if (c.mode != NONE && c.link && c.shared && c.sources && !c.pic_given)
    push(&a, "-fPIC");
  for (int k = 0; k < c.n_user; k++)
    push(&a, c.user[k]);
  /* A link of instrumented objects gets the runtime without being told
   * (see instrumented_input); use mode's objects are not instrumented. */
  int collect = c.mode == COLLECT;
  for (int k = 0; c.mode == NONE && c.link && k < c.n_objects && !collect; k++)
    collect = instrumented_input(c.objects[k]);
  if (collect && c.link && c.inputs && add_runtime(&a, &c))
    return 1;
#ifdef XPROF_FOR_CLANG
  unsigned read = XPROF_DIGEST_MAX | XPROF_DIGEST_SUMMARY; /* the module's summary */
#else
  unsigned read = XPROF_DIGEST_MAX; /* profile_info->sum_max */
#endif
  struct cache_use u = {c.use_names, c.n_use, c.pathmaps, c.n_map,
                        c.prefix_maps, c.n_prefix_maps, c.object_maps, c.n_object_maps, read};
  if (pack_if_long(&a))
    return 1;
  if (c.mode != NONE && !c.link && c.sources == 1)
    return compile_one(&a, &c, &u);
  return exec_compiler(&a);
}
