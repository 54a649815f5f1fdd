#!/usr/bin/env bash
# Does a change to xprof move code?  Builds the benchmark programs (lua,
# bzip2, sqlite, zstd from Debian's sources) with two builds of xprof,
# OLD and NEW, in the same directory so that paths are the same, and
# compares the machine code of the results byte for byte: the collect
# builds, then the use builds of one training run's profile (trained with
# NEW's collect build, used by both).  A refactor that should move no
# behaviour shows "same" everywhere, and then every benchmark figure of
# docs/performance.md stands for the new build as it did for the old: no
# timing needed, and no noise.
#
#   bench/bench_same_code.sh OLD-BUILD NEW-BUILD [--compilers "gcc clang"]
#                            [--programs "lua bzip2 sqlite zstd"]
#
# Prints a line per program, compiler and mode: "same" or "differs" with
# the sizes of the two .text sections; exits 1 if any differs.  What is
# compared is the .text section of the linked program; data (the
# descriptors, whose compile times differ) is not.  Both collect builds
# link NEW's runtime, so that what they compare is the compiler's code;
# the line "runtime" compares the two runtimes' sizes.
set -euo pipefail
(($# >= 2)) || { echo "usage: bench_same_code.sh OLD-BUILD NEW-BUILD [--compilers LIST] [--programs LIST]" >&2; exit 2; }
old=$(cd "$1" && pwd) new=$(cd "$2" && pwd)
shift 2
compilers="gcc clang" programs="lua bzip2 sqlite zstd"
while (($#)); do
  case $1 in
    --compilers) compilers=$2; shift ;;
    --programs) programs=$2; shift ;;
    *) echo "bench_same_code.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
BUILD=$new
. "$(dirname "$0")/lib.sh"
quick=1
. "$here/programs.sh"

# text BINARY: the bytes of its .text section, as hex.
text() { objcopy -O binary --only-section=.text "$1" /dev/stdout | od -An -v -tx1; }
differ=0
# compare PROG CC MODE DIR: NEW's build in DIR against OLD's kept copy.
compare() {
  local bin=$4/$(binary "$1")
  # Through files: cmp stops at the first difference, and where SIGPIPE
  # is ignored (a job runner's shell) the objcopy it leaves writing to a
  # closed pipe never ends.
  text "$bin.old" > "$work/text.old"
  text "$bin" > "$work/text.new"
  if cmp -s "$work/text.old" "$work/text.new"; then
    echo "$1 $2 $3: same ($(size -A "$bin" | awk '$1 == ".text" {print $2}') bytes of .text)"
  else
    echo "$1 $2 $3: differs ($(size -A "$bin.old" | awk '$1 == ".text" {print $2}') and $(size -A "$bin" | awk '$1 == ".text" {print $2}') bytes of .text)"
    differ=1
  fi
}

rt_text() { size -t "$1/runtime/libxprof_rt.a" | awk 'END {print $1}'; }
echo "runtime: $(rt_text "$old") and $(rt_text "$new") bytes of text in libxprof_rt.a"
for cc in $compilers; do
  driver=$([ "$cc" = gcc ] && echo xprof-gcc || echo xprof-clang)
  for prog in $programs; do
    d=$work/$prog-$cc
    mkdir -p "$d"
    bin=$d/$(binary "$prog")
    for mode in collect use; do
      flags="-xprofile=$mode:$work/$prog-$cc"
      XPROF_RUNTIME=$new/runtime/libxprof_rt.a "build_$prog" "$d" "$old/tools/$driver" "$flags"
      mv "$bin" "$bin.old"
      XPROF_RUNTIME=$new/runtime/libxprof_rt.a "build_$prog" "$d" "$new/tools/$driver" "$flags"
      compare "$prog" "$cc" "$mode" "$d"
      [ $mode = use ] || "run_$prog" "$d" train > /dev/null
    done
  done
done
exit $differ
