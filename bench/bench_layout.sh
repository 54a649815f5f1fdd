#!/usr/bin/env bash
# What -xprofile_order (the functions in the order of the profile's call
# graph, at the link) is worth: the benchmark programs built as
# bench_programs.sh builds them, trained on the training input, then
# built plain, as a use build, and as a use build with -xprofile_order
# (the same profile), each linked by GNU ld unless --linker says another.
#   bench/bench_layout.sh [--rounds N] [--compilers "gcc clang"]
#                         [--programs "sqlite lua"] [--linker bfd|gold|lld]
# Prints per program and compiler: CPU time of the measured input (median
# of paired rounds, least of BENCH_REPEATS runs each) of each build and
# the ratio of the ordered build to the use build (median, range, rounds
# the ordered one was faster); I1 misses and instructions of one run
# under cachegrind's cache simulation (deterministic); .text bytes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=15 compilers="gcc clang" progs="sqlite lua" linker=bfd
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    --compilers) compilers=$2; shift ;;
    --programs) progs=$2; shift ;;
    --linker) linker=$2; shift ;;
    *) echo "usage: bench_layout.sh [--rounds N] [--compilers LIST] [--programs LIST] [--linker bfd|gold|lld]" >&2; exit 2 ;;
  esac
  shift
done
programs=$progs quick=0
. "$here/programs.sh"

# cache_sim PROG DIR: "I1-misses instructions" of one measured run.
cache_sim() {
  (cd "$2" && valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
     --trace-children=yes --trace-children-skip='*/cksum,*/wc' \
     bash -c "work=$work wl=$wl quick=$quick; $(declare -f "run_$1"); run_$1 \"\$PWD\" run" 2>&1 >/dev/null) |
    awk '/I1  misses:/ {gsub(",", "", $NF); m += $NF} /I   refs:/ {gsub(",", "", $NF); r += $NF}
         END {print m, r}'
}
text_bytes() { size -A "$1" | awk '$1 ~ /^\.text/ {s += $2} END {print s}'; }

for prog in $progs; do
  bin=$(binary "$prog")
  for cc in $compilers; do
    p=$work/p-$prog-$cc
    ld="-fuse-ld=$linker"
    [ "$cc" = clang ] && ld="$ld -Wno-unused-command-line-argument" # -fuse-ld= in compiles
    for kind in plain use order; do mkdir -p "$work/$prog-$kind-$cc"; done
    "build_$prog" "$work/$prog-plain-$cc" "$cc" "$ld"
    "build_$prog" "$work/$prog-use-$cc" "xprof-$cc" "-xprofile=collect:$p $ld"
    "run_$prog" "$work/$prog-use-$cc" train > /dev/null
    "build_$prog" "$work/$prog-use-$cc" "xprof-$cc" "-xprofile=use:$p $ld"
    "build_$prog" "$work/$prog-order-$cc" "xprof-$cc" \
      "-xprofile=use:$p -xprofile_pathmap=$work/$prog-use-$cc:$work/$prog-order-$cc -xprofile_order $ld"
    for kind in plain use order; do
      eval "run_$prog-$kind-$cc() { run_$prog $work/$prog-$kind-$cc run; }"
    done
    time_runs "$rounds" "$prog-plain-$cc" "$prog-use-$cc" "$prog-order-$cc"
    echo "$prog, $cc, linked by $linker ($rounds rounds; CPU ms median (range); I1 misses; instructions; .text bytes):"
    for kind in plain use order; do
      d=$work/$prog-$kind-$cc
      read -r med lo hi < <(stats < "$work/times.$prog-$kind-$cc")
      read -r i1 ir < <(cache_sim "$prog" "$d")
      printf '  %-6s %8.1f (%.1f-%.1f)  I1 %12s  Ir %14s  text %9s\n' "$kind" \
        "$(awk -v v="$med" 'BEGIN {print v * 1000}')" "$(awk -v v="$lo" 'BEGIN {print v * 1000}')" \
        "$(awk -v v="$hi" 'BEGIN {print v * 1000}')" "$i1" "$ir" "$(text_bytes "$d/$bin")"
    done
    read -r med lo hi < <(ratio_stats "$prog-order-$cc" "$prog-use-$cc")
    echo "  order / use: $med ($lo-$hi), faster in $(rounds_faster "$prog-order-$cc" "$prog-use-$cc") of $rounds"
    read -r med lo hi < <(ratio_stats "$prog-use-$cc" "$prog-plain-$cc")
    echo "  use / plain: $med ($lo-$hi)"
  done
done
