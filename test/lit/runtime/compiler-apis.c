// The dump and reset calls of GCC's and clang's own runtimes, for programs
// written for them, keep their meaning (runtime/compat.c).  GCC's:
// __gcov_reset forgets the set-up (counter 0's 5), __gcov_dump writes the
// work (counter 1's 10) and stops writing, so the tear-down's 100 are not
// written at exit; a child forked after the dump counts afresh and writes
// (counter 0's 7).  clang's (argument "llvm"): __llvm_profile_reset_counters
// forgets 4, __llvm_profile_write_file writes 10 and counting goes on,
// __llvm_profile_dump writes the 7 since and stops writing, so a write
// after it does nothing (the 50 are not written), and
// __llvm_profile_set_filename names no file; __llvm_profile_get_filename
// and __llvm_profile_get_path_prefix say where the writes go (the program's
// default, llvm.profile/feedback) and the atexit registration succeeds.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %cc_rt %s -o %t/gcov
// RUN: %t/gcov
// RUN: xprof_btoa gcov.profile - | FileCheck --check-prefix=GCOV %s
// GCOV:      PROC: main 0xc0 2 0 0 0
// GCOV-NEXT: 0 7
// GCOV-NEXT: 1 10
// RUN: xprof_show gcov.profile | FileCheck --check-prefix=RUNS %s
// RUNS: training runs: 2
// RUN: %cc_rt %s -o %t/llvm
// RUN: %t/llvm llvm
// RUN: xprof_btoa llvm.profile - | FileCheck --check-prefix=LLVM %s
// LLVM:      PROC: main 0xc0 2 0 0 0
// LLVM-NEXT: 0 0
// LLVM-NEXT: 1 17
// RUN: not ls %t/elsewhere.profraw
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "handmade.h"

void __gcov_dump(void);
void __gcov_reset(void);
int __llvm_profile_write_file(void);
int __llvm_profile_dump(void);
void __llvm_profile_set_filename(const char *);
void __llvm_profile_reset_counters(void);
const char *__llvm_profile_get_filename(void);
const char *__llvm_profile_get_path_prefix(void);
int __llvm_profile_register_write_file_atexit(void);

static uint64_t counters[2];
static const struct xprof_abi_proc procs[] = {
    {"main", 0xc0, 0, 2, counters, 0, 0, NULL, NULL},
};
XP_OBJECT(obj, "/handmade/apis.o", 0xc0, 1, NULL, procs, counters)

static void count(int which, int times) {
  for (int i = 0; i < times; i++)
    XP_INC(counters, which);
}

static int gcov(void) {
  count(0, 5); /* set-up */
  __gcov_reset();
  count(1, 10); /* the work */
  __gcov_dump();
  __gcov_dump(); /* a second dump does nothing */
  pid_t pid = fork();
  if (pid == 0) {
    count(0, 7);
    return 0;
  }
  int status;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)
    return 1;
  count(1, 100); /* tear-down */
  return 0;
}

static int llvm(void) {
  __llvm_profile_set_filename("elsewhere.profraw");
  const char *file = __llvm_profile_get_filename();
  const char *prefix = __llvm_profile_get_path_prefix();
  if (!file || strcmp(file, "llvm.profile/feedback") != 0 || !prefix ||
      strcmp(prefix, "llvm.profile/") != 0 || __llvm_profile_register_write_file_atexit() != 0)
    return 2;
  count(0, 4);
  __llvm_profile_reset_counters();
  count(1, 10);
  if (__llvm_profile_write_file() != 0)
    return 1;
  count(1, 7);
  if (__llvm_profile_dump() != 0)
    return 1;
  count(1, 50);
  return __llvm_profile_write_file();
}

int main(int argc, char **argv) {
  return argc > 1 && strcmp(argv[1], "llvm") == 0 ? llvm() : gcov();
}
