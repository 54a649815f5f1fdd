#!/usr/bin/env bash
# How well time samples give GCC a program's branches, measured without a
# clock: each two-way block's probability as xprof-gcc's use build of the
# samples gets it, against the same block's in a use build of an exact
# training on the same input (the same source and compiler, so the same
# blocks; the plugin's dump records them: dump_branches in use.cc).
# Deterministic for given samples, where CPU time on a shared machine is
# not: a change to how samples become counts can be judged by it first.
#   bench/bench_sample_accuracy.sh [--programs "bzip2 sqlite"]
#                                  [--sample-seconds N] [--samples DIR]
#                                  [--from samples|clang|clang-samples]
# --samples: as bench_afdo.sh's (kept in DIR/PROG-gcc, taken when none).
# --from clang: instead of samples, the exact training of an xprof-clang
# collect build (-g) on the same input, which GCC's use build places by
# source line where the graphs differ (bench_afdo.sh's xcross row).
# --from clang-samples: the samples of clang's plain -g build (kept in
# DIR/PROG-clang), which GCC's use build places by source line: how
# clang's line table (its line-0 code, its columns) serves samples.
# Prints per program the mean |p_exact - p_samples| over the branches both
# builds have, weighted by the exact counts (0: the same probabilities,
# 1: every branch the other way round), the branches compared, how many
# of them that ran in training the samples give no count (and their share
# of the exact counts), and the functions with the largest share of the
# error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
progs="bzip2 sqlite" sample_seconds=30 samples_dir= from=samples
while (($#)); do
  case $1 in
    --programs) progs=$2; shift ;;
    --sample-seconds) sample_seconds=$2; shift ;;
    --samples) samples_dir=$(realpath -m "$2"); shift ;;
    --from) from=$2; shift ;;
    *) echo "usage: bench_sample_accuracy.sh [--programs LIST] [--sample-seconds N] [--samples DIR] [--from samples|clang|clang-samples]" >&2; exit 2 ;;
  esac
  shift
done
programs=$progs quick=0
. "$here/programs.sh"

# branches_of PROG DIR PROFILE OUT: DIR built in use mode of PROFILE with
# the plugin's dump on; its branch records in OUT, the dumps removed.
branches_of() {
  "build_$1" "$2" xprof-gcc "-xprofile=use:$3 -fdump-ipa-all"
  find "$2" -name '*.xprof' -exec grep -h '^xprof: branch ' {} + > "$4" || true
  find "$2" -name '*.[0-9][0-9][0-9][ilrt].*' -delete
}

for prog in $progs; do
  bin=$(binary "$prog")
  exact=$work/$prog-exact
  mkdir -p "$exact" "$work/$prog-samples"
  "build_$prog" "$exact" xprof-gcc "-g -xprofile=collect:$work/p-$prog"
  "run_$prog" "$exact" train > /dev/null
  branches_of "$prog" "$exact" "$work/p-$prog" "$work/$prog-exact.txt"
  if [ "$from" = clang ]; then
    # Built where it was trained: the use build finds the data by path.
    "build_$prog" "$work/$prog-samples" xprof-clang "-g -xprofile=collect:$work/q-$prog"
    "run_$prog" "$work/$prog-samples" train > /dev/null
    branches_of "$prog" "$work/$prog-samples" "$work/q-$prog" "$work/$prog-samples.txt"
  else
    s=$(take_samples "$prog" "$([ "$from" = clang-samples ] && echo clang || echo gcc)" \
      "$sample_seconds" "$samples_dir")
    branches_of "$prog" "$work/$prog-samples" "$s/$bin" "$work/$prog-samples.txt"
  fi
  case $from in
    clang) what="clang's training" ;;
    clang-samples) what="clang's build's samples" ;;
    *) what=samples ;;
  esac
  echo "$prog, gcc: the branches of $what against an exact training (|p_exact - p_$from|, weighted by the exact counts):"
  # Per branch of both (samples first, then the exact training's):
  # function, block, count, probability.
  # The blocks that ran in training but have no count from the samples
  # (GCC optimizes them for size) are counted apart.
  awk -v from="$what" '
    FNR == NR { p[$3 " " $4] = $6; c[$3 " " $4] = $5; next }
    ($3 " " $4) in p && $5 > 0 {
      d = ($6 - p[$3 " " $4]) / 10000; if (d < 0) d = -d
      sum += $5 * d; w += $5; n++; fs[$3] += $5 * d; fw[$3] += $5
      if (c[$3 " " $4] == 0) { zn++; zw += $5 }
    }
    END {
      if (!w) { print "  no branch in common"; exit }
      printf "  %.4f over %d branches\n", sum / w, n
      printf "  %d of them without a count from the %s, %.1f%% of the exact weight\n", zn, from, 100 * zw / w
      for (f in fs)
        if (fs[f] > 0)
          printf "F %.4f %s %.3f\n", fs[f] / sum, f, fs[f] / fw[f]
    }' "$work/$prog-samples.txt" "$work/$prog-exact.txt" > "$work/$prog-accuracy.txt"
  grep -v '^F ' "$work/$prog-accuracy.txt"
  grep '^F ' "$work/$prog-accuracy.txt" | sort -k2,2gr | head -5 |
    awk '{ printf "    %-28s %.3f, %4.1f%% of the error\n", $3, $4, 100 * $2 }'
done
