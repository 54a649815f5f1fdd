#!/usr/bin/env bash
# How far this machine's noise moves a paired per-round ratio: COMMAND
# timed against itself the way the benchmark scripts time two builds
# (bench/lib.sh's time_runs: alternating, rotated order, CPU time), once
# with one run per round and once keeping the least of --repeats runs
# (default 3).  A quiet machine would give 1.000 with no range; the range
# is what a difference between two builds has to beat.
#
#   bench/bench_noise.sh [--rounds N] [--repeats N] -- COMMAND [ARG...]
#
# e.g. on the builds a BENCH_KEEP=1 run of bench_programs.sh kept:
#   cd DIR/lua-gcc/nuse && bench/bench_noise.sh -- ./lua WL/run.lua 10
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=12 least_of=3
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    --repeats) least_of=$2; shift ;;
    --) shift; break ;;
    *) echo "usage: bench_noise.sh [--rounds N] [--repeats N] -- COMMAND [ARG...]" >&2; exit 2 ;;
  esac
  shift
done
(($#)) || { echo "bench_noise.sh: no command" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmd=("$@")
run_a() { "${cmd[@]}"; }
run_b() { "${cmd[@]}"; }
for repeats in 1 "$least_of"; do
  rm -f "$work/times.a" "$work/times.b"
  time_runs "$rounds" a b
  read -r m lo hi < <(ratio_stats b a)
  printf "least of %d run(s) per round, %d rounds: %.3f (%.3f-%.3f)\n" "$repeats" "$rounds" "$m" "$lo" "$hi"
done
