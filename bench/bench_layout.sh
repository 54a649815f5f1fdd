#!/usr/bin/env bash
# What -xprofile_order (the functions in the order of the profile's call
# graph, at the link) is worth: the benchmark programs built as
# bench_programs.sh builds them, trained on the training input, then
# built plain, as a use build, and as a use build with -xprofile_order
# (the same profile), each linked by GNU ld unless --linker says another.
#   bench/bench_layout.sh [--rounds N] [--compilers "gcc clang"]
#                         [--programs "sqlite lua"] [--linker bfd|gold|lld]
#                         [--anchors]
# --anchors adds the rows to measure against, with the same training:
#   native   the compiler's own PGO (-fprofile-generate / -fprofile-use)
#   bolt     the same, linked with --emit-relocs (GCC: without
#            -freorder-blocks-and-partition, which BOLT cannot take),
#            then llvm-bolt-16 instrumented, trained, and applied as
#            CPython's --enable-bolt does (ext-TSP blocks, hfsort+
#            functions, split functions)
#   lld      (clang) native PGO linked by lld, which sorts functions by
#            the call-graph profile clang puts in the objects
# Prints per program and compiler: CPU time of the measured input (median
# of paired rounds, least of BENCH_REPEATS runs each) of each build and
# the ratio of the ordered build to the use build (median, range, rounds
# the ordered one was faster); I1 misses and instructions of one run
# under cachegrind's cache simulation (deterministic); .text bytes; and
# the CPU time of the use build's link step alone, without and with the
# order (LINK_ROUNDS paired rounds, default 9).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=15 compilers="gcc clang" progs="sqlite lua" linker=bfd anchors=0
link_rounds=${LINK_ROUNDS:-9}
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    --compilers) compilers=$2; shift ;;
    --programs) progs=$2; shift ;;
    --linker) linker=$2; shift ;;
    --anchors) anchors=1 ;;
    *) echo "usage: bench_layout.sh [--rounds N] [--compilers LIST] [--programs LIST] [--linker bfd|gold|lld] [--anchors]" >&2; exit 2 ;;
  esac
  shift
done
programs=$progs quick=0
. "$here/programs.sh"
# The anchors' tools: BOLT 16, and lld for clang's row.
((anchors)) && ensure_debs bolt-16 lld

# cache_sim PROG DIR: "I1-misses instructions" of one measured run.
cache_sim() {
  (cd "$2" && valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
     --trace-children=yes --trace-children-skip='*/cksum,*/wc' \
     bash -c "work=$work wl=$wl quick=$quick; $(declare -f "run_$1"); run_$1 \"\$PWD\" run" 2>&1 >/dev/null) |
    awk '/I1  misses:/ {gsub(",", "", $NF); m += $NF} /I   refs:/ {gsub(",", "", $NF); r += $NF}
         END {print m, r}'
}
llvm_profdata() { echo "$(dirname "$(readlink -f "$(command -v clang)")")/llvm-profdata"; }
# native_pgo PROG CC DIR FLAGS: the compiler's own PGO build in DIR,
# generated, trained and used, FLAGS at every step.
native_pgo() {
  local prog=$1 cc=$2 d=$3 flags=$4
  mkdir -p "$d"
  if [ "$cc" = gcc ]; then
    find "$d" -name '*.gcda' -delete
    "build_$prog" "$d" gcc "-fprofile-generate -fprofile-update=single $flags"
    "run_$prog" "$d" train > /dev/null
    "build_$prog" "$d" gcc "-fprofile-use -Wno-missing-profile $flags"
  else
    rm -f "$d"/prof-*.profraw
    "build_$prog" "$d" clang "-fprofile-generate $flags"
    LLVM_PROFILE_FILE=$d/prof-%p.profraw "run_$prog" "$d" train > /dev/null
    "$(llvm_profdata)" merge -o "$d.profdata" "$d"/prof-*.profraw
    "build_$prog" "$d" clang \
      "-fprofile-use=$d.profdata -Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date $flags"
  fi
}

# bolt_build PROG CC DIR FLAGS: native PGO for BOLT, then BOLT trained on
# the same input.
bolt_build() {
  local prog=$1 cc=$2 d=$3 flags="$4 -Wl,--emit-relocs"
  [ "$cc" = gcc ] && flags="$flags -fno-reorder-blocks-and-partition"
  native_pgo "$prog" "$cc" "$d" "$flags"
  bolt_optimize "$d/$(binary "$prog")" "$d" "run_$prog" "$d" train
}

for prog in $progs; do
  bin=$(binary "$prog")
  for cc in $compilers; do
    p=$work/p-$prog-$cc
    ld="-fuse-ld=$linker"
    [ "$cc" = clang ] && ld="$ld -Wno-unused-command-line-argument" # -fuse-ld= in compiles
    kinds="plain use order"
    ((anchors)) && kinds="$kinds native bolt"
    ((anchors)) && [ "$cc" = clang ] && kinds="$kinds lld"
    for kind in $kinds; do mkdir -p "$work/$prog-$kind-$cc"; done
    "build_$prog" "$work/$prog-plain-$cc" "$cc" "$ld"
    "build_$prog" "$work/$prog-use-$cc" "xprof-$cc" "-xprofile=collect:$p $ld"
    "run_$prog" "$work/$prog-use-$cc" train > /dev/null
    "build_$prog" "$work/$prog-use-$cc" "xprof-$cc" "-xprofile=use:$p $ld"
    "build_$prog" "$work/$prog-order-$cc" "xprof-$cc" \
      "-xprofile=use:$p -xprofile_pathmap=$work/$prog-use-$cc:$work/$prog-order-$cc -xprofile_order $ld"
    if ((anchors)); then
      native_pgo "$prog" "$cc" "$work/$prog-native-$cc" "$ld"
      bolt_build "$prog" "$cc" "$work/$prog-bolt-$cc" "$ld"
      [ "$cc" = clang ] && native_pgo "$prog" "$cc" "$work/$prog-lld-$cc" \
        "-fuse-ld=lld -Wno-unused-command-line-argument"
    fi
    names=()
    for kind in $kinds; do
      eval "run_$prog-$kind-$cc() { run_$prog $work/$prog-$kind-$cc run; }"
      names+=("$prog-$kind-$cc")
    done
    time_runs "$rounds" "${names[@]}"
    echo "$prog, $cc, linked by $linker ($rounds rounds; CPU ms median (range); I1 misses; instructions; .text bytes; file bytes):"
    for kind in $kinds; do
      d=$work/$prog-$kind-$cc
      read -r med lo hi < <(stats < "$work/times.$prog-$kind-$cc")
      read -r i1 ir < <(cache_sim "$prog" "$d")
      printf '  %-6s %8.1f (%.1f-%.1f)  I1 %12s  Ir %14s  text %9s  file %9s\n' "$kind" \
        "$(awk -v v="$med" 'BEGIN {print v * 1000}')" "$(awk -v v="$lo" 'BEGIN {print v * 1000}')" \
        "$(awk -v v="$hi" 'BEGIN {print v * 1000}')" "$i1" "$ir" "$(text_bytes "$d/$bin")" \
        "$(stat -c %s "$d/$bin")"
    done
    read -r med lo hi < <(ratio_stats "$prog-order-$cc" "$prog-use-$cc")
    echo "  order / use: $med ($lo-$hi), faster in $(rounds_faster "$prog-order-$cc" "$prog-use-$cc") of $rounds"
    # The link alone, again on the same objects: what the order costs it
    # (the driver reads the objects' calls and computes the order).
    eval "run_link-$prog-use-$cc() { link_$prog $work/$prog-use-$cc xprof-$cc '-xprofile=use:$p $ld'; }"
    eval "run_link-$prog-order-$cc() { link_$prog $work/$prog-order-$cc xprof-$cc \
      '-xprofile=use:$p -xprofile_pathmap=$work/$prog-use-$cc:$work/$prog-order-$cc -xprofile_order $ld'; }"
    time_runs "$link_rounds" "link-$prog-use-$cc" "link-$prog-order-$cc"
    read -r lu _ _ < <(stats < "$work/times.link-$prog-use-$cc")
    read -r lo_ _ _ < <(stats < "$work/times.link-$prog-order-$cc")
    read -r med lo hi < <(ratio_stats "link-$prog-order-$cc" "link-$prog-use-$cc")
    printf '  link CPU ms: use %.1f, use + order %.1f; order / use %s (%s-%s), %s rounds\n' \
      "$(awk -v v="$lu" 'BEGIN {print v * 1000}')" "$(awk -v v="$lo_" 'BEGIN {print v * 1000}')" \
      "$med" "$lo" "$hi" "$link_rounds"
    read -r med lo hi < <(ratio_stats "$prog-use-$cc" "$prog-plain-$cc")
    echo "  use / plain: $med ($lo-$hi)"
    for kind in $kinds; do
      case $kind in native|bolt|lld) ;; *) continue ;; esac
      read -r med lo hi < <(ratio_stats "$prog-use-$cc" "$prog-$kind-$cc")
      echo "  use / $kind: $med ($lo-$hi), use faster in $(rounds_faster "$prog-use-$cc" "$prog-$kind-$cc") of $rounds"
    done
  done
done
