#!/usr/bin/env bash
# A profile across a compiler upgrade: trained with xprof on GCC 11, used
# by xprof on GCC 12 (the profile kept in version control while the
# toolchain rolls).  The benchmark programs built as bench_programs.sh
# builds them, then
#   plain     gcc-12 -O2
#   use       xprof-gcc use build on GCC 12 of a GCC 12 training (fresh)
#   version   xprof-gcc use build on GCC 12 of the GCC 11 training:
#             salvage by shape, and the lines where the graphs differ
#   afdo      gcc-12 -fauto-profile of the GCC 11 training's exact counts
#             (xprof_afdo --gcc), for comparison
#   bench/bench_versions.sh [--rounds N] [--programs "sqlite lua"]
# xprof for GCC 11 is built in the work directory (-DXPROF_GCC=gcc-11;
# gcc-11 and gcc-11-plugin-dev are installed when missing), or taken from
# GCC11_BUILD when that is a build of it.  Prints per
# program: CPU time of the measured input (median of paired rounds, least
# of BENCH_REPEATS runs each) of each build, against plain and against the
# fresh use build (median ratio, range), and what the GCC 12 use build
# said of the GCC 11 training.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=11 progs="sqlite lua"
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    --programs) progs=$2; shift ;;
    *) echo "usage: bench_versions.sh [--rounds N] [--programs LIST]" >&2; exit 2 ;;
  esac
  shift
done
programs=$progs quick=0
. "$here/programs.sh"
ensure_debs gcc-11 g++-11 gcc-11-plugin-dev

old=${GCC11_BUILD:-$work/build-gcc11}
if [ ! -x "$old/tools/xprof-gcc" ]; then
  cmake -S "$root" -B "$old" -DCMAKE_BUILD_TYPE=Release -DXPROF_GCC=gcc-11 -DXPROF_GXX=g++-11 \
    > "$work/cmake-gcc11.log" 2>&1
  make -C "$old" -j2 xprof-gcc xprof_gcc_plugin xprof_rt > "$work/make-gcc11.log" 2>&1 ||
    { tail -20 "$work/make-gcc11.log" >&2; exit 1; }
fi

kinds="plain use version afdo"
for prog in $progs; do
  bin=$(binary "$prog")
  p=$work/p-$prog
  for kind in $kinds; do mkdir -p "$work/$prog-$kind"; done
  "build_$prog" "$work/$prog-plain" gcc-12 ""
  "build_$prog" "$work/$prog-use" xprof-gcc "-xprofile=collect:$p"
  "run_$prog" "$work/$prog-use" train > /dev/null
  "build_$prog" "$work/$prog-use" xprof-gcc "-xprofile=use:$p"
  # Trained on GCC 11, in the directory the GCC 12 use build compiles in.
  "build_$prog" "$work/$prog-version" "$old/tools/xprof-gcc" "-xprofile=collect:$p-11"
  "run_$prog" "$work/$prog-version" train > /dev/null
  xprof_afdo --gcc -o "$p-11.afdo" "$p-11.profile" 2> /dev/null
  "build_$prog" "$work/$prog-version" xprof-gcc "-xprofile=use:$p-11" 2> "$work/version-$prog.err"
  "build_$prog" "$work/$prog-afdo" gcc-12 "-fauto-profile=$p-11.afdo"
  for kind in $kinds; do
    eval "run_$prog-$kind() { run_$prog $work/$prog-$kind run; }"
  done
  time_runs "$rounds" "$prog-plain" "$prog-use" "$prog-version" "$prog-afdo"
  echo "$prog, gcc 11 -> 12 ($rounds rounds; CPU ms median (range); ratios: median (range)):"
  grep -h 'salvaged\|placed by source line' "$work/version-$prog.err" | sed 's/^.*xprof: [^:]*: /  version: /' | sort | uniq -c || true
  for kind in $kinds; do
    report_row "$kind" "$prog-$kind" "$prog-plain" "$prog-use"
  done
done
