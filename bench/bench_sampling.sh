#!/usr/bin/env bash
# What time sampling (SUN_PROFDATA_SAMPLE=1) adds to a collect build's
# run: per program and compiler, the collect build's CPU time on the
# measured input with sampling over the same build without, in the same
# round (medians of the per-round ratios and their range, alternating
# rounds), and the samples one run takes.  Also checks that both runs
# print the same output and that the sampled profile has samples.
# These runs are short (0.1-0.4 s) and the machine noisy, so the cost is
# also taken apart on bench/sampling/spin.c, built by each compiler: what
# sampling adds to a process that does nothing (50 runs in a row: start,
# the write at exit), and to 5 s of CPU time (the signals).
#
#   bench/bench_sampling.sh [--quick] [--rounds N] [--compilers "gcc clang"]
#                           [--programs "lua bzip2 sqlite zstd"]
#
# Nothing is asserted about speed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=15 compilers="gcc clang" programs="lua bzip2 sqlite zstd" quick=0
while (($#)); do
  case $1 in
    --quick) quick=1 rounds=1 repeats=1 programs=bzip2 compilers=gcc ;;
    --rounds) rounds=$2; shift ;;
    --compilers) compilers=$2; shift ;;
    --programs) programs=$2; shift ;;
    *) echo "usage: bench_sampling.sh [--quick] [--rounds N] [--compilers LIST] [--programs LIST]" >&2; exit 2 ;;
  esac
  shift
done
. "$here/programs.sh"

# measure PROG CC: one collect build run with and without sampling.
measure() {
  local prog=$1 cc=$2 d=$work/$1-$2 bin want m lo hi samples
  bin=$(binary "$prog")
  mkdir -p "$d"
  "build_$prog" "$d" "xprof-$cc" "-xprofile=collect $(xprof_extra "$cc")"
  run_off() { SUN_PROFDATA_SAMPLE=0 "run_$prog" "$d" run; }
  run_on() { SUN_PROFDATA_SAMPLE=1 "run_$prog" "$d" run; }
  want=$(run_off)
  [ "$(run_on)" = "$want" ] || { echo "$prog/$cc: output differs with sampling" >&2; exit 1; }
  samples=$(xprof_show "$d/$bin.profile" | sed -n 's/^time samples: \([0-9]*\),.*/\1/p')
  [ -n "$samples" ] && [ "$samples" -gt 0 ] ||
    { echo "$prog/$cc: the sampled run took no samples" >&2; exit 1; }
  rm -f "$work"/times.*
  time_runs "$rounds" off on
  read -r m _ _ < <(stats < "$work/times.off")
  read -r r lo hi < <(ratio_stats on off)
  echo "| $prog | $cc | $m s | $(printf '%.3fx (%.3f-%.3f)' "$r" "$lo" "$hi") | $(rounds_faster on off) of $rounds | $samples |"
}

# apart CC: the cost per process and per second of CPU, on spin.c.
apart() {
  local cc=$1 d=$work/spin-$1 m0 m1 r lo hi
  mkdir -p "$d"
  "xprof-$cc" -O2 -xprofile=collect -o "$d/spin" "$here/sampling/spin.c"
  run_idle_off() { (cd "$d" && for _ in $(seq 50); do SUN_PROFDATA_SAMPLE=0 ./spin 0; done); }
  run_idle_on() { (cd "$d" && for _ in $(seq 50); do SUN_PROFDATA_SAMPLE=1 ./spin 0; done); }
  run_busy_off() { (cd "$d" && SUN_PROFDATA_SAMPLE=0 ./spin "$spin_n"); }
  run_busy_on() { (cd "$d" && SUN_PROFDATA_SAMPLE=1 ./spin "$spin_n"); }
  rm -f "$work"/times.*
  time_runs "$rounds" idle_off idle_on
  read -r m0 _ _ < <(stats < "$work/times.idle_off")
  read -r m1 _ _ < <(stats < "$work/times.idle_on")
  time_runs "$spin_rounds" busy_off busy_on
  read -r r lo hi < <(ratio_stats busy_on busy_off)
  echo "| $cc | $(awk -v a="$m0" -v b="$m1" 'BEGIN {printf "%.2f ms", (b - a) / 50 * 1000}') | $(printf '%.4fx (%.4f-%.4f)' "$r" "$lo" "$hi") | $(rounds_faster busy_on busy_off) of $spin_rounds |"
}
spin_n=$([ $quick = 1 ] && echo 100000000 || echo 1500000000)
spin_rounds=$([ $quick = 1 ] && echo 1 || echo 11)
echo "What sampling adds, taken apart (bench/sampling/spin.c, collect build): per"
echo "process (medians of $rounds rounds of 50 runs doing nothing), and to a run of"
echo "pure CPU time (with over without, same round, $spin_rounds rounds)."
echo
echo "| compiler | per process | CPU-bound run | rounds faster with |"
echo "|---|---|---|---|"
for cc in $compilers; do
  apart "$cc"
done
echo

echo "Collect builds' CPU time with SUN_PROFDATA_SAMPLE=1 over without, same round"
echo "(median, min-max), $rounds rounds, the measured input; samples: those of the"
echo "first sampled run."
echo
echo "| program | compiler | without | with sampling | rounds faster with | samples |"
echo "|---|---|---|---|---|---|"
for cc in $compilers; do
  for prog in $programs; do
    measure "$prog" "$cc"
  done
done
