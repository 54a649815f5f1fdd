/*
 * first_run.c - the time profile: in which order the procedures of the
 * process first ran.
 *
 * The compiled code of each procedure tests its first-run word at entry
 * and, while it is still zero, stores there the next rank, which it takes
 * from XPROF_FIRST_RUNS with a relaxed atomic add: no call, so that a
 * leaf function stays a leaf.  Two threads that enter a procedure at once
 * may both store; either rank will do.  The words are never reset
 * (xprof_reset forgets counts, not order), a forked child goes on from
 * its parent's ranks, and runs merge by the smallest rank (libxprof), as
 * GCC's own time profiles do.
 */
#include "rt_internal.h"

RT_EXPORT uint64_t XPROF_FIRST_RUNS;

/* The ranks up to here were given before this process was forked: its
 * parent's, which the parent writes (as it writes its counts).  A write
 * of the child leaves out a procedure that counted nothing there and
 * holds only such a rank (dump.c, take_object). */
uint64_t rt_first_run_floor;

void rt_first_run_fork_child(void) {
  rt_first_run_floor = __atomic_load_n(&XPROF_FIRST_RUNS, __ATOMIC_RELAXED);
}
