/* xprof-ccache.h: the xprof drivers name this file in the preprocessed
 * output (and the dependency file) of each xprof compilation that ccache
 * runs.  ccache turns its direct mode off for a compilation whose headers
 * mention the time macro __TIME__, as this comment does; xprof needs that,
 * because direct mode's key leaves the output file out, and what an xprof
 * object holds depends on its name: a collect build records its own path,
 * and a use build reads the profile data recorded under that path.
 * Preprocessor mode's key covers both (see profile_deps.c). */
