#!/usr/bin/env bash
# What the compilers' own sample-based PGO makes of xprof_afdo's exports,
# against plain -O2 and xprof's use build of the same training: the
# benchmark programs built as bench_programs.sh builds them, then
#   plain    -O2
#   use      an xprof use build (trained by a collect build with -g, so
#            that clang's tables have lines)
#   afdo     the bare compiler with those exact counts exported
#            (gcc -fauto-profile, clang -g -fprofile-sample-use)
#   cross    the same, with the exact counts of the other compiler's
#            collect build: a profile that outlives its compiler
#   sampled  the bare compiler with the time samples of a plain -O2 -g
#            build run under xprof_collect on the training input, again
#            and again for --sample-seconds (a sample per tick of CPU
#            time: a few hundred a second)
#   xcross   xprof's own use build (xprof-CC -xprofile=use) of the other
#            compiler's training: salvage, and the lines where the
#            graphs do not match
#   xsampled xprof's own use build of those time samples (by lines)
#   bench/bench_afdo.sh [--rounds N] [--compilers "gcc clang"]
#                       [--programs "sqlite lua"] [--sample-seconds N]
#                       [--kinds "xcross xsampled"] [--samples DIR]
# --kinds: only those rows besides plain and use (default all).
# --samples: the samples kept in DIR (DIR/PROG-CC), taken there when DIR
# has none for a program and compiler, used again when it has: two
# versions of xprof compared on the same samples (each run of the
# sampling takes others, and the rows move by a few percent with them).
# Prints per program and compiler: CPU time of the measured input (median
# of paired rounds, least of BENCH_REPEATS runs each) of each build, each
# build against plain and against the use build (median ratio, range),
# and the samples placed on lines.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=11 compilers="gcc clang" progs="sqlite lua" sample_seconds=30 samples_dir=
kinds="plain use afdo cross sampled xcross xsampled"
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    --compilers) compilers=$2; shift ;;
    --programs) progs=$2; shift ;;
    --sample-seconds) sample_seconds=$2; shift ;;
    --kinds) kinds="plain use $2"; shift ;;
    --samples) samples_dir=$(realpath -m "$2"); shift ;;
    *) echo "usage: bench_afdo.sh [--rounds N] [--compilers LIST] [--programs LIST] [--sample-seconds N] [--kinds LIST] [--samples DIR]" >&2; exit 2 ;;
  esac
  shift
done
programs=$progs quick=0
. "$here/programs.sh"

# export CC PROFILE OUT: the profile as CC's sample profile; its flags.
export_for() {
  if [ "$1" = gcc ]; then
    xprof_afdo --gcc -o "$3.afdo" "$2" >&2
    echo "-fauto-profile=$3.afdo"
  else
    xprof_afdo --llvm -o "$3.prof" "$2" >&2
    echo "-g -fprofile-sample-use=$3.prof"
  fi
}

# has KIND: is that row asked for?
has() { [[ " $kinds " == *" $1 "* ]]; }

for prog in $progs; do
  bin=$(binary "$prog")
  for cc in $compilers; do
    p=$work/p-$prog-$cc
    other=$([ "$cc" = gcc ] && echo clang || echo gcc)
    for kind in plain use afdo cross sampled xcross xsampled; do mkdir -p "$work/$prog-$kind-$cc"; done
    "build_$prog" "$work/$prog-plain-$cc" "$cc" ""
    "build_$prog" "$work/$prog-use-$cc" "xprof-$cc" "-g -xprofile=collect:$p"
    "run_$prog" "$work/$prog-use-$cc" train > /dev/null
    flags=$(export_for "$cc" "$p.profile" "$work/$prog-$cc")
    "build_$prog" "$work/$prog-use-$cc" "xprof-$cc" "-xprofile=use:$p"
    if has afdo; then "build_$prog" "$work/$prog-afdo-$cc" "$cc" "$flags"; fi
    if has cross || has xcross; then
      # Trained by the other compiler's collect build.
      "build_$prog" "$work/$prog-cross-$cc" "xprof-$other" "-g -xprofile=collect:$p-x"
      "run_$prog" "$work/$prog-cross-$cc" train > /dev/null
      flags=$(export_for "$cc" "$p-x.profile" "$work/$prog-$cc-cross")
      # xprof's own use of it, where its data are (the same objects).
      "build_$prog" "$work/$prog-cross-$cc" "xprof-$cc" "-xprofile=use:$p-x" \
        2> "$work/xcross-$prog-$cc.err"
      grep -h 'placed by source line\|salvaged' "$work/xcross-$prog-$cc.err" | sed 's/^/  xcross: /' >&2 || true
      cp "$work/$prog-cross-$cc/$bin" "$work/$prog-xcross-$cc/"
      if has cross; then "build_$prog" "$work/$prog-cross-$cc" "$cc" "$flags"; fi
    fi
    placed="no samples taken"
    if has sampled || has xsampled; then
      # Samples of a plain -O2 -g build; the profile directory of its own
      # (the training's other commands write theirs there too, unused).
      # (--samples: the sampled build is kept beside its samples, whose
      # lines come from its tables.)
      s=$(take_samples "$prog" "$cc" "$sample_seconds" "$samples_dir")
      placed=$(xprof_afdo --gcc -o /dev/null "$s/$bin.profile" 2>&1 | grep -o '[0-9]* of [0-9]* samples' || echo "all samples")
      "build_$prog" "$work/$prog-xsampled-$cc" "xprof-$cc" "-xprofile=use:$s/$bin"
      flags=$(export_for "$cc" "$s/$bin.profile" "$work/$prog-$cc-sampled")
      if has sampled; then "build_$prog" "$work/$prog-sampled-$cc" "$cc" "$flags"; fi
    fi
    timed=()
    for kind in $kinds; do
      eval "run_$prog-$kind-$cc() { run_$prog $work/$prog-$kind-$cc run; }"
      timed+=("$prog-$kind-$cc")
    done
    time_runs "$rounds" "${timed[@]}"
    echo "$prog, $cc ($rounds rounds; CPU ms median (range); ratios: median (range)); $placed placed:"
    for kind in $kinds; do
      report_row "$kind" "$prog-$kind-$cc" "$prog-plain-$cc" "$prog-use-$cc"
    done
  done
done
