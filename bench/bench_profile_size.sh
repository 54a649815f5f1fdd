#!/usr/bin/env bash
# How large a profile is against the compiler's own data on the same
# program and training: lua, bzip2, sqlite and zstd from Debian's
# sources, built as bench_programs.sh builds them, each trained once on
# the training input by the compiler's own -fprofile-generate and by
# xprof collect.  The native data is what the training run writes: GCC's
# .gcda files (all of them), clang's .profraw (and the .profdata that
# llvm-profdata makes of it, which the use build reads).  xprof's is the
# profile directory's feedback file, and of it the shapes (the bytes of
# the "#+ SHAPE" lines of its text, decoded).
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

# shape_bytes PROFILE: the bytes of its shapes.
shape_bytes() {
  xprof_btoa "$1" - | awk '$1 == "#+" && $2 == "SHAPE" {print $3}' |
    python3 -c 'import base64, sys; print(sum(len(base64.b64decode(l.strip())) for l in sys.stdin))'
}
# xprof_size PROG CC DRIVER: "feedback-bytes shape-bytes" of a trained collect build.
xprof_size() {
  local d=$work/$1-$2-$RANDOM
  mkdir -p "$d"
  "build_$1" "$d" "$3" "-xprofile=collect:$d/train"
  "run_$1" "$d" train > /dev/null
  echo "$(stat -c %s "$d/train.profile/feedback") $(shape_bytes "$d/train.profile")"
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

head="| program | compiler | native (raw) | native (indexed) | xprof | of it shapes | xprof / native raw |"
[ -z "$baseline" ] || head="$head baseline xprof | baseline / native raw |"
echo "$head"
echo "$head" | sed 's/[^|][^|]*/---/g'
for prog in $programs; do
  for cc in $compilers; do
    read -r raw indexed < <(native_size "$prog" "$cc")
    read -r size shapes < <(xprof_size "$prog" "$cc" "xprof-$cc")
    line="| $prog | $cc | $raw | $indexed | $size | $shapes | $(awk -v a="$size" -v b="$raw" 'BEGIN {printf "%.2f", a / b}') |"
    if [ -n "$baseline" ]; then
      read -r bsize _ < <(xprof_size "$prog" "$cc" "$baseline/tools/xprof-$cc")
      line="$line $bsize | $(awk -v a="$bsize" -v b="$raw" 'BEGIN {printf "%.2f", a / b}') |"
    fi
    echo "$line"
  done
done
