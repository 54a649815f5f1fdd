/*
 * xprof_rt.h - what a program built with -xprofile=collect may call of
 * the xprof runtime (libxprof_rt), for programs that want to control
 * collection: servers that never exit, test harnesses.  Both calls are
 * safe from any thread, and from a program that is not instrumented they
 * are not there: declare them weak, or call them only from collect
 * builds.
 *
 * The compilers' own calls of the same kind work as well, so that code
 * written for GCC's or clang's instrumentation needs no change:
 * __gcov_dump, __gcov_reset and __gcov_flush (gcov.h), and
 * __llvm_profile_dump, __llvm_profile_write_file, __llvm_profile_reset_
 * counters, __llvm_profile_set_filename and friends
 * (instr_prof_interface.h), mapped onto xprof_dump and xprof_reset
 * (docs/runtime.md says how each behaves).
 *
 * What the compilers and the runtime share among themselves -- the
 * descriptors and entry points of instrumented code -- is not for
 * programs: abi/xprof_abi.h.
 */
#ifndef XPROF_RT_H
#define XPROF_RT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Write the data gathered so far into the profile directory now (merging
 * with what is there) and start counting from zero again.  Returns 0, or
 * -1 after printing why on stderr; the data is then kept for the next
 * write. */
int xprof_dump(void);
/* Forget the data gathered since the last write. */
void xprof_reset(void);

#ifdef __cplusplus
}
#endif
#endif
