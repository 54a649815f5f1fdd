#!/usr/bin/env bash
# exports_check.sh [PROGRAM...]: a training run of a real program (lua by
# default; bzip2, sqlite and zstd too, from Debian's sources as the
# benchmarks fetch them) through every viewer: xprof_show, DCPI files,
# gprof and aprof must agree on samples, calls and time
# (test/lit/Inputs/gprof/agree.py), gprof's call counts must be the entry
# counts the use build gives GCC (same-calls.py), and gprof -l -A must
# annotate lines.  Built with xprof-gcc -O2 -g.  Exit status 1 on the
# first disagreement.  Environment: BUILD (default build), BENCH_SOURCES.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${BUILD:-$root/build}" && pwd)
export PATH=$build/tools:$PATH
programs=${*:-lua} quick=1
bench=$root/bench
here=$bench . "$bench/programs.sh"
inputs=$root/test/lit/Inputs/gprof

for prog in $programs; do
  d=$work/$prog
  bin=$(binary "$prog")
  mkdir -p "$d"
  "build_$prog" "$d" xprof-gcc "-g -xprofile=collect"
  (export SUN_PROFDATA_SAMPLE=1; "run_$prog" "$d" train >/dev/null)
  cd "$d"
  xprof_show -n 100000 "$bin.profile" > show.txt
  xprof_dcpi -d dcpi "$bin.profile" > /dev/null
  xprof_dcpi -l dcpi/*.dcpi > list.txt
  xprof_gprof -v "$bin.profile" "./$bin" 2> gprof.log
  gprof -b -q --no-demangle "./$bin" gmon.out > graph.txt
  gprof -b -l -A -x "./$bin" gmon.out > annotated.txt 2>&1
  xprof_aprof "$bin.profile" > bb.txt
  xprof_aprof -m time-usec "$bin.profile" > time.txt
  echo "$prog: $(python3 "$inputs/agree.py" show.txt list.txt graph.txt bb.txt time.txt)"
  lines=$(grep -c ' -> ' annotated.txt || true)
  [ "$lines" -gt 100 ] || { echo "$prog: gprof -l -A annotated only $lines lines" >&2; exit 1; }
  echo "$prog: gprof -l -A -x annotated $lines lines"
  # The use build's entry counts: every object's call graph dump.
  mkdir -p "$d-use"
  "build_$prog" "$d-use" xprof-gcc \
    "-g -xprofile=use:$d/$bin -xprofile_pathmap=$d:$d-use -fdump-ipa-all"
  cat "$d-use"/*i.xprof > use.txt
  echo "$prog: $(python3 "$inputs/same-calls.py" graph.txt --gcc use.txt gprof.log)"
  cd "$root"
done
