#!/usr/bin/env bash
# What a run of a collect build costs besides its counting: start-up
# (relocations, the thread-local twins) and the write at exit (the
# existing profile read, merged with the run's counts and written back).
# zstd (built from Debian's sources as bench_programs.sh builds it, 37
# object files) compresses a 6-byte input, so the program's own work is
# next to nothing; every run after the first merges, as training runs do.
# Plain -O2, the compiler's own -fprofile-generate and xprof collect, both
# compilers, timed in one run with bench/lib.sh's time_runs.
#   bench/bench_exit.sh [--rounds N] [--compilers "gcc clang"]
# Prints, per build, the median CPU time of a run (user + system) over
# the rounds and its range, and what it costs beyond the plain build's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=30 compilers="gcc clang"
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    --compilers) compilers=$2; shift ;;
    *) echo "usage: bench_exit.sh [--rounds N] [--compilers \"gcc clang\"]" >&2; exit 2 ;;
  esac
  shift
done
programs=zstd quick=1
. "$here/programs.sh"
printf 'tiny\n' > "$work/tiny.txt"

names=() per=20
for cc in $compilers; do
  for kind in plain native xprof; do
    d=$work/$kind-$cc
    mkdir -p "$d"
    case $kind in
      plain) build_zstd "$d" "$cc" "" ;;
      native) build_zstd "$d" "$cc" "-fprofile-generate" ;;
      xprof) build_zstd "$d" "xprof-$cc" "-xprofile=collect" ;;
    esac
    names+=("$kind-$cc")
    # $per runs a time: bash's time counts milliseconds
    eval "run_$kind-$cc() { (cd \"$d\" && for ((i = 0; i < per; i++)); do LLVM_PROFILE_FILE=$d/p.profraw ./zstd -q -f -6 -c \"$work/tiny.txt\"; done); }"
    # the first run writes the profile; the measured ones merge into it
    (cd "$d" && LLVM_PROFILE_FILE=$d/p.profraw ./zstd -q -f -6 -c "$work/tiny.txt" > /dev/null)
  done
done
time_runs "$rounds" "${names[@]}"

echo "CPU time of a run on a 6-byte input (ms; $per runs timed together, median of $rounds rounds, least of $repeats each; range):"
for cc in $compilers; do
  read -r base _ < <(stats < "$work/times.plain-$cc")
  for kind in plain native xprof; do
    read -r m lo hi < <(stats < "$work/times.$kind-$cc")
    awk -v k="$kind-$cc" -v m="$m" -v lo="$lo" -v hi="$hi" -v b="$base" -v n=$per \
      'BEGIN {printf "  %-13s %6.2f (%.2f-%.2f)  beyond plain %+.2f\n", k, 1000 * m / n, 1000 * lo / n, 1000 * hi / n, 1000 * (m - b) / n}'
  done
done
