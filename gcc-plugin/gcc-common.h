/*
 * gcc-common.h - the one place that includes GCC's plugin headers, in an
 * order that works with GCC 12 and 11 (system.h refuses to be compiled
 * as C, tree-ssanames.h needs ssa.h first), and the few differences
 * between them.  Every plugin source includes this first.
 */
#ifndef XPROF_GCC_COMMON_H
#define XPROF_GCC_COMMON_H

#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "cfganal.h"
#include "cfghooks.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-ssa.h"
#include "tree-cfg.h"
#include "tree-eh.h"
#include "tree-cfgcleanup.h"
#include "tree-into-ssa.h"
#include "stringpool.h"
#include "ssa.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "tree-iterator.h"
#include "attribs.h"
#include "cgraph.h"
#include "alloc-pool.h"
#include "symbol-summary.h"
#include "symtab-thunks.h"
#include "coverage.h"
#include "value-prof.h"
#include "stor-layout.h"
#include "langhooks.h"
#include "ipa-utils.h"
#include "predict.h"
#include "profile.h"
#include "gcov-io.h"
#include "diagnostic-core.h"
#include "memmodel.h"
#include "ggc.h"
#include "output.h"
#include "varasm.h"
#include "fold-const.h"
#include "cfgloop.h"
#include "tree-ssa-loop-niter.h"
#include "tree-inline.h"
#include "toplev.h"
#include "opts.h"
#include "diagnostic.h"
#include "file-prefix-map.h"
#include "rtl.h"
#include "insn-config.h"
#include "emit-rtl.h"
#include "recog.h"
#include "rtl-iter.h"

/* The prefix maps of profile paths: GCC 12 has its own for them
 * (-fprofile-prefix-map, and -ffile-prefix-map sets both); GCC 11 has
 * only the debug maps, which -ffile-prefix-map sets too. */
#if GCCPLUGIN_VERSION_MAJOR >= 12
#define xp_remap_profile_path(p) remap_profile_filename(p)
#else
#define xp_remap_profile_path(p) remap_debug_filename(p)
#endif

/* GCC 11 walks loops with a macro, GCC 12 with a range. */
#if GCCPLUGIN_VERSION_MAJOR >= 12
#define XP_FOR_EACH_LOOP(loop) for (auto loop : loops_list(cfun, 0))
#else
#define XP_FOR_EACH_LOOP(loop) \
  class loop *loop;            \
  FOR_EACH_LOOP(loop, 0)
#endif

#endif
