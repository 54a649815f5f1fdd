/*
 * profile_deps.c - the profile as an input of a compilation, for the
 * tools that decide whether to compile: compiler caches and make.
 *
 * ccache computes its key before any compiler runs: in direct mode from
 * the command line (less the output file), the compiler, and the source
 * with its headers; in preprocessor mode from the output of
 * "COMPILER ARGS -E".  Neither sees what an xprof object depends on
 * beyond that: a collect build records its object's own path, and a use
 * build reads the profile data recorded under that path.  So when the
 * driver preprocesses for ccache, it appends line markers:
 *
 *   # 1 "/usr/lib/xprof/xprof-ccache.h"        direct mode off
 *   # 1 "<xprof use of /abs/obj.o: DIGEST>"    what the compile reads
 *   # 1 "/abs/prog.profile/feedback"           each profile file read
 *
 * The first names a header whose text mentions the time macro, which
 * makes ccache turn direct mode off for the compilation: its key could
 * not tell two output files apart.  The second puts the object's path
 * and a digest of exactly the data the compilation reads (xprof_use_digest)
 * into preprocessor mode's key (a collect build gets "<xprof collect of
 * /abs/obj.o>"): the key changes when this object's counts change, and
 * not when only another object's do.  The third names the profile as a
 * header, for users who give ccache sloppiness=time_macros: their direct
 * mode then hashes the profile's contents and misses when it changed.  A
 * marker between angle brackets is no file to ccache (as <built-in>), and
 * to a compiler reading the output it is a file name with no lines.
 *
 * ccache runs the preprocessor with "-o TEMP.i", so the object file is
 * read from ccache's own command line: the parent process (distcc's and
 * icecc's too: see shipped_lines).  In ccache's
 * depend mode no preprocessor runs; the dependency file then gets the
 * header and the profile files (add_profile_deps), as it does for make.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile_deps.h"
#include "xprof_plan.h"

/* A command line read from /proc: the arguments point into text. */
struct cmdline {
  char *text;
  char **args; /* NULL-terminated */
};

static void cmdline_free(struct cmdline *c) {
  free(c->text);
  free(c->args);
}

/* The build tool that runs the driver: ccache, which hashes what it
 * preprocesses, or a distributed compiler (distcc, icecc), which sends it
 * to another machine. */
enum parent_tool { PARENT_OTHER, PARENT_CCACHE, PARENT_DISTRIBUTED };

static enum parent_tool tool_named(const char *base) {
  /* sccache's server preprocesses without the command's -o: the object
   * is named from the source, and when the profile has no data under
   * that name the key covers the whole profile (use_digest). */
  if (strncmp(base, "ccache", 6) == 0 || strncmp(base, "sccache", 7) == 0)
    return PARENT_CCACHE;
  if (strncmp(base, "distcc", 6) == 0 || strncmp(base, "icecc", 5) == 0)
    return PARENT_DISTRIBUTED;
  return PARENT_OTHER;
}

/* Which of those tools the parent process is, by its executable (whatever
 * name ran it: masquerading symlinks are named after compilers), and
 * (parent_args) its command line: the tool, PARENT_OTHER when it is none
 * or cannot be read.  argv[0] and, after the tool's own name, the
 * compiler are left out of c->args. */
static enum parent_tool parent_tool(void) {
  char link[64], exe[PATH_MAX];
  snprintf(link, sizeof link, "/proc/%d/exe", (int)getppid());
  ssize_t n = readlink(link, exe, sizeof exe - 1);
  if (n <= 0)
    return PARENT_OTHER;
  exe[n] = 0;
  const char *base = strrchr(exe, '/');
  return tool_named(base ? base + 1 : exe);
}

static enum parent_tool parent_args(struct cmdline *c) {
  enum parent_tool tool = parent_tool();
  if (tool == PARENT_OTHER)
    return PARENT_OTHER;
  char link[64];
  snprintf(link, sizeof link, "/proc/%d/cmdline", (int)getppid());
  FILE *f = fopen(link, "rb");
  if (!f)
    return PARENT_OTHER;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len + 4096 + 1 > cap) {
      cap = 2 * cap + 8192;
      char *b = realloc(buf, cap);
      if (!b)
        break;
      buf = b;
    }
    size_t got = fread(buf + len, 1, 4096, f);
    len += got;
    if (got == 0)
      break;
  }
  fclose(f);
  if (!buf || len == 0) {
    free(buf);
    return PARENT_OTHER;
  }
  buf[len] = 0;
  size_t count = 0;
  for (size_t i = 0; i < len; i++)
    count += buf[i] == 0;
  char **argv = calloc(count + 2, sizeof *argv);
  if (!argv) {
    free(buf);
    return PARENT_OTHER;
  }
  size_t k = 0;
  for (char *s = buf; s < buf + len; s += strlen(s) + 1)
    argv[k++] = s;
  /* argv[0] and, for "ccache COMPILER ...", the compiler */
  const char *a0 = strrchr(argv[0], '/');
  size_t skip = tool_named(a0 ? a0 + 1 : argv[0]) != PARENT_OTHER && k > 1 ? 2 : 1;
  memmove(argv, argv + skip, (k - skip + 1) * sizeof *argv);
  c->text = buf;
  c->args = argv;
  return tool;
}

/* The object file ccache's command writes: its last -o, else the
 * source's name (as the compiler names it), by the name the profile
 * knows it (prefix maps applied). */
static char *object_of(char **args, const char *source, const struct cache_use *paths) {
  const char *out = NULL;
  for (int i = 0; args[i]; i++) {
    if (strcmp(args[i], "-o") == 0 && args[i + 1])
      out = args[++i];
    else if (strncmp(args[i], "-o", 2) == 0 && args[i][2])
      out = args[i] + 2;
  }
  char *rel = xprof_compile_object_name(out, source);
  char *path = rel ? xprof_object_path_resolve(rel) : NULL;
  char *first = path ? xprof_remap_prefix(path, paths->prefix_map,
                                          (unsigned)paths->n_prefix_map)
                     : NULL;
  char *mapped = first ? xprof_remap_prefix(first, paths->object_map,
                                            (unsigned)paths->n_object_map)
                       : NULL;
  xprof_free(rel);
  xprof_free(path);
  xprof_free(first);
  return mapped;
}

/* Append to *text (malloc'd) the line fmt makes of a and b. */
static void marker(char **text, const char *fmt, const char *a, const char *b) {
  char *line = xprof_format(fmt, a, b);
  char *joined = line ? xprof_format("%s%s", *text ? *text : "", line) : NULL;
  xprof_free(line);
  if (joined) {
    xprof_free(*text);
    *text = joined;
  }
}

static char *profile_file(const char *name) {
  char *dir = xprof_use_profile_name(name);
  if (!dir)
    return NULL;
  xprof_error err;
  char *file = xprof_profile_data_file(dir, &err);
  if (!file)
    file = xprof_format("%s/" XPROF_FEEDBACK_FILE, dir);
  xprof_free(dir);
  char *abs = file ? realpath(file, NULL) : NULL;
  if (abs) {
    xprof_free(file);
    file = xprof_format("%s", abs);
    free(abs);
  }
  return file;
}

/* The line profile beside profile `name`'s data (malloc'd), or NULL when
 * there is none. */
static char *lines_file(const char *name) {
  char *file = xprof_use_lines_file(name);
  char *abs = file ? realpath(file, NULL) : NULL;
  xprof_free(file);
  char *lines = abs ? xprof_format("%s", abs) : NULL;
  free(abs);
  return lines;
}

/* The digest of what the compile of `obj` reads; when the profile has no
 * data for it under the name the driver derived (a compiler that names
 * its object otherwise, say), the digest of every profile file whole. */
static char *use_digest(const struct cache_use *u, const char *obj) {
  const xprof_objfile *o = NULL;
  int any = 0;
  xprof_profile *p = xprof_use_lookup(u->names, (unsigned)u->n_names, u->pathmap,
                                      (unsigned)u->n_map, obj, &o, &any, NULL, NULL);
  char hex[XPROF_DIGEST_HEX];
  xprof_use_digest(o, p ? p->summary : NULL, u->summary, hex);
  xprof_profile_free(p);
  if (o)
    return xprof_format("%s", hex);
  /* Without data of its own the object may be known by its lines: those
   * count too.  (An object with data falls back on the lines only for
   * functions that changed, whose own counts are in the digest.) */
  uint32_t whole = 0, again = 0x9e3779b9u; /* two CRCs: 64 bits */
  for (int i = 0; i < 2 * u->n_names; i++) {
    char *file = i % 2 ? lines_file(u->names[i / 2]) : profile_file(u->names[i / 2]);
    FILE *f = file ? fopen(file, "rb") : NULL;
    char buf[65536];
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
      whole = xprof_crc32c(whole, buf, n), again = xprof_crc32c(again, buf, n);
    if (f)
      fclose(f);
    xprof_free(file);
  }
  return xprof_format("%s, no data; profile files %08x%08x", hex, whole, again);
}

/* The data file that profile name `name` reads, absolute where it
 * exists (where it would be when there is none yet: a profile that
 * appears later must count as a change); malloc'd. */
/* A marker per profile file the compile reads. */
static void file_markers(char **text, const struct cache_use *u) {
  for (int i = 0; i < 2 * u->n_names; i++) {
    char *file = i % 2 ? lines_file(u->names[i / 2]) : profile_file(u->names[i / 2]);
    if (file)
      marker(text, "# 1 \"%s\"%s\n", file, "");
    xprof_free(file);
  }
}

int under_ccache(void) { return parent_tool() == PARENT_CCACHE; }

int under_distributed(void) { return parent_tool() == PARENT_DISTRIBUTED; }

/* The build this compilation is part of: the nearest ancestor that is a
 * build tool (make, ninja, ...), as "PID.START" (its start time, so that
 * a PID used again is another build), else the session.  In buf. */
static void build_key(char *buf, size_t size) {
  static const char *const tools[] = {"make", "gmake", "bmake", "ninja", "samu", "cmake",
                                      "meson", "scons", "bazel", "dpkg-buildpackage", NULL};
  pid_t pid = getppid();
  for (int depth = 0; depth < 12 && pid > 1; depth++) {
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(line, 1, sizeof line - 1, f) : 0;
    if (f)
      fclose(f);
    line[n] = 0;
    /* pid (comm) state ppid ...: comm may hold spaces and parentheses */
    char *open = strchr(line, '('), *close = strrchr(line, ')');
    if (!open || !close)
      break;
    *close = 0;
    for (int k = 0; tools[k]; k++)
      if (strcmp(open + 1, tools[k]) == 0) {
        unsigned long long start = 0;
        const char *q = close + 2;
        for (int field = 3; field < 22 && q; field++) /* starttime is field 22 */
          q = (q = strchr(q, ' ')) ? q + 1 : NULL;
        if (q)
          start = strtoull(q, NULL, 10);
        snprintf(buf, size, "%d.%llu", (int)pid, start);
        return;
      }
    int ppid = 0;
    if (sscanf(close + 2, "%*c %d", &ppid) != 1)
      break;
    pid = ppid;
  }
  snprintf(buf, size, "session.%d", (int)getsid(0));
}

void note_uncached_spelling(const char *me) {
  char key[64], path[PATH_MAX];
  const char *tmp = getenv("TMPDIR");
  build_key(key, sizeof key);
  snprintf(path, sizeof path, "%s/xprof-ccache-note.%d.%s", tmp && *tmp ? tmp : "/tmp",
           (int)getuid(), key);
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0 && errno == EEXIST)
    return; /* said already in this build */
  if (fd >= 0)
    close(fd);
  fprintf(stderr,
          "%s: note: ccache caches none of this build's xprof compilations: it reads "
          "-xprofile... as -x and a language it does not know, and runs the compiler itself "
          "(with CCACHE_DISABLE set, as now); under ccache spell xprof's options with two "
          "dashes, --xprofile=... (xprof-gcc(1), BUILD TOOLS; said once per build)\n",
          me);
}

/* ccache: the lines that make its key cover the profile (see above). */
static char *cache_lines(const struct cache_use *use, const char *obj, const char *no_direct) {
  char *text = NULL;
  if (no_direct)
    marker(&text, "# 1 \"%s%s\"\n", no_direct, "");
  if (!use) {
    marker(&text, "# 1 \"<xprof collect of %s%s>\"\n", obj, "");
  } else {
    char *digest = use_digest(use, obj);
    marker(&text, "# 1 \"<xprof use of %s: %s>\"\n", obj, digest ? digest : "?");
    xprof_free(digest);
    file_markers(&text, use);
  }
  return text;
}

/* Append s to *text as the contents of a C string literal. */
static void c_string(char **text, const char *s) {
  size_t n = strlen(s), k = 0;
  char *q = xprof_malloc(2 * n + 1);
  if (!q)
    return;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '"' || s[i] == '\\')
      q[k++] = '\\';
    q[k++] = s[i];
  }
  q[k] = 0;
  marker(text, "%s%s", q, "");
  xprof_free(q);
}

/* The preprocessed output the compiler wrote to `output` ("-" or NULL:
 * standard output, when that is a file this process can open again: as
 * under distcc, or the driver's own file in front of icecc's pipe),
 * malloc'd with *len; NULL when it cannot be read. */
static char *preprocessed(const char *output, size_t *len) {
  struct stat st;
  int to_stdout = !output || strcmp(output, "-") == 0;
  if (to_stdout && (fstat(1, &st) != 0 || !S_ISREG(st.st_mode)))
    return NULL;
  unsigned char *text;
  xprof_error err;
  if (xprof_slurp(to_stdout ? "/proc/self/fd/1" : output, &text, len, &err) < 0)
    return NULL;
  return (char *)text;
}

/* distcc, icecc: the compilation runs on a machine that may not have the
 * profile, and writes a temporary object file there.  The object's path
 * and, in use mode, its data and the lines of the functions its source
 * may define (read from the preprocessed output, else all of them)
 * travel in the source: a top-level asm statement of comment lines,
 * which the plugins take out before anything is emitted
 * (xprof_ship_object, xprof_use_ship_for). */
static char *shipped_lines(const struct cache_use *use, const char *obj, const char *output) {
  char *text = NULL, *line = xprof_ship_object(obj);
  marker(&text, "%s%s", "\n__asm__(\"", "");
  if (line)
    c_string(&text, line);
  xprof_free(line);
  if (use) {
    size_t n = 0;
    char *source = preprocessed(output, &n);
    char *data = xprof_use_ship_for(use->names, (unsigned)use->n_names, use->pathmap,
                                    (unsigned)use->n_map, obj, source, n);
    xprof_free(source);
    if (data) {
      marker(&text, "%s%s", "\\n", "");
      c_string(&text, data);
    }
    xprof_free(data);
  }
  marker(&text, "%s%s", "\");\n", "");
  return text;
}

int preprocessing_for_tool(const char *source) {
  return source && parent_tool() != PARENT_OTHER;
}

char *preprocess_lines(const struct cache_use *use, const struct cache_use *paths,
                       const char *source, const char *no_direct, const char *output) {
  struct cmdline parent;
  enum parent_tool tool = source ? parent_args(&parent) : PARENT_OTHER;
  if (tool == PARENT_OTHER)
    return NULL;
  char *obj = object_of(parent.args, source, paths);
  cmdline_free(&parent);
  if (!obj)
    return NULL;
  char *text = tool == PARENT_CCACHE ? cache_lines(use, obj, no_direct)
                                     : shipped_lines(use, obj, output);
  xprof_free(obj);
  return text;
}

/* ---- make ------------------------------------------------------------ */

/* The targets of a dependency file: its text up to the first colon that
 * ends a word (not one escaped, nor a drive letter's); malloc'd. */
static char *first_targets(const char *text) {
  for (const char *p = text; *p; p++) {
    if (*p == '\\' && p[1]) {
      p++;
      continue;
    }
    if (*p == ':' && (p[1] == ' ' || p[1] == '\t' || p[1] == '\n' || p[1] == 0 ||
                      p[1] == '\\'))
      return p > text ? xprof_format("%.*s", (int)(p - text), text) : NULL;
  }
  return NULL;
}

/* A path as make reads it: spaces and '#' escaped, '$' doubled. */
static void put_make_path(FILE *f, const char *path) {
  for (const char *p = path; *p; p++) {
    if (*p == ' ' || *p == '#')
      fputc('\\', f);
    else if (*p == '$')
      fputc('$', f);
    fputc(*p, f);
  }
}

/* Append to dependency file f a rule that makes `targets` depend on
 * `file`, and (as -MP does for headers) an empty rule for the file, so
 * that make does not stop when it is deleted. */
static void dependency(FILE *f, const char *targets, const char *file) {
  fprintf(f, "\n%s: ", targets);
  put_make_path(f, file);
  fputs("\n", f);
  put_make_path(f, file);
  fputs(":\n", f);
}

int add_profile_deps(const struct cache_use *use, const char *header, const char *depfile) {
  FILE *f = fopen(depfile, "r+");
  if (!f) /* the compiler wrote none (-MD with -E, say): nothing to add */
    return 0;
  char head[65536];
  size_t n = fread(head, 1, sizeof head - 1, f);
  head[n] = 0;
  char *targets = first_targets(head);
  int rc = 0;
  if (targets && fseek(f, 0, SEEK_END) == 0) {
    if (header)
      dependency(f, targets, header);
    for (int i = 0; use && i < use->n_names; i++) {
      char *file = profile_file(use->names[i]);
      if (file)
        dependency(f, targets, file);
      xprof_free(file);
    }
  }
  xprof_free(targets);
  if (ferror(f) | (fclose(f) != 0)) {
    fprintf(stderr, "xprof: cannot add the profile to the dependency file %s\n", depfile);
    rc = -1;
  }
  return rc;
}
