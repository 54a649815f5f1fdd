/*
 * xprof_afdo - a profile as the compilers' own sample profiles: clang's
 * text format (-fprofile-sample-use) or GCC's AutoFDO data
 * (-fauto-profile).
 *
 *   xprof_afdo --llvm|--gcc [--counts|--samples] -o FILE profile_directory
 *   xprof_afdo --llvm|--gcc -o FILE sample-profile.txt
 *   xprof_afdo --lines profile_directory
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool_common.h"

static const char usage[] =
    "usage: xprof_afdo --llvm|--gcc [--counts|--samples] -o FILE profile_directory\n"
    "       xprof_afdo --llvm|--gcc -o FILE sample-profile.txt\n"
    "       xprof_afdo --lines profile_directory\n"
    "       xprof_afdo --program-kind PROGRAM\n"
    "\n"
    "Write the profile by source line, as the compilers' sample-based PGO\n"
    "reads it: --llvm as clang's sample-profile text (clang\n"
    "-fprofile-sample-use=FILE), --gcc as GCC's AutoFDO data (gcc\n"
    "-fauto-profile=FILE).  Each function that ran is given its lines, as\n"
    "offsets from the line of its declaration, with how often each ran,\n"
    "and the code inlined into it under the call sites it replaced.\n"
    "\n"
    "--counts takes the exact counts of a collect build (build it with -g;\n"
    "the lines come from its coverage tables, which it keeps in its objects\n"
    "and program).  --samples takes the time samples of a run under\n"
    "xprof_collect(1) (or with SUN_PROFDATA_SAMPLE=1): each sample's line\n"
    "and inline stack come from the sampled file's DWARF (build it with\n"
    "-g).  Without either: the counts when the profile has any, else the\n"
    "samples.\n"
    "\n"
    "Given a file instead of a profile directory, xprof_afdo reads it as\n"
    "clang's sample-profile text (its own, AutoFDO's create_llvm_prof's,\n"
    "llvm-profdata's --text) and writes it in the format asked for.\n"
    "-o - writes to the standard output.\n"
    "\n"
    "--lines makes the directory's own line profile, PROFILE.profile/lines,\n"
    "when it is older than the data (as --llvm, from the counts, else the\n"
    "samples): what use builds fall back on where the profile's graphs do\n"
    "not match the code (another compiler or version, a sampled program).\n"
    "The drivers make it before a use build's first compilation, and\n"
    "xprof_collect after each run.\n"
    "\n"
    "--program-kind prints whether PROGRAM is an ELF program that the\n"
    "dynamic linker starts (dynamic), one that it does not (static: -static,\n"
    "-static-pie), or something else (other: a script): xprof_collect asks,\n"
    "since only the dynamic linker preloads its sampler.\n";

/* lp written to path ("-": the standard output) in the format asked
 * for; 0, or 1 (said) when it cannot be, leaving no partial file.  The
 * formats name functions only: of static functions of one name, the
 * busiest is written, and a note says so. */
static int write_out(const char *path, xprof_lineprof *lp, int gcc) {
  uint32_t notes = lp->n_notes;
  if (xprof_lineprof_unique(lp) < 0)
    return tool_error("out of memory");
  for (uint32_t k = notes; k < lp->n_notes; k++)
    tool_error("%s", lp->notes[k]);
  FILE *out = tool_open_output(path, gcc ? "wb" : "w");
  if (!out)
    return 1;
  int rc = gcc ? xprof_lineprof_write_gcc(out, lp) : xprof_lineprof_write_llvm(out, lp);
  /* A write that failed is said by tool_close_output (the stream's
   * error); anything else here. */
  if (rc < 0 && !ferror(out))
    tool_error("cannot write %s", strcmp(path, "-") ? path : "the standard output");
  return tool_close_output(out, path, rc < 0 && !ferror(out));
}

/* A sample-profile text file as the format asked for. */
static int convert(const char *path, const char *out_path, int gcc) {
  unsigned char *buf;
  size_t len;
  xprof_error err;
  xprof_lineprof *lp;
  if (xprof_slurp(path, &buf, &len, &err) < 0)
    return tool_fail(&err);
  int rc = xprof_lineprof_read_llvm(path, (const char *)buf, len, &lp, &err);
  xprof_free(buf);
  if (rc < 0)
    return tool_fail(&err);
  rc = lp->n_funcs ? write_out(out_path, lp, gcc)
                   : tool_error("%s: no function in it: nothing to write", path);
  xprof_lineprof_free(lp);
  return rc;
}

static void say(const char *msg) { tool_error("%s", msg); }

/* The error for a profile with neither counts nor samples, `p` (NULL: not
 * read) of the directory `dir`, `then` what is not done for it.  Runs
 * without either are runs under xprof_collect too short for a sample:
 * a collect build's runs always count. */
static int no_data(const char *dir, const xprof_profile *p, const char *then) {
  if (p && p->runs)
    return tool_error("%s: %llu run%s, but no counts and no time samples: no run was long "
                      "enough for a sample (one per tick of its CPU time, 4 ms with Debian's "
                      "kernel)%s",
                      dir, (unsigned long long)p->runs, xprof_plural(p->runs), then);
  return tool_error("%s: no counts and no samples%s (did a program built with "
                    "-xprofile=collect, or run under xprof_collect, run?)",
                    dir, then);
}

/* --lines: the directory's line profile, made when it is older than the
 * data (saying why, where most samples found no line).  A profile with
 * neither counts nor samples gets none, nor one whose counts no coverage
 * table gives lines, which a user who asked for one is told. */
static int refresh_lines(const char *dir) {
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return tool_error("%s: not a profile directory", dir);
  xprof_error err;
  if (xprof_lines_refresh(dir, say, &err) < 0)
    return tool_fail(&err);
  char *path = xprof_format("%s/" XPROF_LINES_FILE, dir);
  int made = path && stat(path, &st) == 0;
  xprof_free(path);
  if (made)
    return 0;
  xprof_profile *p = NULL;
  if (xprof_read_profile_dir(dir, &p, &err) < 0)
    p = NULL;
  int rc = p && xprof_profile_has_counts(p)
               ? tool_error("%s: counts, but no coverage table to give them lines (the training "
                            "build's objects and program were removed or moved?): no line "
                            "profile written",
                            dir)
               : no_data(dir, p, ": no line profile written");
  xprof_profile_free(p);
  return rc;
}

/* --program-kind: "dynamic", "static" or "other" (xprof_elf_program_dynamic). */
static int program_kind(const char *path) {
  const unsigned char *buf;
  size_t len;
  xprof_error err;
  if (xprof_map(path, &buf, &len, &err) < 0)
    return tool_fail(&err);
  int kind = xprof_elf_program_dynamic(buf, len);
  xprof_unmap(buf, len);
  puts(kind == 1 ? "dynamic" : kind == 0 ? "static" : "other");
  return 0;
}

int main(int argc, char **argv) {
  tool_init("xprof_afdo");
  if (tool_standard_options(argc, argv, usage))
    return 0;
  if (argc == 3 && strcmp(argv[1], "--program-kind") == 0)
    return program_kind(argv[2]);
  const char *out_path = NULL, *dir = NULL;
  int format = -1, samples = -1, lines = 0; /* format: 1 gcc, 0 llvm */
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--lines") == 0)
      lines = 1;
    else if (strcmp(argv[i], "--llvm") == 0 || strcmp(argv[i], "--gcc") == 0)
      format = argv[i][2] == 'g';
    else if (strcmp(argv[i], "--counts") == 0 || strcmp(argv[i], "--samples") == 0)
      samples = argv[i][2] == 's';
    else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
      out_path = argv[++i];
    else if (argv[i][0] == '-')
      return tool_error("unknown option %s (see --help)", argv[i]);
    else if (dir)
      return tool_error("one profile directory, not %s and %s", dir, argv[i]);
    else
      dir = argv[i];
  }
  if (lines && dir && format < 0 && !out_path && samples < 0)
    return refresh_lines(dir);
  if (format < 0 || !out_path || !dir || lines) {
    fputs(usage, stderr);
    return 1;
  }
  struct stat st;
  if (stat(dir, &st) == 0 && S_ISREG(st.st_mode)) {
    if (samples >= 0)
      return tool_error("--counts and --samples are for profile directories, not %s", dir);
    return convert(dir, out_path, format);
  }
  xprof_error err;
  xprof_profile *p;
  if (xprof_read_profile_dir(dir, &p, &err) < 0)
    return tool_fail(&err);
  int asked = samples >= 0; /* --counts or --samples */
  if (samples < 0)
    samples = !xprof_profile_has_counts(p) && xprof_profile_has_samples(p);
  if (!samples && !xprof_profile_has_counts(p)) {
    int rc = asked ? tool_error("%s: no counts (did a program built with -xprofile=collect run?)",
                                dir)
                   : no_data(dir, p, "");
    xprof_profile_free(p);
    return rc;
  }
  if (samples && !xprof_profile_has_samples(p)) {
    xprof_profile_free(p);
    return tool_error("%s: no time samples (run the program under xprof_collect, or with "
                      "SUN_PROFDATA_SAMPLE=1)",
                      dir);
  }
  xprof_lineprof *lp;
  xprof_table_place at = {dir, p};
  if ((samples ? xprof_lineprof_from_samples(p, &lp, &err)
               : xprof_lineprof_from_counts(p, xprof_table_find_at, &at, &lp, &err)) < 0) {
    xprof_profile_free(p);
    return tool_fail(&err);
  }
  for (uint32_t k = 0; k < lp->n_notes; k++)
    tool_error("%s", lp->notes[k]);
  if (samples && lp->placed < lp->samples)
    tool_error("%s: %llu of %llu samples placed on lines (the others fell on code without "
               "a line: files built without -g, code the compiler made, the overflow bin)",
               dir, (unsigned long long)lp->placed, (unsigned long long)lp->samples);
  uint32_t n = 0;
  int rc;
  for (uint32_t k = 0; k < lp->n_funcs; k++)
    n += lp->funcs[k].total > 0;
  if (!n)
    rc = tool_error("%s: no function that ran has source lines (built without -g?): nothing "
                    "to write",
                    dir);
  else
    rc = write_out(out_path, lp, format);
  xprof_lineprof_free(lp);
  xprof_profile_free(p);
  return rc;
}
