#!/usr/bin/env bash
# What the compilers' own sample-based PGO makes of xprof's exact counts
# exported by xprof_afdo, against xprof's use build of the same training:
# the benchmark programs built as bench_programs.sh builds them, trained
# once by a collect build (-g, so that clang's tables have lines), then
# built plain, as an xprof use build, and by the bare compiler with the
# exported profile (gcc -fauto-profile, clang -fprofile-sample-use -g).
#   bench/bench_afdo.sh [--rounds N] [--compilers "gcc clang"]
#                       [--programs "sqlite lua"]
# Prints per program and compiler: CPU time of the measured input (median
# of paired rounds, least of BENCH_REPEATS runs each) of each build, each
# build against plain (median ratio, range), and the sample-profile build
# against the xprof use build (median, range, rounds it was faster).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=11 compilers="gcc clang" progs="sqlite lua"
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    --compilers) compilers=$2; shift ;;
    --programs) progs=$2; shift ;;
    *) echo "usage: bench_afdo.sh [--rounds N] [--compilers LIST] [--programs LIST]" >&2; exit 2 ;;
  esac
  shift
done
programs=$progs quick=0
. "$here/programs.sh"

for prog in $progs; do
  for cc in $compilers; do
    p=$work/p-$prog-$cc
    for kind in plain use afdo; do mkdir -p "$work/$prog-$kind-$cc"; done
    "build_$prog" "$work/$prog-plain-$cc" "$cc" ""
    "build_$prog" "$work/$prog-use-$cc" "xprof-$cc" "-g -xprofile=collect:$p"
    "run_$prog" "$work/$prog-use-$cc" train > /dev/null
    if [ "$cc" = gcc ]; then
      xprof_afdo --gcc -o "$work/$prog-$cc.afdo" "$p.profile"
      flags="-fauto-profile=$work/$prog-$cc.afdo"
    else
      xprof_afdo --llvm -o "$work/$prog-$cc.prof" "$p.profile"
      flags="-g -fprofile-sample-use=$work/$prog-$cc.prof"
    fi
    "build_$prog" "$work/$prog-use-$cc" "xprof-$cc" "-xprofile=use:$p"
    "build_$prog" "$work/$prog-afdo-$cc" "$cc" "$flags"
    for kind in plain use afdo; do
      eval "run_$prog-$kind-$cc() { run_$prog $work/$prog-$kind-$cc run; }"
    done
    time_runs "$rounds" "$prog-plain-$cc" "$prog-use-$cc" "$prog-afdo-$cc"
    echo "$prog, $cc ($rounds rounds; CPU ms median (range); ratio to plain):"
    for kind in plain use afdo; do
      read -r med lo hi < <(stats < "$work/times.$prog-$kind-$cc")
      read -r r rlo rhi < <(ratio_stats "$prog-$kind-$cc" "$prog-plain-$cc")
      printf '  %-6s %8.1f (%.1f-%.1f)  / plain %s (%s-%s)\n' "$kind" \
        "$(awk -v v="$med" 'BEGIN {print v * 1000}')" "$(awk -v v="$lo" 'BEGIN {print v * 1000}')" \
        "$(awk -v v="$hi" 'BEGIN {print v * 1000}')" "$r" "$rlo" "$rhi"
    done
    read -r med lo hi < <(ratio_stats "$prog-afdo-$cc" "$prog-use-$cc")
    echo "  sample-profile build / xprof use: $med ($lo-$hi), faster in $(rounds_faster "$prog-afdo-$cc" "$prog-use-$cc") of $rounds"
  done
done
