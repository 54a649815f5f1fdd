#!/usr/bin/env bash
# Stale profiles: what salvage keeps of profile feedback after small
# source edits (bench/salvage/edits.py: in each program a statement, a
# branch and a call added, and a loop restructured, in functions its
# workloads spend their time in).  Per program and compiler, trained on
# the original sources, then built from the edited ones:
#   plain      plain -O2 of the edited sources (the baseline);
#   fresh      xprof use with a profile trained on the edited sources;
#   stale      xprof use with the old profile, salvage off (each changed
#              function compiled without profile data);
#   salvaged   xprof use with the old profile, salvage on (the default).
#
#   bench/bench_salvage.sh [--quick] [--rounds N] [--compilers "gcc clang"]
#                          [--programs "lua bzip2 sqlite zstd"] [--callgrind]
#
# Prints, per program and compiler, each use build's CPU time over
# plain's in the same round (medians and ranges, alternating rounds, the
# measured input, which training never saw), the share of the fresh
# profile's speedup that the salvaged build keeps ((1 - salvaged) / (1 -
# fresh), from the medians; "-" when the fresh profile gains nothing
# measurable), and what the salvaged build's compiler said.  --callgrind:
# also each build's instructions on the measured input over plain's, and
# the share kept by that count (repeatable where CPU times on a shared
# machine are not quite).  Checks first
# that every build prints the plain build's output, and fails when a
# salvaged build salvaged nothing.  Nothing is asserted about speed.
# BENCH_XPROF_GCC_FLAGS and BENCH_XPROF_CLANG_FLAGS add options to every
# xprof build, as in bench_programs.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=11 compilers="gcc clang" programs="lua bzip2 sqlite zstd" quick=0 callgrind=0
while (($#)); do
  case $1 in
    --quick) quick=1 rounds=1 repeats=1 programs=bzip2 ;;
    --rounds) rounds=$2; shift ;;
    --compilers) compilers=$2; shift ;;
    --programs) programs=$2; shift ;;
    --callgrind) callgrind=1 ;;
    *) echo "usage: bench_salvage.sh [--quick] [--rounds N] [--compilers LIST] [--programs LIST] [--callgrind]" >&2; exit 2 ;;
  esac
  shift
done
. "$here/programs.sh"

# Builds from edited sources when `editing` is 1.
editing=0
edit_sources() { [ "$editing" = 0 ] || python3 "$here/salvage/edits.py" "$1" "$2"; }

# measure PROG CC: the four builds, checked and timed; a line of $results.
measure() {
  local prog=$1 cc=$2 d=$work/$1-$2 bin v m lo hi want line
  bin=$(binary "$prog")
  mkdir -p "$d/old" "$d/plain" "$d/fresh" "$d/stale" "$d/salvaged"
  editing=0
  local x
  x=$(xprof_extra "$cc")
  "build_$prog" "$d/old" "xprof-$cc" "-xprofile=collect $x"
  "run_$prog" "$d/old" train >/dev/null
  editing=1
  "build_$prog" "$d/plain" "$cc" ""
  "build_$prog" "$d/fresh" "xprof-$cc" "-xprofile=collect $x"
  "run_$prog" "$d/fresh" train >/dev/null
  "build_$prog" "$d/fresh" "xprof-$cc" "-xprofile=use:$bin $x" 2> "$d/fresh.log"
  # The old profile, its object files known by their paths in old/.
  local old="-xprofile=use:$d/old/$bin -xprofile_pathmap=$d/old:$d/stale $x"
  "build_$prog" "$d/stale" "xprof-$cc" "$old -xprofile_salvage=no" 2> "$d/stale.log"
  old="-xprofile=use:$d/old/$bin -xprofile_pathmap=$d/old:$d/salvaged $x"
  "build_$prog" "$d/salvaged" "xprof-$cc" "$old" 2> "$d/salvaged.log"
  want=$("run_$prog" "$d/plain" run)
  for v in fresh stale salvaged; do
    [ "$("run_$prog" "$d/$v" run)" = "$want" ] ||
      { echo "$prog/$cc/$v: output differs from the plain build's" >&2; exit 1; }
    eval "run_$v() { run_$prog \"$d/$v\" run; }"
  done
  eval "run_plain() { run_$prog \"$d/plain\" run; }"
  rm -f "$work"/times.*
  time_runs "$rounds" plain fresh stale salvaged
  read -r m _ _ < <(stats < "$work/times.plain")
  line="$prog $cc $m"
  for v in fresh stale salvaged; do
    read -r m lo hi < <(ratio_stats "$v" plain)
    line="$line $(printf "%.3f/%.3f/%.3f" "$m" "$lo" "$hi")"
  done
  # What the compilers said: functions salvaged, and refused.
  local said refused
  said=$({ grep -ho '[0-9]* functions\? changed since the training build; [a-z]* profile data was salvaged ([0-9]*%' "$d/salvaged.log" || true; } |
         awk '{n += $1; s = s (s ? "," : "") substr($NF, 2)} END {printf "%d (%s)", n, s ? s : "-"}')
  refused=$(grep -c 'too little of it matches' "$d/salvaged.log" || true)
  echo "$line $(grep -c 'does not match this compilation' "$d/stale.log" || true) ${said// /_} $refused" >> "$results"
  if [ $callgrind = 1 ]; then
    local ir base
    base=$(instructions "$prog" "$d/plain")
    ir=$base
    for v in fresh stale salvaged; do
      ir="$ir $(instructions "$prog" "$d/$v")"
    done
    echo "$prog $cc $ir" >> "$results.ir"
  fi
  # The edits change the functions they touch: salvage must take some.
  [ "${said%% *}" != 0 ] || { echo "$prog/$cc: no function was salvaged" >&2; salvaged_none=1; }
}
salvaged_none=0

results=$work/results
: > "$results"
for cc in $compilers; do
  for prog in $programs; do
    measure "$prog" "$cc"
  done
done

echo "CPU time over plain -O2 of the edited sources, same round (median min-max), $rounds rounds;"
echo "kept: the share of the fresh profile's speedup that salvage keeps."
echo
echo "| program | compiler | plain | fresh | stale, salvage off | salvaged | kept | changed functions (stale build) | salvaged (share of their counts matched) | refused |"
echo "|---|---|---|---|---|---|---|---|---|---|"
awk '{
  split($4, f, "/"); split($5, s, "/"); split($6, v, "/")
  kept = (1 - f[1] > 0.005) ? sprintf("%.0f%%", 100 * (1 - v[1]) / (1 - f[1])) : "-"
  printf "| %s | %s | %.3f s | %.3fx (%.3f-%.3f) | %.3fx (%.3f-%.3f) | %.3fx (%.3f-%.3f) | %s | %s | %s | %s |\n",
         $1, $2, $3, f[1], f[2], f[3], s[1], s[2], s[3], v[1], v[2], v[3], kept, $7, $8, $9
}' "$results" | sed 's/_/ /g'
if [ -s "$results.ir" ]; then
  echo
  echo "Instructions (callgrind) on the measured input, over plain's:"
  echo
  echo "| program | compiler | plain | fresh | stale, salvage off | salvaged | kept |"
  echo "|---|---|---|---|---|---|---|"
  awk '{
    f = $4 / $3; s = $5 / $3; v = $6 / $3
    kept = (1 - f > 0.0005) ? sprintf("%.0f%%", 100 * (1 - v) / (1 - f)) : "-"
    printf "| %s | %s | %.1f M | %.4f | %.4f | %.4f | %s |\n", $1, $2, $3 / 1e6, f, s, v, kept
  }' "$results.ir"
fi
exit $salvaged_none
