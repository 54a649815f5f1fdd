/*
 * plugin.cc - the xprof GCC plugin: its arguments, its diagnostics and
 * its passes.
 *
 *   gcc -fplugin=xprof.so -fplugin-arg-xprof-xprofile=collect[:NAME] ...
 *
 * One simple IPA pass, inserted right after GCC's own "profile" pass: it
 * sees every function at the point where GCC's -fprofile-generate and
 * -fprofile-use work (after early inlining and early optimizations), and
 * it emits the per-object data once.  The arguments are libxprof's
 * options (xprof_option_table), read by libxprof's parser, as the drivers
 * and the LLVM plugin read them.
 */
#include "gcc-common.h"

#include <stdarg.h>

#include "xprof-gcc.h"

int plugin_is_GPL_compatible;

xprof_options xp_opts;
bool xp_partial_inlining;

/* ---- diagnostics ------------------------------------------------------------ */

/* GCC's own option of a warning, where GCC's profile use has the same
 * warning (GCC then prints its name and applies -Wno-, -Werror= and
 * pragmas); 0: xprof's own, governed by the drivers' warning=NAME:STATE. */
static int gcc_option(enum xprof_warning w) {
  switch (w) {
  case XPROF_W_MISSING_PROFILE:
    return OPT_Wmissing_profile;
  case XPROF_W_COVERAGE_MISMATCH:
    return OPT_Wcoverage_mismatch;
  default:
    return 0;
  }
}

/* Where a message points: the function being compiled, else nowhere (the
 * translation unit). */
static location_t here(void) {
  return current_function_decl ? DECL_SOURCE_LOCATION(current_function_decl)
                               : UNKNOWN_LOCATION;
}

static void emit(void *, xprof_diag_kind kind, enum xprof_warning w, const char *text) {
  int opt = w < XPROF_N_WARNINGS ? gcc_option(w) : 0;
  char name[96];
  xprof_warning_suffix(kind, w, name, sizeof name);
  switch (kind) {
  case XPROF_DIAG_NOTE:
    inform(here(), "%s", text);
    return;
  case XPROF_DIAG_ERROR:
    error_at(here(), "%s%s", text, opt ? "" : name);
    return;
  case XPROF_DIAG_WARNING_NO_ERROR: {
    bool as_error = global_dc->warning_as_error_requested;
    global_dc->warning_as_error_requested = false;
    warning_at(here(), opt, "%s%s", text, opt ? "" : name);
    global_dc->warning_as_error_requested = as_error;
    return;
  }
  default:
    warning_at(here(), opt, "%s%s", text, opt ? "" : name);
  }
}

xprof_diag xp_diag = {&xp_opts, emit, NULL};

/* Did the command line say -Werror=NAME? */
static bool error_asked(const char *name) {
  for (unsigned i = 1; i < save_decoded_options_count; i++)
    if (save_decoded_options[i].opt_index == OPT_Werror_ && save_decoded_options[i].arg &&
        strcmp(save_decoded_options[i].arg, name) == 0)
      return true;
  return false;
}

/* GCC makes -Wcoverage-mismatch an error unless the command line says
 * otherwise (toplev.cc, process_options, after the plugins start): a
 * stale .gcda fails a build.  A stale xprof
 * profile costs the changed functions their data and nothing else, so
 * it is a warning, which -Werror and -Werror=coverage-mismatch make an
 * error as usual. */
static void stale_profiles_warn(void) {
  if (global_dc->classify_diagnostic[OPT_Wcoverage_mismatch] == DK_ERROR &&
      !error_asked("coverage-mismatch"))
    diagnostic_classify_diagnostic(global_dc, OPT_Wcoverage_mismatch, DK_UNSPECIFIED,
                                   UNKNOWN_LOCATION);
}

/* ---- arguments ------------------------------------------------------------- */

/* The plugin's help (gcc --help=plugins... prints it): the table's GCC
 * options, in GCC's spelling. */
static const char *help_text(void) {
  static char *text;
  if (text)
    return text;
  text = xstrdup("xprof: profile feedback (-xprofile=collect|use) for GCC.  In every value,\n"
                 "'=' and '%' go as %3D and %25 (GCC ends a value at a second '=').\n");
  for (const xprof_option_info *i = xprof_option_table; i->name; i++) {
    if (!(i->flags & XPROF_OPT_GCC) || (i->flags & XPROF_OPT_DRIVER))
      continue;
    char *line = xasprintf("  -fplugin-arg-xprof-%s%s%s%s: %s\n",
                           i->flags & XPROF_OPT_FLAG ? "[no-]" : "", i->name,
                           i->value ? "=" : "", i->value ? i->value : "", i->help);
    char *joined = concat(text, line, NULL);
    free(text);
    free(line);
    text = joined;
  }
  return text;
}

/* A value with %XX escapes decoded (xstrdup'd): GCC ends a plugin
 * argument's value at a second '=', so the driver sends '=' as %3D. */
static char *percent_decode(const char *v) {
  char *out = xstrdup(v), *o = out;
  for (const char *p = v; *p; p++) {
    unsigned x;
    if (p[0] == '%' && ISXDIGIT(p[1]) && ISXDIGIT(p[2]) && sscanf(p + 1, "%2x", &x) == 1) {
      *o++ = (char)x;
      p += 2;
    } else {
      *o++ = *p;
    }
  }
  *o = 0;
  return out;
}

static bool parse_args(struct plugin_name_args *info) {
  xprof_options_init(&xp_opts);
  xp_opts.compiler = XPROF_OPT_GCC;
  for (int i = 0; i < info->argc; i++) {
    char *v = info->argv[i].value ? percent_decode(info->argv[i].value) : NULL;
    xprof_error err;
    int rc = xprof_options_set(&xp_opts, info->argv[i].key, v, XPROF_OPT_GCC, &err);
    free(v);
    if (rc < 0 && err.code == XPROF_ERR_NOTFOUND) {
      error("xprof: unknown plugin argument %<-fplugin-arg-%s-%s%s%s%>; see the xprof "
            "documentation for the arguments it knows",
            info->base_name, info->argv[i].key, info->argv[i].value ? "=" : "",
            info->argv[i].value ? info->argv[i].value : "");
      return false;
    }
    if (rc < 0) {
      error("xprof: %<-fplugin-arg-%s-%s%s%s%>: %s", info->base_name, info->argv[i].key,
            info->argv[i].value ? "=" : "", info->argv[i].value ? info->argv[i].value : "",
            err.msg);
      return false;
    }
  }
  xprof_error err;
  if (xprof_options_finish(&xp_opts, &err) < 0) {
    error("xprof: %s: add %<-fplugin-arg-%s-xprofile=collect[:NAME]%> or "
          "%<-fplugin-arg-%s-xprofile=use[:NAME]%>",
          err.msg, info->base_name, info->base_name);
    return false;
  }
  return true;
}

/* GCC's -fprofile-filter-files and -fprofile-exclude-files, which choose
 * the source files GCC's own profiling instruments and reads, as the
 * plugin's filter-files and exclude-files; -fprofile-prefix-path.  False
 * after an error. */
static bool read_file_filters(void) {
  const struct {
    const char *name, *value;
  } given[] = {{"-fprofile-filter-files", flag_profile_filter_files},
               {"-fprofile-exclude-files", flag_profile_exclude_files},
               {"-fprofile-prefix-path", profile_prefix_path}};
  for (size_t k = 0; k < sizeof given / sizeof *given; k++) {
    xprof_error err;
    if (given[k].value && xprof_options_gcc_files(&xp_opts, given[k].name, given[k].value, &err) < 0) {
      error("xprof: %<%s=%s%>: %s", given[k].name, given[k].value, err.msg);
      return false;
    }
  }
  return true;
}

/* What GCC's own options say of what xprof does: the time profile
 * (-f[no-]profile-reorder-functions), partial training, value profiles
 * (-fno-profile-values), the user's inlining parameters. */
static void read_gcc_options(void) {
  xp_opts.reorder_functions = !(global_options_set.x_flag_profile_reorder_functions &&
                                !flag_profile_reorder_functions);
  xp_opts.partial_training = global_options_set.x_flag_profile_partial_training
                                 ? flag_profile_partial_training
                                 : XPROF_PARTIAL_TRAINING_DEFAULT;
  if (global_options_set.x_flag_profile_values)
    xprof_options_profile_values(&xp_opts, flag_profile_values);
  /* A --param max-inline-insns-auto or max-inline-insns-size of the
   * user's applies everywhere (hot_inline.cc); the drivers add neither. */
  if (global_options_set.x_param_max_inline_insns_auto)
    xp_opts.gcc.hot_inline = 0;
  if (global_options_set.x_param_max_inline_insns_size)
    xp_opts.gcc.cold_inline = 0;
}

/* GCC's own instrumentation or profile feedback beside xprof's: the code
 * xprof sees differs from the other build's (every procedure's profile
 * would mismatch), or two profiles set the same counts.  The drivers
 * refuse the options by name; this catches -fplugin= users. */
static bool native_profiling_refused(void) {
  const char *native = profile_arc_flag            ? "-fprofile-arcs"
                       : flag_branch_probabilities ? "-fbranch-probabilities"
                       : flag_auto_profile         ? "-fauto-profile"
                                                   : NULL;
  if (!native)
    return false;
  error("xprof: %qs (GCC%'s own profiling, also set by %s) cannot be "
        "combined with xprof%'s %s mode; use one or the other",
        native,
        profile_arc_flag            ? "-fprofile-generate and --coverage"
        : flag_branch_probabilities ? "-fprofile-use"
                                    : "-fauto-profile=FILE",
        xp_opts.mode == XPROF_MODE_COLLECT ? "collect" : "use");
  return true;
}

/* ---- passes ---------------------------------------------------------------- */

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
    stale_profiles_warn();
    xp_expand_thunks();
    xp_find_returning_functions();
    xp_object_path(); /* first: takes out what a driver shipped (distcc) */
    if (xp_opts.mode == XPROF_MODE_COLLECT)
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

/* Use mode: each function's lines before the early optimizations fold
 * some away (lines.cc). */
static const pass_data xp_note_lines_pass_data = {
    GIMPLE_PASS,       /* type */
    "xprof_note_lines", /* name */
    OPTGROUP_NONE,     /* optinfo_flags */
    TV_NONE,           /* tv_id */
    PROP_cfg,          /* properties_required */
    0,                 /* properties_provided */
    0,                 /* properties_destroyed */
    0,                 /* todo_flags_start */
    0                  /* todo_flags_finish */
};

class xp_note_lines_pass : public gimple_opt_pass {
public:
  xp_note_lines_pass(gcc::context *ctx) : gimple_opt_pass(xp_note_lines_pass_data, ctx) {}
  bool gate(function *) override { return !in_lto_p && !seen_error(); }
  unsigned int execute(function *) override {
    xp_note_lines();
    return 0;
  }
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

/* Options of GCC's that xprof sets for both modes. */
static void set_gcc_options(void) {
  /* GCC's own -fprofile-generate and -fprofile-use turn the early function
   * splitter off (ipa-split.cc): the functions it cuts in two would be
   * counted twice over, and the cut is better made with the profile.  Do
   * the same in both modes, so that both see the same functions; use mode
   * runs GCC's feedback splitter after it has set the counts.  Marked as
   * set on the command line, so optimize attributes keep it off too. */
  xp_partial_inlining = flag_partial_inlining;
  flag_partial_inlining = 0;
  global_options_set.x_flag_partial_inlining = 1;
  /* Collect builds with counters in GIMPLE (not x86-64 asm, collect.cc)
   * run without loop invariant motion.  Its store motion keeps a loop's
   * counters in registers or stack slots, and a counter not updated on
   * every iteration gets a flag set beside each update so that the exits
   * store it only if it changed: two instructions where one add to
   * memory did, plus set-up and exit code on every pass through the loop
   * (docs/gcc-plugin.md).  Asm counters stay where they are, and the pass
   * runs as in the plain build.  The pass runs after the counters are
   * placed, so both modes still see the same graphs; use builds keep it;
   * an explicit -ftree-loop-im wins.  Marked as set, so that optimize
   * attributes keep it off too. */
  if (xp_opts.mode == XPROF_MODE_COLLECT && !xp_counters_in_asm() &&
      !global_options_set.x_flag_tree_loop_im) {
    flag_tree_loop_im = 0;
    global_options_set.x_flag_tree_loop_im = 1;
  }
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version) {
  if (!plugin_default_version_check(version, &gcc_version)) {
    error("xprof: this plugin was built for GCC %s and cannot run in this "
          "compiler (GCC %s); rebuild xprof against it",
          gcc_version.basever, version->basever);
    return 1;
  }
  static struct plugin_info plugin_info = {XPROF_VERSION, NULL};
  plugin_info.help = help_text();
  register_callback(info->base_name, PLUGIN_INFO, NULL, &plugin_info);
  if (!parse_args(info) || native_profiling_refused() || !read_file_filters())
    return 1;
  read_gcc_options();
  set_gcc_options();
  if (xp_opts.mode == XPROF_MODE_USE)
    insert_pass_after(info, new xp_note_lines_pass(g), "cfg");
  insert_pass_after(info, new xp_pass(g), "profile");
  if (xp_opts.mode == XPROF_MODE_USE && xp_opts.order)
    xp_order_sections(info->base_name);
  if (xp_opts.mode == XPROF_MODE_USE)
    insert_pass_after(info, xp_make_block_layout_pass(), "bbro");
  if (xp_opts.mode == XPROF_MODE_COLLECT)
    insert_pass_after(info, new xp_first_run_pass(g), "optimized");
  if (xp_opts.mode == XPROF_MODE_COLLECT && xp_counters_in_asm())
    insert_pass_after(info, xp_make_tls_fold_pass(), "expand");
  return 0;
}
