/*
 * plugin.cc - the xprof GCC plugin: arguments and pass registration.
 *
 *   gcc -fplugin=xprof.so -fplugin-arg-xprof-xprofile=collect[:NAME] ...
 *
 * One simple IPA pass, inserted right after GCC's own "profile" pass: it
 * sees every function at the point where GCC's -fprofile-generate and
 * -fprofile-use work (after early inlining and early optimizations), and
 * it emits the per-object data once.
 */
#include "gcc-common.h"

#include <stdarg.h>

#include "xprof-gcc.h"

int plugin_is_GPL_compatible;

struct xp_options xp_opts;

static struct plugin_info xp_plugin_info = {
    XPROF_VERSION,
    "xprof: profile feedback (-xprofile=collect|use) for GCC.\n"
    "  -fplugin-arg-xprof-xprofile=collect[:NAME] | use[:NAME] (repeatable)\n"
    "  -fplugin-arg-xprof-pathmap=COLLECT_PREFIX:USE_PREFIX (repeatable)\n"
    "  -fplugin-arg-xprof-object-prefix-map=OLD%3DNEW (repeatable): object paths\n"
    "      as the profile records and looks them up\n"
    "  (in every value, '=' and '%' as %3D and %25: GCC ends a value at a second '=')\n"
    "  -fplugin-arg-xprof-update=thread|atomic|single\n"
    "  -fplugin-arg-xprof-no-tls-counters, -fplugin-arg-xprof-no-asm-counters\n"
    "  -fplugin-arg-xprof-values-per-site=N\n"
    "  -fplugin-arg-xprof-hot-inline=N (use: inlining limit in functions\n"
    "    that ran in training, default 400; 0: GCC's own)\n"
    "  -fplugin-arg-xprof-cold-inline=N (use: growth inlined at any call\n"
    "    site in those functions, default 12; 0: GCC's own)\n"
    "  -fplugin-arg-xprof-skip-functions=PATTERN[,PATTERN...]\n"
    "  -fplugin-arg-xprof-skip-files=PATTERN[,PATTERN...]\n"
    "  -fplugin-arg-xprof-no-missing-warning\n"
    "  -fplugin-arg-xprof-verbose\n"
    "  -fplugin-arg-xprof-all-edges, -fplugin-arg-xprof-cfg-dump (debug)\n"
    "  -fplugin-arg-xprof-use-flags-added (from the drivers: they added\n"
    "    -fprofile-use's optimization flags to the command line)\n"};

/* Messages about profile data are printed in GCC's style but not through
 * its diagnostics: a stale profile must not fail a -Werror build.  -w
 * silences the warnings all the same (configure scripts use it). */
static void message(const char *kind, const char *fmt, va_list ap) {
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  fprintf(stderr, "%s: %s: xprof: %s\n",
          main_input_filename ? main_input_filename : "cc1", kind, buf);
}

void xp_warning(const char *fmt, ...) {
  if (global_dc->dc_inhibit_warnings) /* -w */
    return;
  va_list ap;
  va_start(ap, fmt);
  message("warning", fmt, ap);
  va_end(ap);
}

void xp_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  message("note", fmt, ap);
  va_end(ap);
}

static void push(const char ***list, unsigned *n, const char *s) {
  *list = XRESIZEVEC(const char *, *list, *n + 1);
  (*list)[(*n)++] = xstrdup(s);
}

/* Split a comma-separated list of patterns. */
static void push_patterns(const char *const **list, unsigned *n, const char *s) {
  const char **l = (const char **)*list; /* ours: the list is built here */
  char *copy = xstrdup(s);
  for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
    if (*tok)
      push(&l, n, tok);
  free(copy);
  *list = l;
}

static bool parse_xprofile(const char *v) {
  const char *colon = strchr(v, ':');
  size_t len = colon ? (size_t)(colon - v) : strlen(v);
  enum xp_mode m;
  if (len == 7 && strncmp(v, "collect", 7) == 0)
    m = XP_MODE_COLLECT;
  else if (len == 3 && strncmp(v, "use", 3) == 0)
    m = XP_MODE_USE;
  else if (len == 4 && strncmp(v, "tcov", 4) == 0) {
    error("xprof: %<-xprofile=tcov%> is not supported; use "
          "%<-xprofile=collect%> and %<xprof_btoa%>");
    return false;
  } else {
    error("xprof: %<xprofile=%s%>: expected %<collect[:NAME]%> or "
          "%<use[:NAME]%>", v);
    return false;
  }
  if (xp_opts.mode != XP_MODE_NONE && xp_opts.mode != m) {
    /* As with Sun Studio, the rightmost -xprofile wins. */
    xp_opts.n_use_dirs = 0;
    xp_opts.profile_name = NULL;
  }
  xp_opts.mode = m;
  const char *name = colon && colon[1] ? colon + 1 : NULL;
  if (m == XP_MODE_COLLECT) {
    xp_opts.profile_name = name ? xstrdup(name) : NULL;
  } else if (name) {
    push(&xp_opts.use_dirs, &xp_opts.n_use_dirs, name);
  }
  return true;
}

/* A value with %XX escapes decoded (xstrdup'd): GCC ends a plugin
 * argument's value at a second '=', so the driver sends '=' as %3D. */
static char *percent_decode(const char *v) {
  char *out = xstrdup(v), *o = out;
  for (const char *p = v; *p; p++) {
    unsigned x;
    if (p[0] == '%' && sscanf(p + 1, "%2x", &x) == 1 && ISXDIGIT(p[1]) && ISXDIGIT(p[2])) {
      *o++ = (char)x;
      p += 2;
    } else {
      *o++ = *p;
    }
  }
  *o = 0;
  return out;
}

/* KEY=V, a decimal number from LO to HI, into *out. */
static bool parse_number(const char *key, const char *v, unsigned long lo,
                         unsigned long hi, unsigned *out) {
  char *end;
  errno = 0;
  unsigned long n = strtoul(v, &end, 10);
  if (!*v || *end || errno || n < lo || n > hi || v[0] == '-') {
    error("xprof: %<%s=%s%>: expected a number from %lu to %lu", key, v, lo, hi);
    return false;
  }
  *out = (unsigned)n;
  return true;
}

static bool parse_args(struct plugin_name_args *info) {
  xp_opts.update = XP_UPDATE_THREAD;
  xp_opts.warn_missing = true;
  xp_opts.tls_counters = true;
  xp_opts.values_per_site = 4;
  xp_opts.hot_inline = 400;
  xp_opts.salvage = XPROF_SALVAGE_DEFAULT_PERCENT;
  xp_opts.cold_inline = 12;
  xp_opts.hot_inline_growth = 10;
  for (int i = 0; i < info->argc; i++) {
    /* Every value decoded: the drivers send '=' as %3D (see percent_decode). */
    const char *k = info->argv[i].key;
    const char *v = info->argv[i].value ? percent_decode(info->argv[i].value) : NULL;
    bool needs_value = true;
    if (strcmp(k, "xprofile") == 0 && v) {
      if (!parse_xprofile(v))
        return false;
    } else if (strcmp(k, "object-prefix-map") == 0 && v) {
      if (!strchr(v, '='))
        error("xprof: %<object-prefix-map=%s%>: expected %<OLD%%3DNEW%>", v);
      else
        push(&xp_opts.object_prefix_map, &xp_opts.n_object_prefix_map, v);
    } else if (strcmp(k, "pathmap") == 0 && v) {
      if (!strchr(v, ':')) {
        error("xprof: %<pathmap=%s%>: expected %<COLLECT_PREFIX:USE_PREFIX%>", v);
        return false;
      }
      push(&xp_opts.pathmap, &xp_opts.n_pathmap, v);
    } else if (strcmp(k, "update") == 0 && v) {
      if (strcmp(v, "thread") == 0)
        xp_opts.update = XP_UPDATE_THREAD;
      else if (strcmp(v, "atomic") == 0)
        xp_opts.update = XP_UPDATE_ATOMIC;
      else if (strcmp(v, "single") == 0)
        xp_opts.update = XP_UPDATE_SINGLE;
      else {
        error("xprof: %<update=%s%>: expected thread, atomic or single", v);
        return false;
      }
    } else if (strcmp(k, "values-per-site") == 0 && v) {
      if (!parse_number(k, v, 1, 64, &xp_opts.values_per_site))
        return false;
    } else if (strcmp(k, "hot-inline") == 0 && v) {
      if (!parse_number(k, v, 0, 100000, &xp_opts.hot_inline))
        return false;
    } else if (strcmp(k, "hot-inline-growth") == 0 && v) {
      if (!parse_number(k, v, 0, 1000, &xp_opts.hot_inline_growth))
        return false;
    } else if (strcmp(k, "salvage") == 0 && v) {
      if (!parse_number(k, v, 0, 100, &xp_opts.salvage))
        return false;
    } else if (strcmp(k, "cold-inline") == 0 && v) {
      if (!parse_number(k, v, 0, 1000, &xp_opts.cold_inline))
        return false;
    } else if (strcmp(k, "tcov-dir") == 0 && v) {
      xp_opts.coverage = XPROF_COVERAGE_ASKED;
      xp_opts.coverage_dir = v;
    } else if (strcmp(k, "skip-functions") == 0 && v) {
      push_patterns(&xp_opts.skip.functions, &xp_opts.skip.n_functions, v);
    } else if (strcmp(k, "skip-files") == 0 && v) {
      push_patterns(&xp_opts.skip.files, &xp_opts.skip.n_files, v);
    } else {
      needs_value = false;
      if (v)
        ; /* flags below take no value */
      else if (strcmp(k, "verbose") == 0)
        xp_opts.verbose = true;
      else if (strcmp(k, "all-edges") == 0)
        xp_opts.all_edges = true;
      else if (strcmp(k, "cfg-dump") == 0)
        xp_opts.cfg_dump = true;
      else if (strcmp(k, "no-missing-warning") == 0)
        xp_opts.warn_missing = false;
      else if (strcmp(k, "no-tls-counters") == 0)
        xp_opts.tls_counters = false;
      else if (strcmp(k, "tcov") == 0)
        xp_opts.coverage = XPROF_COVERAGE_ASKED;
      else if (strcmp(k, "no-coverage-table") == 0)
        xp_opts.coverage = XPROF_COVERAGE_OFF;
      else if (strcmp(k, "no-salvage") == 0)
        xp_opts.salvage = 101;
      else if (strcmp(k, "no-asm-counters") == 0)
        xp_opts.no_asm_counters = true;
      else if (strcmp(k, "use-flags-added") == 0)
        ; /* its place on the command line is what counts: plain_options.cc */
      else
        needs_value = true;
      if (needs_value || v) {
        error("xprof: unknown plugin argument %<-fplugin-arg-%s-%s%s%s%>; "
              "see the xprof documentation for the arguments it knows",
              info->base_name, k, v ? "=" : "", v ? v : "");
        return false;
      }
    }
  }
  if (xp_opts.mode == XP_MODE_NONE) {
    error("xprof: no mode given: add "
          "%<-fplugin-arg-%s-xprofile=collect[:NAME]%> or "
          "%<-fplugin-arg-%s-xprofile=use[:NAME]%>",
          info->base_name, info->base_name);
    return false;
  }
  return true;
}

static const pass_data xp_pass_data = {
    SIMPLE_IPA_PASS, /* type */
    "xprof",         /* name */
    OPTGROUP_NONE,   /* optinfo_flags */
    TV_NONE,         /* tv_id */
    0,               /* properties_required */
    0,               /* properties_provided */
    0,               /* properties_destroyed */
    0,               /* todo_flags_start */
    TODO_dump_symtab /* todo_flags_finish */
};

class xp_pass : public simple_ipa_opt_pass {
public:
  xp_pass(gcc::context *ctx) : simple_ipa_opt_pass(xp_pass_data, ctx) {}
  /* lto1 skips the small IPA passes anyway; the work is done at compile
   * time, and the data travels in the LTO object. */
  bool gate(function *) override { return !in_lto_p && !seen_error(); }
  unsigned int execute(function *) override {
    /* Both modes must see the same graphs: which calls surely return is
     * settled here, before either changes a function, and after thunks
     * have bodies (a thunk returns when its target does). */
    xp_expand_thunks();
    xp_find_returning_functions();
    xp_object_path(); /* first: takes out what a driver shipped (distcc) */
    if (xp_opts.mode == XP_MODE_COLLECT)
      xp_collect_execute();
    else
      xp_use_execute();
    xp_forget_returning_functions();
    return 0;
  }
};

/* Collect mode: the time profile's test at each function's entry, after
 * inlining (collect.cc says why), as late as GIMPLE goes. */
static const pass_data xp_first_run_pass_data = {
    GIMPLE_PASS,              /* type */
    "xprof_first_run",        /* name */
    OPTGROUP_NONE,            /* optinfo_flags */
    TV_NONE,                  /* tv_id */
    PROP_cfg | PROP_ssa,      /* properties_required */
    0,                        /* properties_provided */
    0,                        /* properties_destroyed */
    0,                        /* todo_flags_start */
    0                         /* todo_flags_finish */
};

class xp_first_run_pass : public gimple_opt_pass {
public:
  xp_first_run_pass(gcc::context *ctx) : gimple_opt_pass(xp_first_run_pass_data, ctx) {}
  bool gate(function *) override { return !in_lto_p && !seen_error(); }
  unsigned int execute(function *) override { return xp_first_run_execute(); }
};

static void insert_pass_after(struct plugin_name_args *info, opt_pass *pass,
                              const char *reference) {
  struct register_pass_info where;
  where.pass = pass;
  where.reference_pass_name = reference;
  where.ref_pass_instance_number = 1;
  where.pos_op = PASS_POS_INSERT_AFTER;
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &where);
}

int plugin_init(struct plugin_name_args *info,
                struct plugin_gcc_version *version) {
  if (!plugin_default_version_check(version, &gcc_version)) {
    error("xprof: this plugin was built for GCC %s and cannot run in this "
          "compiler (GCC %s); rebuild xprof against it",
          gcc_version.basever, version->basever);
    return 1;
  }
  register_callback(info->base_name, PLUGIN_INFO, NULL, &xp_plugin_info);
  if (!parse_args(info))
    return 1;
  /* GCC's own instrumentation or profile feedback beside xprof's: the code
   * xprof sees differs from the other build's (every procedure's profile
   * would mismatch), or two profiles set the same counts.  The drivers
   * refuse the options by name; this catches -fplugin= users. */
  const char *native = profile_arc_flag            ? "-fprofile-arcs"
                       : flag_branch_probabilities ? "-fbranch-probabilities"
                       : flag_auto_profile         ? "-fauto-profile"
                                                   : NULL;
  if (native) {
    error("xprof: %qs (GCC%'s own profiling, also set by %s) cannot be "
          "combined with xprof%'s %s mode; use one or the other",
          native,
          profile_arc_flag            ? "-fprofile-generate and --coverage"
          : flag_branch_probabilities ? "-fprofile-use"
                                      : "-fauto-profile=FILE",
          xp_opts.mode == XP_MODE_COLLECT ? "collect" : "use");
    return 1;
  }
  /* GCC's -f[no-]profile-partial-training, where the user gave it. */
  xp_opts.partial_training = global_options_set.x_flag_profile_partial_training
                                 ? flag_profile_partial_training
                                 : XPROF_PARTIAL_TRAINING_DEFAULT;
  /* A --param max-inline-insns-auto or max-inline-insns-size of the
   * user's applies everywhere (hot_inline.cc); the drivers add neither. */
  if (global_options_set.x_param_max_inline_insns_auto)
    xp_opts.hot_inline = 0;
  if (global_options_set.x_param_max_inline_insns_size)
    xp_opts.cold_inline = 0;
  /* GCC's own -fprofile-generate and -fprofile-use turn the early function
   * splitter off (ipa-split.cc): the functions it cuts in two would be
   * counted twice over, and the cut is better made with the profile.  Do
   * the same in both modes, so that both see the same functions; use mode
   * runs GCC's feedback splitter after it has set the counts.  Marked as
   * set on the command line, so optimize attributes keep it off too. */
  xp_opts.partial_inlining = flag_partial_inlining;
  flag_partial_inlining = 0;
  global_options_set.x_flag_partial_inlining = 1;
  /* Collect builds with counters in GIMPLE (not x86-64 asm, collect.cc)
   * run without loop invariant motion.  Its store motion keeps a loop's
   * counters in registers or stack slots, and a counter not updated on
   * every iteration gets a flag set beside each update so that the exits
   * store it only if it changed: two instructions where one add to
   * memory did, plus set-up and exit code on every pass through the
   * loop.  Without it the collect builds of every benchmark program ran
   * fewer instructions (docs/performance-history.md).  Asm counters stay where they are, and the pass
   * runs as in the plain build.  The pass runs after the counters are
   * placed, so both modes still see the same graphs; use builds keep it;
   * an explicit -ftree-loop-im wins.  Marked as set, so that optimize
   * attributes keep it off too. */
  if (xp_opts.mode == XP_MODE_COLLECT && !xp_counters_in_asm() &&
      !global_options_set.x_flag_tree_loop_im) {
    flag_tree_loop_im = 0;
    global_options_set.x_flag_tree_loop_im = 1;
  }
  insert_pass_after(info, new xp_pass(g), "profile");
  if (xp_opts.mode == XP_MODE_COLLECT)
    insert_pass_after(info, new xp_first_run_pass(g), "optimized");
  if (xp_opts.mode == XP_MODE_COLLECT && xp_counters_in_asm())
    insert_pass_after(info, xp_make_tls_fold_pass(), "expand");
  return 0;
}
