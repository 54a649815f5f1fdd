/*
 * profile_deps.h - what build tools must know of the profile that a use
 * build reads: compiler caches (the key of the preprocessed output) and
 * make (the dependency file).  See profile_deps.c.
 */
#ifndef XPROF_PROFILE_DEPS_H
#define XPROF_PROFILE_DEPS_H

/* What one compilation reads of the profile, as the drivers know it. */
struct cache_use {
  const char *const *names; /* -xprofile=use:NAME, in order */
  int n_names;
  const char *const *pathmap; /* -xprofile_pathmap=OLD:NEW */
  int n_map;
  const char *const *prefix_map; /* -ffile-prefix-map=OLD=NEW, ... */
  int n_prefix_map;
  const char *const *object_map; /* -xprofile_prefix_map=OLD=NEW */
  int n_object_map;
  unsigned summary; /* XPROF_DIGEST_MAX or XPROF_DIGEST_SUMMARY */
};

/* Is the driver run by ccache (the parent process)?  By distcc or icecc? */
int under_ccache(void);
int under_distributed(void);
/* ccache caches no command that spells the options -xprofile... (it reads
 * -x LANGUAGE, and runs the compiler itself): a note that says so, once
 * per build (the nearest make, ninja, ... above the driver; else the
 * session). */
void note_uncached_spelling(const char *me);

/* Is this preprocessing of `source` (NULL: none) for a tool that runs
 * the driver, ccache or a distributed compiler?  Then the compiler runs
 * first and preprocess_lines' text is appended to its output. */
int preprocessing_for_tool(const char *source);
/* What this compilation of `source` appends to its preprocessed output
 * `output` ("-" or NULL: standard output) for the tool that runs the
 * driver (malloc'd), or NULL when that is no such tool.  Under ccache,
 * lines that make ccache's key cover what the compilation depends on
 * beyond the source: for a use build (`use`) the profile data it reads,
 * for a collect build (NULL) the object's path; `no_direct` is the header
 * that turns ccache's direct mode off (NULL when it was not found).
 * Under distcc or icecc, the object's path and its profile data and
 * lines, shipped to the machine that compiles (the output, already
 * written, says which lines).  `paths` has the prefix maps of the
 * object's path (in both modes). */
char *preprocess_lines(const struct cache_use *use, const struct cache_use *paths,
                       const char *source, const char *no_direct, const char *output);

/* Add to the dependency file `depfile` that the compiler wrote (-MD) the
 * profile files that `use` reads (when not NULL), so that make rebuilds
 * the object when the profile changes, and `header` (when not NULL);
 * returns 0, or -1 after saying why not. */
int add_profile_deps(const struct cache_use *use, const char *header, const char *depfile);

#endif
