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

#include "driver.h"
#include "response_files.h"

const char *me = XPROF_DRIVER_NAME;

int die(const char *fmt, const char *arg) {
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
char *locate(const char *env, const char *const *candidates) {
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

static void usage(FILE *f) {
  fprintf(f,
          "usage: %s [-xprofile=collect[:NAME] | -xprofile=tcov[:NAME] |\n"
          "           -xprofile=use[:NAME]]...\n"
          "          [-xprofile_pathmap=COLLECT_PREFIX:USE_PREFIX]... "
          "[-xprofile_update=MODE] [-xprofile_order]\n"
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
          "  -fprofile-prefix-path=DIR as -xprofile_prefix_map=DIR/=./\n"
          "  -xprofile_update=MODE     collect: counters updated per thread "
          "(thread,\n"
          "                            the default), atomically (atomic) or "
          "plainly\n"
          "                            (single)\n"
          "  -xprofile_salvage=PERCENT|no  use: a function changed since training\n"
          "                            keeps its profile when PERCENT of its counts\n"
          "                            match the new code (default %d); no: never\n"
          "  -xprofile_order[=yes|no]  use, compile and link: the functions that ran\n"
          "                            placed in the order of the profile's call graph\n"
          "  -fprofile-partial-training\n"
          "                            use: functions that never ran in "
          "training are\n"
          "                            optimized as without a profile, not "
          "as cold\n"
          "  -fprofile-filter-files=REGEX[;REGEX...]\n"
          "  -fprofile-exclude-files=REGEX[;REGEX...]\n"
          "                            only functions of the source files that match\n"
          "                            (that do not match) are counted and given counts\n"
          "  -fprofile-list=FILE       clang's list of the functions and files to\n"
          "                            profile (section [llvm]), for either compiler\n"
          "  -fno-profile-values       collect: no value profiles (indirect calls,\n"
          "                            divisions, string operations' lengths)\n"
          "Under ccache, spell them --xprofile... (two dashes).  "
          "Everything else is passed to %s unchanged.  Environment: "
          "XPROF_CC\n"
          "(XPROF_CXX for C++), XPROF_GCC_PLUGIN, XPROF_RUNTIME override the "
          "compiler,\nplugin and runtime.\n",
          me, XPROF_COMPILER, XPROF_SALVAGE_DEFAULT_PERCENT, XPROF_COMPILER);
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

void push(struct args *a, const char *s) {
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

void pushf(struct args *a, const char *fmt, const char *s) {
  char *arg;
  if (asprintf(&arg, fmt, s) < 0)
    exit(die("%s", "out of memory"));
  push(a, arg);
}

/* The temporary response file that carries a command too long to pass
 * as it is, and the link's order file (NULL: none); removed once the
 * compiler has run. */
static char *packed, *order;

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
  if (order)
    unlink(order);
  if (!WIFEXITED(status))
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return WEXITSTATUS(status);
}

/* Become the compiler (its exit status is the driver's), or run it and
 * wait when a response file must be removed afterwards; returns the
 * driver's exit status when it does not become the compiler. */
static int exec_compiler(struct args *a) {
  if (packed || order)
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

/* Standard output into a temporary file until captured_done: for a
 * distributed compiler that reads the preprocessed output through a pipe
 * (icecc), so that the shipped lines can be chosen by what the output
 * names (profile_deps.c).  The file, or NULL (*saved: the real standard
 * output's descriptor). */
static FILE *capture_stdout(int *saved) {
  struct stat st;
  if (fstat(1, &st) == 0 && S_ISREG(st.st_mode))
    return NULL; /* a file already: read again as it is */
  FILE *tmp = tmpfile();
  fflush(stdout);
  *saved = tmp ? dup(1) : -1;
  if (*saved >= 0 && dup2(fileno(tmp), 1) >= 0)
    return tmp;
  if (*saved >= 0)
    close(*saved);
  if (tmp)
    fclose(tmp);
  return NULL;
}

/* Standard output back, with what went into tmp; 0 or -1. */
static int captured_done(FILE *tmp, int saved) {
  fflush(stdout);
  int rc = dup2(saved, 1) < 0 ? -1 : 0;
  close(saved);
  char buf[65536];
  size_t n;
  rewind(tmp);
  while (rc == 0 && (n = fread(buf, 1, sizeof buf, tmp)) > 0)
    rc = fwrite(buf, 1, n, stdout) == n ? 0 : -1;
  if (ferror(tmp))
    rc = -1;
  fclose(tmp);
  return rc;
}

/* Run the compiler, then append what preprocess_lines gives (with
 * `header`, see there) to the preprocessed output it wrote; returns the
 * driver's exit status. */
static int preprocess_for_tool(struct args *a, const struct command *c, const struct cache_use *use,
                               const struct cache_use *u, const char *header) {
  int to_stdout = !c->output || strcmp(c->output, "-") == 0, saved = -1;
  FILE *tmp = to_stdout && use && under_distributed() ? capture_stdout(&saved) : NULL;
  int rc = run_compiler(a);
  char *lines = rc == 0 ? preprocess_lines(use, u, c->source, header, c->output) : NULL;
  if (tmp && captured_done(tmp, saved) < 0 && rc == 0)
    rc = die("cannot write the preprocessed output %s", "(stdout)");
  if (rc != 0) {
    xprof_free(lines);
    return rc;
  }
  FILE *f = !lines ? NULL : to_stdout ? stdout : fopen(c->output, "a");
  if (lines && (!f || fputs(lines, f) < 0 || (to_stdout ? fflush(f) : fclose(f)) != 0))
    rc = die("cannot write the preprocessed output %s", to_stdout ? "(stdout)" : c->output);
  xprof_free(lines);
  return rc;
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
  const struct cache_use *use = c->o.mode == XPROF_MODE_USE ? u : NULL;
  /* Only preprocessed output and dependency files depend on who runs the
   * driver: other compilations look no further. */
  int cache = (c->preprocess || c->make_deps) && under_ccache();
  char *header = cache ? ccache_header() : NULL;
  if (c->preprocess && preprocessing_for_tool(c->source))
    return preprocess_for_tool(a, c, use, u, header);
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
  /* ccache runs the compiler itself, with CCACHE_DISABLE set, when it
   * cannot cache a command (it read -xprofile=... as -x LANGUAGE). */
  if (c.one_dash && c.inputs && getenv("CCACHE_DISABLE") && !under_ccache())
    note_uncached_spelling(me);
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
  if (c.o.mode != XPROF_MODE_NONE && c.link && c.shared && c.sources && !c.pic_given)
    push(&a, "-fPIC");
  /* -xprofile_order: the plugins give each function that ran a section
   * of its own, for the link to place (not -ffunction-sections: the
   * functions that never ran stay together, and objects small). */
  int use = c.o.mode == XPROF_MODE_USE;
  for (int k = 0; k < c.n_user; k++)
    push(&a, c.user[k]);
  if (use && c.o.order && c.link && c.inputs)
    order = add_order(&a, &c);
  /* A link of instrumented objects gets the runtime without being told
   * (see instrumented_input); use mode's objects are not instrumented. */
  int collect = c.o.mode == XPROF_MODE_COLLECT;
  for (int k = 0; c.o.mode == XPROF_MODE_NONE && c.link && k < c.n_objects && !collect; k++)
    collect = instrumented_input(c.objects[k]);
  for (int k = 0; c.o.mode == XPROF_MODE_NONE && c.link && k < c.n_libs && !collect; k++)
    collect = instrumented_library(&c, c.libs[k]);
  /* A partial link (-r) makes an object for a later link, which adds the
   * runtime: with it here too, that link would have two. */
  if (collect && c.link && c.inputs && !c.relocatable && add_runtime(&a, &c))
    return 1;
#ifdef XPROF_FOR_CLANG
  unsigned read = XPROF_DIGEST_MAX | XPROF_DIGEST_SUMMARY; /* the module's summary */
#else
  unsigned read = XPROF_DIGEST_MAX; /* profile_info->sum_max */
#endif
  struct cache_use u = {c.o.use_names.v,         (int)c.o.use_names.n,
                        c.o.pathmap.v,           (int)c.o.pathmap.n,
                        c.prefix_maps,           c.n_prefix_maps,
                        c.o.object_prefix_map.v, (int)c.o.object_prefix_map.n,
                        read};
  if (pack_if_long(&a))
    return 1;
  if (c.o.mode != XPROF_MODE_NONE && !c.link && c.sources == 1)
    return compile_one(&a, &c, &u);
  if (!(collect && c.link && c.inputs && !c.relocatable))
    return exec_compiler(&a);
  /* A link with the runtime: waited for, to look at what it made. */
  time_t since = time(NULL);
  int rc = run_compiler(&a);
  return rc == 0 ? check_runtime_exports(&c, since) : rc;
}
