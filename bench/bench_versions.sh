#!/usr/bin/env bash
# A profile across a compiler upgrade: trained with xprof on the older
# compiler, used by xprof on the newer (the profile kept in version
# control while the toolchain rolls): GCC 11 -> 12, or with --compiler
# clang, clang 14 -> 16.  The benchmark programs built as
# bench_programs.sh builds them, then
#   plain     the newer compiler, -O2
#   use       xprof's use build on the newer compiler of its own training
#             (fresh)
#   version   xprof's use build on the newer compiler of the older one's
#             training: salvage by shape, and the lines where the graphs
#             differ
#   afdo      the newer compiler's own sample-profile use of the older
#             training's exact counts (xprof_afdo: gcc-12 -fauto-profile,
#             clang-16 -fprofile-sample-use), for comparison
#   bench/bench_versions.sh [--compiler gcc|clang] [--rounds N] [--programs "sqlite lua"]
# xprof for the other version is built in the work directory (GCC 11:
# -DXPROF_GCC=gcc-11, gcc-11 and gcc-11-plugin-dev installed when
# missing; clang 16: -DXPROF_LLVM_CONFIG=llvm-config-16, clang-16 and
# llvm-16-dev installed when missing), or taken from GCC11_BUILD /
# CLANG16_BUILD when that is a build of it.  Prints per program: CPU time
# of the measured input (median of paired rounds, least of BENCH_REPEATS
# runs each) of each build, against plain and against the fresh use build
# (median ratio, range), and what the newer use build said of the older
# training.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=11 progs="sqlite lua" compiler=gcc
while (($#)); do
  case $1 in
    --compiler) compiler=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --programs) progs=$2; shift ;;
    *) echo "usage: bench_versions.sh [--compiler gcc|clang] [--rounds N] [--programs LIST]" >&2; exit 2 ;;
  esac
  shift
done
programs=$progs quick=0
. "$here/programs.sh"

# other_build DIR LOG CMAKE-ARGS...: xprof built in DIR for the other
# version of the compiler, unless it is there.
other_build() {
  local dir=$1 log=$2
  shift 2
  cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" > "$log" 2>&1
  make -C "$dir" -j2 "xprof-$compiler" xprof_rt xprof_rt_object "$( [ "$compiler" = gcc ] && echo xprof_gcc_plugin || echo xprof_llvm_plugin)" >> "$log" 2>&1 ||
    { tail -20 "$log" >&2; exit 1; }
}

case $compiler in
  gcc)
    ensure_debs gcc-11 g++-11 gcc-11-plugin-dev
    old=$(realpath -m "${GCC11_BUILD:-$work/build-gcc11}") new=$build
    [ -x "$old/tools/xprof-gcc" ] ||
      other_build "$old" "$work/build-gcc11.log" -DXPROF_GCC=gcc-11 -DXPROF_GXX=g++-11
    plain_cc=gcc-12 from="gcc 11 -> 12" ;;
  clang)
    ensure_debs clang-16 llvm-16-dev
    old=$build new=$(realpath -m "${CLANG16_BUILD:-$work/build-clang16}")
    [ -x "$new/tools/xprof-clang" ] ||
      other_build "$new" "$work/build-clang16.log" -DXPROF_LLVM_CONFIG=/usr/lib/llvm-16/bin/llvm-config
    plain_cc=/usr/lib/llvm-16/bin/clang from="clang 14 -> 16" ;;
  *) echo "bench_versions.sh: --compiler gcc or clang" >&2; exit 2 ;;
esac
# sample_use PROFILE OUT: the flags of the newer compiler's own use of the
# older training's export.
sample_use() {
  if [ "$compiler" = gcc ]; then
    xprof_afdo --gcc -o "$2.afdo" "$1" 2> /dev/null && echo "-fauto-profile=$2.afdo"
  else
    xprof_afdo --llvm -o "$2.prof" "$1" 2> /dev/null && echo "-g -fprofile-sample-use=$2.prof"
  fi
}

kinds="plain use version afdo"
for prog in $progs; do
  bin=$(binary "$prog")
  p=$work/p-$prog
  for kind in $kinds; do mkdir -p "$work/$prog-$kind"; done
  xnew=$new/tools/xprof-$compiler xold=$old/tools/xprof-$compiler
  "build_$prog" "$work/$prog-plain" "$plain_cc" ""
  "build_$prog" "$work/$prog-use" "$xnew" "-xprofile=collect:$p"
  "run_$prog" "$work/$prog-use" train > /dev/null
  "build_$prog" "$work/$prog-use" "$xnew" "-xprofile=use:$p"
  # Trained on the older compiler, in the directory the newer one's use
  # build compiles in.
  "build_$prog" "$work/$prog-version" "$xold" "-g -xprofile=collect:$p-old"
  "run_$prog" "$work/$prog-version" train > /dev/null
  flags=$(sample_use "$p-old.profile" "$p-old")
  "build_$prog" "$work/$prog-version" "$xnew" "-xprofile=use:$p-old" 2> "$work/version-$prog.err"
  "build_$prog" "$work/$prog-afdo" "$plain_cc" "$flags"
  for kind in $kinds; do
    eval "run_$prog-$kind() { run_$prog $work/$prog-$kind run; }"
  done
  time_runs "$rounds" "$prog-plain" "$prog-use" "$prog-version" "$prog-afdo"
  echo "$prog, $from ($rounds rounds; CPU ms median (range); ratios: median (range)):"
  grep -h 'salvaged\|placed by source line' "$work/version-$prog.err" | sed 's/^.*xprof: [^:]*: /  version: /' | sort | uniq -c || true
  for kind in $kinds; do
    report_row "$kind" "$prog-$kind" "$prog-plain" "$prog-use"
  done
done
