#!/usr/bin/env bash
# Is a change to xprof faster or slower?  Builds the benchmark programs
# (lua, bzip2, sqlite, zstd from Debian's sources) with two builds of
# xprof, OLD and NEW: each its own collect build, trained on the training
# input, and its use build of that profile; then times NEW's builds
# against OLD's in paired rounds on the measured input, which training
# never saw (where bench_same_code.sh finds that a change moves code,
# this says what the move is worth).
#
#   bench/bench_ab.sh OLD-BUILD NEW-BUILD [--compilers "gcc clang"]
#                     [--programs "lua bzip2 sqlite zstd"] [--rounds N]
#                     [--callgrind]
#
# Prints a row per program and compiler: CPU time of OLD's use build,
# NEW's use build over OLD's (median of the rounds' ratios, range, rounds
# NEW was faster), the same for the collect builds (the cost of
# collection), and with --callgrind each build's instructions on the
# measured input.  Every build's output must equal plain -O2's.  Rounds
# (11 by default) run each build BENCH_REPEATS times (3) and keep the
# least (lib.sh's time_runs).
set -euo pipefail
(($# >= 2)) || { echo "usage: bench_ab.sh OLD-BUILD NEW-BUILD [--compilers LIST] [--programs LIST] [--rounds N] [--callgrind]" >&2; exit 2; }
old=$(cd "$1" && pwd) new=$(cd "$2" && pwd)
shift 2
compilers="gcc clang" programs="lua bzip2 sqlite zstd" rounds=11 callgrind=0
while (($#)); do
  case $1 in
    --compilers) compilers=$2; shift ;;
    --programs) programs=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --callgrind) callgrind=1 ;;
    *) echo "bench_ab.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
BUILD=$new
. "$(dirname "$0")/lib.sh"
quick=0
. "$here/programs.sh"
repeats=${BENCH_REPEATS:-3}

# build_pair PROG CC: plain, then OLD's and NEW's collect builds (each
# trained) and use builds, in $work/PROG-CC/{plain,old-*,new-*}.
build_pair() {
  local prog=$1 cc=$2 d=$work/$1-$2 x side
  local driver=$([ "$cc" = gcc ] && echo xprof-gcc || echo xprof-clang)
  local plain_cc=$([ "$cc" = gcc ] && echo gcc-12 || echo clang-14)
  mkdir -p "$d/plain"
  "build_$prog" "$d/plain" "$plain_cc" ""
  "run_$prog" "$d/plain" run > "$d/plain.out"
  for side in old new; do
    x=$([ $side = old ] && echo "$old" || echo "$new")
    # Both builds in one directory, as a user's tree: the profile knows
    # the objects by their paths.
    mkdir -p "$d/$side"
    "build_$prog" "$d/$side" "$x/tools/$driver" "-xprofile=collect:$d/$side"
    "run_$prog" "$d/$side" train > /dev/null
    cp -r "$d/$side" "$d/$side-collect"
    "build_$prog" "$d/$side" "$x/tools/$driver" "-xprofile=use:$d/$side"
    mv "$d/$side" "$d/$side-use"
    for k in collect use; do
      "run_$prog" "$d/$side-$k" run | cmp -s - "$d/plain.out" ||
        { echo "bench_ab.sh: $prog $cc: $side's $k build's output differs from plain -O2's" >&2; exit 1; }
    done
  done
}

# ratios A B: per round, B's time over A's (times.A, times.B).
ratios() { paste "$work/times.$1" "$work/times.$2" | awk '{printf "%.6f\n", $2 / $1}'; }
summary() { # the median ratio (range), rounds faster
  local s faster
  s=$(ratios "$1" "$2" | stats)
  faster=$(ratios "$1" "$2" | awk '$1 < 1' | wc -l)
  echo "$s" | awk -v f="$faster" -v n="$rounds" '{printf "%.3f (%.3f-%.3f), %d of %d", $1, $2, $3, f, n}'
}

printf '| program | compiler | OLD use ms | NEW use / OLD use | NEW collect / OLD collect |%s\n' \
  "$([ $callgrind = 1 ] && echo ' instructions OLD use / NEW use | OLD collect / NEW collect |')"
printf '|---|---|---|---|---|%s\n' "$([ $callgrind = 1 ] && echo '---|---|')"
for cc in $compilers; do
  for prog in $programs; do
    build_pair "$prog" "$cc"
    d=$work/$prog-$cc
    for k in old-use new-use old-collect new-collect; do
      eval "run_$k() { run_$prog \"$d/$k\" run; }"
      rm -f "$work/times.$k"
    done
    time_runs "$rounds" old-use new-use old-collect new-collect
    ms=$(stats < "$work/times.old-use" | awk '{printf "%.1f", $1 * 1000}')
    row="| $prog | $cc | $ms | $(summary old-use new-use) | $(summary old-collect new-collect) |"
    if [ $callgrind = 1 ]; then
      i=()
      for k in old-use new-use old-collect new-collect; do i+=("$(instructions "$prog" "$d/$k")"); done
      row+=" ${i[0]} / ${i[1]} | ${i[2]} / ${i[3]} |"
    fi
    echo "$row"
  done
done
