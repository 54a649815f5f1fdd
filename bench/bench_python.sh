#!/usr/bin/env bash
# CPython's own PGO build, the way its README says to make one
# (./configure --enable-optimizations; make), with each compiler's own
# profiling and with xprof's drivers (CC=xprof-gcc, the Makefile's
# PGO_PROF_GEN_FLAG / PGO_PROF_USE_FLAG set to -xprofile=collect /
# -xprofile=use).  CPython's Makefile trains on its PGO task (44 of its
# unit tests) after building its extension modules, 60-odd shared
# libraries that the interpreter dlopens.
#
#   bench/bench_python.sh [--compilers "gcc clang"] [--rounds N] [--tests] [--reuse]
#
# Prints per compiler: whether each build finished, the extension modules
# the build could not import (it renames them *_failed), the use build's
# xprof warnings, .text of xprof's python against the native PGO build's,
# and the CPU time of bench/workloads/python-work.py (which training never
# runs) in N paired alternating rounds (default 15): the median of
# xprof's time over native's, its range, and the rounds xprof won.
# --tests also runs CPython's test suite on both use builds (about 13
# minutes each on 2 cores) and prints the tests each fails.  Sources come
# from Debian's python3.11 package (apt-get source); everything stays in
# $BENCH_WORK (default: a temporary directory, printed at the end), and
# --reuse takes the builds a run left there instead of building again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
compilers="gcc clang" rounds=15 tests=0 reuse=0
while (($#)); do
  case $1 in
    --compilers) compilers=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --tests) tests=1 ;;
    --reuse) reuse=1 ;;
    *) echo "usage: bench_python.sh [--compilers LIST] [--rounds N] [--tests] [--reuse]" >&2; exit 2 ;;
  esac
  shift
done
work=${BENCH_WORK:-$(mktemp -d)}
mkdir -p "$work"
# clang's PGO build needs llvm-profdata on PATH (configure looks for it)
export PATH=$PATH:/usr/lib/llvm-14/bin
ensure_debs zlib1g-dev libbz2-dev liblzma-dev libsqlite3-dev libffi-dev libssl-dev \
  libexpat1-dev libncurses-dev libreadline-dev uuid-dev

# fetch: CPython's sources in $work/src.
fetch() {
  [ -x "$work/src/configure" ] && return 0
  ensure_deb_src
  mkdir -p "$work/dl"
  (cd "$work/dl" && apt-get source --download-only -qq python3.11 2>&1 |
     grep -v '^W: Download is performed unsandboxed' || true)
  mkdir -p "$work/src"
  tar -xzf "$(ls "$work"/dl/python3.11_*.orig.tar.gz | head -1)" -C "$work/src" --strip-components=1
}

# build KIND COMPILER: native or xprof PGO build in $work/KIND-COMPILER;
# its log in build.log there.  Returns make's status.
build() {
  local kind=$1 cc=$2 dir=$work/$1-$2 driver=$2 make_args=()
  [ $reuse = 1 ] && grep -qs "^built$" "$dir/stamp" && return 0
  rm -rf "$dir" && cp -r "$work/src" "$dir"
  if [ "$kind" = xprof ]; then
    driver=xprof-$cc
    make_args=(PGO_PROF_GEN_FLAG="-xprofile=collect:$dir/train"
               PGO_PROF_USE_FLAG="-xprofile=use:$dir/train" LLVM_PROF_MERGER=true)
  fi
  (cd "$dir" && ./configure -q --enable-optimizations CC="$driver" > build.log 2>&1 &&
     make -j"$(nproc)" "${make_args[@]}" >> build.log 2>&1 && echo built > stamp)
}

# failed_modules DIR: the extension modules the build could not import.
failed_modules() {
  sed -n 's/^\*\*\* WARNING: renaming "\([^"]*\)" since importing it failed.*/\1/p' "$1/build.log" |
    sort -u | tr '\n' ' ' | sed 's/ $//; s/^$/none/'
}

text_size() { size -A "$1" | awk '$1 == ".text" {print $2}'; }

# suite DIR: the tests CPython's suite fails on that build (those that
# need a display, network or the build's compiler on PATH fail on both).
suite() {
  (cd "$1" && timeout 3000 ./python -m test -j"$(nproc)" --timeout 300 \
     -x test_gdb test_tools test_peg_generator test_venv test_ensurepip test_distutils \
        test_clinic test_tkinter test_idle test_ttk test_ttk_guionly test_zipfile64 \
     > tests.log 2>&1 || true)
  awk '/tests? OK\./ {ok=$1} /tests? failed:/ {f=1; next} f && /^ / {failed=failed $0; next} {f=0}
       END {gsub(/  +/, " ", failed); printf "%s OK, failed:%s\n", ok, failed}' "$1/tests.log"
}

fetch
echo "| compiler | builds | modules not importable (native; xprof) | xprof warnings | .text xprof/native | CPU xprof/native: median (range) | rounds xprof faster |"
echo "|---|---|---|---|---|---|---|"
for cc in $compilers; do
  ok=ok
  build native "$cc" || ok="native FAILED"
  build xprof "$cc" || ok="$ok, xprof FAILED"
  # (not n: time_runs has a local of that name)
  native_dir=$work/native-$cc xprof_dir=$work/xprof-$cc
  if [ "$ok" != ok ]; then
    echo "| $cc | $ok | | | | | |"
    continue
  fi
  warnings=$(grep -c 'warning: xprof' "$xprof_dir/build.log" || true)
  text=$(awk -v a="$(text_size "$xprof_dir/python")" -v b="$(text_size "$native_dir/python")" 'BEGIN {printf "%.3f", a / b}')
  run_native() { "$native_dir/python" "$root/bench/workloads/python-work.py"; }
  run_xprof() { "$xprof_dir/python" "$root/bench/workloads/python-work.py"; }
  [ "$(run_native)" = "$(run_xprof)" ] || ok="outputs DIFFER"
  rm -f "$work/times.native" "$work/times.xprof"
  time_runs "$rounds" native xprof
  read -r m lo hi < <(ratio_stats xprof native)
  echo "| $cc | $ok | $(failed_modules "$native_dir"); $(failed_modules "$xprof_dir") | $warnings | $text | $m ($lo-$hi) | $(rounds_faster xprof native) of $rounds |"
  if [ $tests = 1 ]; then
    echo "  $cc native tests: $(suite "$native_dir")"
    echo "  $cc xprof tests: $(suite "$xprof_dir")"
  fi
done
echo "work: $work"
