#!/usr/bin/env bash
# CPython's own PGO build, the way its README says to make one
# (./configure --enable-optimizations; make), with each compiler's own
# profiling and with xprof's drivers (CC=xprof-gcc, the Makefile's
# PGO_PROF_GEN_FLAG / PGO_PROF_USE_FLAG set to -xprofile=collect /
# -xprofile=use).  CPython's Makefile trains on its PGO task (44 of its
# unit tests) after building its extension modules, 60-odd shared
# libraries that the interpreter dlopens.
#
#   bench/bench_python.sh [--compilers "gcc clang"] [--rounds N] [--repeats N] [--tests] [--reuse]
#
# CPython's Makefile makes clang's PGO build with front-end
# instrumentation (-fprofile-instr-generate); clang also gets a third
# build with IR instrumentation (PGO_PROF_GEN_FLAG=-fprofile-generate,
# what clang's manual recommends and what xprof's LLVM pass resembles),
# and one row against each.
#
# Prints per compiler and native build: whether the builds finished, the
# extension modules they could not import (the build renames them
# *_failed), the use build's xprof warnings, .text of xprof's python
# against the native PGO build's, and the CPU time of
# bench/workloads/python-work.py (which training never runs) in N paired
# alternating rounds (default 15, all builds of a compiler in the same
# rounds): the median of xprof's time over native's, its range, and the
# rounds xprof won.
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
    --repeats) repeats=$2; shift ;;
    --tests) tests=1 ;;
    --reuse) reuse=1 ;;
    *) echo "usage: bench_python.sh [--compilers LIST] [--rounds N] [--repeats N] [--tests] [--reuse]" >&2; exit 2 ;;
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

# build KIND COMPILER: a native, native-ir (clang's IR instrumentation)
# or xprof PGO build in $work/KIND-COMPILER; its log in build.log there.
# Returns make's status.
build() {
  local kind=$1 cc=$2 dir=$work/$1-$2 driver=$2 make_args=()
  [ $reuse = 1 ] && grep -qs "^built$" "$dir/stamp" && return 0
  rm -rf "$dir" && cp -r "$work/src" "$dir"
  case $kind in
    xprof)
      driver=xprof-$cc
      make_args=(PGO_PROF_USE_FLAG="-xprofile=use:$dir/train" LLVM_PROF_MERGER=true)
      if [ "$cc" = clang ]; then
        # The Makefile trains clang's build on the PGO task alone (the
        # interpreter's runs while it builds the modules write profiles
        # that it does not merge); so does xprof's: the profile's name
        # comes from the environment of the task's run, not the build.
        make_args+=(PGO_PROF_GEN_FLAG=-xprofile=collect
                    LLVM_PROF_FILE="SUN_PROFDATA=$dir/train.profile")
      else
        # GCC's .gcda files gather every run, the build's too.
        make_args+=(PGO_PROF_GEN_FLAG="-xprofile=collect:$dir/train")
      fi ;;
    # the Makefile's merge and -fprofile-instr-use read IR profiles too
    native-ir) make_args=(PGO_PROF_GEN_FLAG=-fprofile-generate) ;;
  esac
  (cd "$dir" && ./configure -q --enable-optimizations CC="$driver" > build.log 2>&1 &&
     make -j"$(nproc)" "${make_args[@]}" >> build.log 2>&1 && echo built > stamp)
}

# failed_modules DIR: the extension modules the build could not import.
failed_modules() {
  local m
  m=$(sed -n 's/^\*\*\* WARNING: renaming "\([^"]*\)" since importing it failed.*/\1/p' "$1/build.log" |
        sort -u | tr '\n' ' ' | sed 's/ $//')
  echo "${m:-none}"
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
echo "| compiler | native build | builds | modules not importable (native; xprof) | xprof warnings | .text xprof/native | CPU xprof/native: median (range) | rounds xprof faster |"
echo "|---|---|---|---|---|---|---|---|"
for cc in $compilers; do
  natives=(native)
  [ "$cc" = clang ] && natives+=(native-ir)
  ok=ok
  for kind in "${natives[@]}" xprof; do
    build "$kind" "$cc" || ok="$ok, $kind FAILED"
  done
  xprof_dir=$work/xprof-$cc
  if [ "$ok" != ok ]; then
    echo "| $cc | | $ok | | | | | |"
    continue
  fi
  warnings=$(grep -c 'warning: xprof' "$xprof_dir/build.log" || true)
  # run_KIND: the workload on that build (time_runs calls them by name)
  run_native() { "$work/native-$cc/python" "$root/bench/workloads/python-work.py"; }
  run_native-ir() { "$work/native-ir-$cc/python" "$root/bench/workloads/python-work.py"; }
  run_xprof() { "$xprof_dir/python" "$root/bench/workloads/python-work.py"; }
  expected=$(run_xprof)
  for kind in "${natives[@]}"; do
    [ "$(run_$kind)" = "$expected" ] || ok="outputs DIFFER"
    rm -f "$work/times.$kind"
  done
  rm -f "$work/times.xprof"
  time_runs "$rounds" "${natives[@]}" xprof
  for kind in "${natives[@]}"; do
    native_dir=$work/$kind-$cc
    text=$(awk -v a="$(text_size "$xprof_dir/python")" -v b="$(text_size "$native_dir/python")" 'BEGIN {printf "%.3f", a / b}')
    read -r m lo hi < <(ratio_stats xprof "$kind")
    echo "| $cc | $kind | $ok | $(failed_modules "$native_dir"); $(failed_modules "$xprof_dir") | $warnings | $text | $m ($lo-$hi) | $(rounds_faster xprof "$kind") of $rounds |"
  done
  if [ $tests = 1 ]; then
    echo "  $cc native tests: $(suite "$work/native-$cc")"
    echo "  $cc xprof tests: $(suite "$xprof_dir")"
  fi
done
echo "work: $work"
