#!/usr/bin/env bash
# What a shell's subshells cost a collect build.  bash 5.2 from Debian's
# source is built plain (-O2), with GCC's -fprofile-generate and with
# xprof-gcc -xprofile=collect; the collect build is trained on bash's own
# test suite, so that its profile is as large as a user's training would
# leave it.  The measured command is a loop of command substitutions:
# every one forks a child that writes its counts at exit (xprof's reads,
# merges and writes the profile under its lock; GCC's merges one .gcda
# per object file).  With --baseline, the same objects are linked again
# by another build of xprof (its driver and runtime), trained the same.
#   bench/bench_subshells.sh [--rounds N] [--children N] [--baseline OLD-BUILD]
#                            [--no-train]
# Prints, per build, the median CPU time of the loop (user + system, the
# children's included) over the rounds and its range, and the cost of a
# child beyond the plain build's; with --baseline, the ratio of the two
# xprof builds round by round.  Sources: BENCH_SOURCES (default
# BUILD/bench-sources); BENCH_KEEP=1 keeps the builds.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=7 children=200 baseline= train=1
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    --children) children=$2; shift ;;
    --baseline) baseline=$(cd "$2" && pwd); shift ;;
    --no-train) train=0 ;;
    *) echo "usage: bench_subshells.sh [--rounds N] [--children N] [--baseline OLD-BUILD] [--no-train]" >&2; exit 2 ;;
  esac
  shift
done
src=${BENCH_SOURCES:-$build/bench-sources}/bash
deb_source "$src" bash
work=$(mktemp -d)
if [ "${BENCH_KEEP:-0}" = 1 ]; then
  trap 'echo "builds kept in $work" >&2' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi

# build KIND CC FLAGS: bash configured and made in $work/KIND.
build_bash() {
  cp -a "$src/src" "$work/$1"
  (cd "$work/$1" && ./configure -q CC="$2" CFLAGS="-O2 $3" LDFLAGS="$3" > /dev/null &&
     make -s -j"$(nproc)" > "$work/$1.log" 2>&1) ||
    { echo "bench_subshells.sh: the $1 build of bash failed ($work/$1.log)" >&2; exit 1; }
}
build_bash plain gcc ""
build_bash native gcc -fprofile-generate
build_bash xprof xprof-gcc -xprofile=collect
kinds="plain native xprof"
if [ -n "$baseline" ]; then
  # The same objects, linked by the other build's driver with its runtime.
  cp -a "$work/xprof" "$work/xprof-base"
  rm -f "$work/xprof-base/bash"
  make -s -C "$work/xprof-base" CC="$baseline/tools/xprof-gcc" bash > /dev/null 2>&1
  kinds="$kinds xprof-base"
fi

# The training: the test suite, run from tests/ (where the profile goes);
# without it, one run of the loop.
cmd="for i in \$(seq $children); do x=\$(echo hi); done"
if [ $train = 1 ]; then
  (cd "$work/xprof" && make -s check > "$work/check.log" 2>&1) || true
else
  (cd "$work/xprof/tests" && ../bash -c "$cmd")
fi
trained=$work/xprof/tests/bash.profile
[ -f "$trained/feedback" ] || { echo "bench_subshells.sh: the training wrote no $trained" >&2; exit 1; }
echo "training: $(xprof_show "$trained" | head -1)"

for kind in $kinds; do
  case $kind in
    xprof*)
      # a copy of the trained profile each, which every round merges into
      rm -rf "$work/$kind.profile"
      cp -a "$trained" "$work/$kind.profile"
      eval "run_$kind() { (cd '$work/$kind' && SUN_PROFDATA_DIR='$work' SUN_PROFDATA='$kind.profile' ./bash -c '$cmd'); }" ;;
    *) eval "run_$kind() { (cd '$work/$kind' && ./bash -c '$cmd'); }" ;;
  esac
done
# shellcheck disable=SC2086
time_runs "$rounds" $kinds

echo "CPU s of $children command substitutions (median of $rounds rounds, least of $repeats each; range):"
read -r base _ < <(stats < "$work/times.plain")
for kind in $kinds; do
  read -r m lo hi < <(stats < "$work/times.$kind")
  awk -v k="$kind" -v m="$m" -v lo="$lo" -v hi="$hi" -v b="$base" -v n="$children" \
    'BEGIN {printf "  %-11s %6.3f (%.3f-%.3f)  a child beyond plain %.2f ms\n", k, m, lo, hi, 1000 * (m - b) / n}'
done
if [ -n "$baseline" ]; then
  read -r r lo hi < <(ratio_stats xprof xprof-base)
  echo "xprof / xprof-base: $r ($lo-$hi), faster in $(rounds_faster xprof xprof-base) of $rounds rounds"
fi
