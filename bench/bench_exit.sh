#!/usr/bin/env bash
# What a run of a collect build costs besides its counting: start-up
# (relocations, the thread-local twins) and the write at exit (the
# existing profile read, merged with the run's counts and written back).
# Each program, built from Debian's sources as bench_programs.sh builds
# it, runs on next to no input, so that a run is its start-up and exit:
# zstd (37 object files, 1,300 procedures, a 390 KB profile) compresses
# 6 bytes; sqlite's shell (2 object files, 2,300 procedures, a 780 KB
# profile) reads an empty script.  Every run after the first merges, as
# training runs do.  Plain -O2, the compiler's own -fprofile-generate
# and xprof collect, both compilers, timed in one run with bench/lib.sh's
# time_runs.
#   bench/bench_exit.sh [--rounds N] [--compilers "gcc clang"] [--programs "zstd sqlite"]
#                       [--baseline OLD-BUILD]
# Prints, per program and build, the median CPU time of a run (user +
# system) over the rounds and its range, and what it costs beyond the
# plain build's.  --baseline adds the collect build of another build of
# xprof (row xprof-base: its drivers, plugins and runtime), timed in the
# same rounds: a change's effect on start-up and exit.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=30 compilers="gcc clang" progs="zstd sqlite" baseline= kinds="plain native xprof"
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    --compilers) compilers=$2; shift ;;
    --programs) progs=$2; shift ;;
    --baseline) baseline=$(cd "$2" && pwd) kinds="plain native xprof xprof-base"; shift ;;
    *) echo "usage: bench_exit.sh [--rounds N] [--compilers \"gcc clang\"] [--programs \"zstd sqlite\"] [--baseline OLD-BUILD]" >&2; exit 2 ;;
  esac
  shift
done
for prog in $progs; do
  case $prog in zstd | sqlite) ;; *) echo "bench_exit.sh: no program $prog (zstd, sqlite)" >&2; exit 2 ;; esac
done
programs=$progs quick=1
. "$here/programs.sh"
printf 'tiny\n' > "$work/tiny.txt"
# exit_run PROG DIR: one run on next to no input.
exit_run() {
  case $1 in
    zstd) (cd "$2" && LLVM_PROFILE_FILE=$2/p.profraw ./zstd -q -f -6 -c "$work/tiny.txt") ;;
    sqlite) (cd "$2" && LLVM_PROFILE_FILE=$2/p.profraw ./sqlite3 :memory: < /dev/null) ;;
  esac
}

names=() per=20
for prog in $progs; do
  for cc in $compilers; do
    for kind in $kinds; do
      d=$work/$prog-$kind-$cc
      mkdir -p "$d"
      case $kind in
        plain) "build_$prog" "$d" "$cc" "" ;;
        native) "build_$prog" "$d" "$cc" "-fprofile-generate" ;;
        xprof) "build_$prog" "$d" "xprof-$cc" "-xprofile=collect" ;;
        xprof-base) "build_$prog" "$d" "$baseline/tools/xprof-$cc" "-xprofile=collect" ;;
      esac
      names+=("$prog-$kind-$cc")
      # $per runs a time: bash's time counts milliseconds
      # (its own counter: time_runs's i is not to be touched)
      eval "run_$prog-$kind-$cc() { local j; for ((j = 0; j < per; j++)); do exit_run $prog \"$d\"; done; }"
      # the first run writes the profile; the measured ones merge into it
      exit_run "$prog" "$d" > /dev/null
    done
  done
done
time_runs "$rounds" "${names[@]}"

echo "CPU time of a run on next to no input (ms; $per runs timed together, median of $rounds rounds, least of $repeats each; range):"
for prog in $progs; do
  for cc in $compilers; do
    read -r base _ < <(stats < "$work/times.$prog-plain-$cc")
    for kind in $kinds; do
      read -r m lo hi < <(stats < "$work/times.$prog-$kind-$cc")
      awk -v k="$prog-$kind-$cc" -v m="$m" -v lo="$lo" -v hi="$hi" -v b="$base" -v n=$per \
        'BEGIN {printf "  %-20s %6.2f (%.2f-%.2f)  beyond plain %+.2f\n", k, 1000 * m / n, 1000 * lo / n, 1000 * hi / n, 1000 * (m - b) / n}'
    done
  done
done
