#!/usr/bin/env bash
# How large a profile is against the compiler's own data on the same
# program and training: lua, bzip2, sqlite and zstd from Debian's
# sources, built as bench_programs.sh builds them, each trained once on
# the training input by the compiler's own -fprofile-generate and by
# xprof collect.  The native data is what the training run writes: GCC's
# .gcda files (all of them), clang's .profraw (and the .profdata that
# llvm-profdata makes of it, which the use build reads).  xprof's is the
# profile directory's feedback file (the counts, which every training run
# rewrites) and its shapes file (written once per build, as GCC's .gcno
# files are; before binary data 4.8 the shapes were in the feedback
# file).
#   bench/bench_profile_size.sh [--compilers "gcc clang"]
#                               [--programs "lua bzip2 sqlite zstd"] [--baseline OLD-BUILD]
# --baseline: the same for another build of xprof (a column beside).
# Prints a markdown table; sizes in bytes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
compilers="gcc clang" programs="lua bzip2 sqlite zstd" baseline=
while (($#)); do
  case $1 in
    --compilers) compilers=$2; shift ;;
    --programs) programs=$2; shift ;;
    --baseline) baseline=$(cd "$2" && pwd); shift ;;
    *) echo "usage: bench_profile_size.sh [--compilers LIST] [--programs LIST] [--baseline OLD-BUILD]" >&2; exit 2 ;;
  esac
  shift
done
quick=1
. "$here/programs.sh"

# xprof_size PROG CC DRIVER: "feedback-bytes shapes-bytes" of a trained
# collect build (0 without a shapes file).
xprof_size() {
  local d=$work/$1-$2-$RANDOM
  mkdir -p "$d"
  "build_$1" "$d" "$3" "-xprofile=collect:$d/train"
  "run_$1" "$d" train > /dev/null
  echo "$(stat -c %s "$d/train.profile/feedback") $(stat -c %s "$d/train.profile/shapes" 2>/dev/null || echo 0)"
}
native_size() { # PROG CC: "raw-bytes indexed-bytes"
  local d=$work/$1-$2-native
  mkdir -p "$d"
  "build_$1" "$d" "$2" "-fprofile-generate"
  (export LLVM_PROFILE_FILE=$d/train.profraw; "run_$1" "$d" train > /dev/null)
  if [ "$2" = gcc ]; then
    echo "$(find "$d" -name '*.gcda' -printf '%s\n' | awk '{s += $1} END {print s}') -"
  else
    "$(dirname "$(readlink -f "$(command -v clang)")")/llvm-profdata" merge -o "$d/train.profdata" "$d/train.profraw"
    echo "$(stat -c %s "$d/train.profraw") $(stat -c %s "$d/train.profdata")"
  fi
}

head="| program | compiler | native (raw) | native (indexed) | xprof feedback | xprof shapes | feedback / native raw |"
[ -z "$baseline" ] || head="$head baseline feedback | baseline shapes | baseline feedback / native raw |"
echo "$head"
echo "$head" | sed 's/[^|][^|]*/---/g'
for prog in $programs; do
  for cc in $compilers; do
    read -r raw indexed < <(native_size "$prog" "$cc")
    read -r size shapes < <(xprof_size "$prog" "$cc" "xprof-$cc")
    line="| $prog | $cc | $raw | $indexed | $size | $shapes | $(awk -v a="$size" -v b="$raw" 'BEGIN {printf "%.2f", a / b}') |"
    if [ -n "$baseline" ]; then
      read -r bsize bshapes < <(xprof_size "$prog" "$cc" "$baseline/tools/xprof-$cc")
      line="$line $bsize | $bshapes | $(awk -v a="$bsize" -v b="$raw" 'BEGIN {printf "%.2f", a / b}') |"
    fi
    echo "$line"
  done
done
