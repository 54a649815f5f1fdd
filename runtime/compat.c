/*
 * compat.c - the dump and reset calls of GCC's and clang's own profiling
 * runtimes, for programs written for them.
 *
 * Programs that train with -fprofile-generate often call their runtime:
 * a server's signal handler dumps before _exit, a spawner dumps before
 * exec, a test harness resets after its set-up and dumps after the part
 * it means to profile.  Built with -xprofile=collect instead, such a
 * program would not link (undefined __gcov_dump), so the runtime answers
 * these names with its own writes, keeping each call's meaning:
 *
 * - __gcov_dump and __llvm_profile_dump write what was counted and stop
 *   writing for the process (the counts of what follows are not
 *   written at exit, nor at exec, unload, a signal or the interval),
 *   until a reset: a harness's tear-down stays out of the profile.  A
 *   second dump does nothing.
 * - __llvm_profile_write_file writes and goes on counting (clang's file
 *   then holds everything at exit; xprof merges the rest in then).
 * - __gcov_reset and __llvm_profile_reset_counters forget what was
 *   counted since the last write and end the stop of a dump.
 * - __gcov_flush (GCC before 11) writes and goes on counting.
 * - __llvm_profile_set_filename, __llvm_profile_initialize_file and
 *   __llvm_profile_initialize do nothing: where an xprof profile goes is
 *   SUN_PROFDATA's and SUN_PROFDATA_DIR's business (docs/runtime.md),
 *   and a .profraw name means nothing to it.
 * - __llvm_profile_get_filename and __llvm_profile_get_path_prefix say
 *   where the writes go (DIR/feedback, DIR/), for a harness that looks
 *   for the profile; __llvm_profile_register_write_file_atexit does
 *   nothing more: the runtime writes at exit anyway.
 * The rest of clang's runtime interface (the raw format's buffers and
 * sections, set_file_object) has no xprof meaning: a program that calls
 * it does not link.
 *
 * Weak, so that the real runtime wins where a program links it too.
 */
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "rt_internal.h"

int rt_dumped;

/* A dump that stops writing: returns 0, or -1 after saying why. */
static int dump_once(void) {
  if (!rt_enter_unless_inside("a dump"))
    return -1;
  int rc = 0;
  if (!rt_dumped) {
    rc = rt_dump_locked(NULL, RT_ON_REQUEST);
    rt_dumped = 1;
  }
  rt_leave();
  return rc;
}

/* A write that goes on counting, unless a dump stopped writing. */
static int write_now(void) {
  if (!rt_enter_unless_inside("a write"))
    return -1;
  int rc = rt_dumped ? 0 : rt_dump_locked(NULL, RT_ON_REQUEST);
  rt_leave();
  return rc;
}

#define RT_COMPAT RT_EXPORT __attribute__((weak))

RT_COMPAT void __gcov_dump(void) { dump_once(); }
RT_COMPAT void __gcov_reset(void) { xprof_reset(); }
RT_COMPAT void __gcov_flush(void) { write_now(); }

RT_COMPAT int __llvm_profile_dump(void) { return dump_once(); }
RT_COMPAT int __llvm_profile_write_file(void) { return write_now(); }
RT_COMPAT void __llvm_profile_reset_counters(void) { xprof_reset(); }
RT_COMPAT void __llvm_profile_set_filename(const char *name) { (void)name; }
RT_COMPAT void __llvm_profile_initialize_file(void) {}
RT_COMPAT void __llvm_profile_initialize(void) {}

/* The executable's first registered object, or the first of any module
 * when it has none.  clang's answer is that of the runtime copy in the
 * caller's module, the executable's for a program; libraries register
 * first (their constructors run before the executable's).  Caller holds
 * rt_lock. */
static const struct xprof_abi_object *program_object(void) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    for (const struct xprof_abi_object *o = rt_objects; o; o = o->next)
      if (strcmp(rt_object_module(o), exe) == 0)
        return o;
  }
  return rt_objects;
}

/* DIR/SUFFIX, DIR the profile directory of program_object(), or the
 * program's default when no object is registered.  A new string each
 * call, as clang's runtime gives, that the caller does not free; NULL
 * without memory. */
static const char *profile_path(const char *suffix) {
  struct xprof_abi_object none;
  memset(&none, 0, sizeof none);
  rt_enter();
  const struct xprof_abi_object *o = program_object();
  char *dir = rt_profile_dir(o ? o : &none);
  char *path = dir ? xprof_format("%s/%s", dir, suffix) : NULL;
  xprof_free(dir);
  rt_leave();
  return path;
}

RT_COMPAT const char *__llvm_profile_get_filename(void) {
  return profile_path(XPROF_FEEDBACK_FILE);
}
RT_COMPAT const char *__llvm_profile_get_path_prefix(void) { return profile_path(""); }
RT_COMPAT int __llvm_profile_register_write_file_atexit(void) { return 0; }
