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
#                         [--layout [--bolt]]
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
# --layout measures the function order (issue 63's rows) instead: a plain
# build (./configure without --enable-optimizations), the native PGO
# build, xprof's use build compiled with -xprofile_order and its python
# linked without and with it (the second relinked from the same objects),
# and with --bolt the native PGO build as CPython 3.12's --enable-bolt
# makes it (--emit-relocs; GCC: -fno-reorder-blocks-and-partition, which
# BOLT cannot take; but PIE, as every other row) rewritten by llvm-bolt-16
# trained on the Makefile's PGO task (lib.sh, bolt_optimize);
# all in the same rounds, each against the native build, with .text and
# file sizes.
# --tests also runs CPython's test suite on both use builds (about 13
# minutes each on 2 cores) and prints the tests each fails.  Sources come
# from Debian's python3.11 package (apt-get source); everything stays in
# $BENCH_WORK (default: a temporary directory, printed at the end), and
# --reuse takes the builds a run left there instead of building again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
compilers="gcc clang" rounds=15 tests=0 reuse=0 layout=0 bolt=0
while (($#)); do
  case $1 in
    --compilers) compilers=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --repeats) repeats=$2; shift ;;
    --tests) tests=1 ;;
    --reuse) reuse=1 ;;
    --layout) layout=1 ;;
    --bolt) bolt=1 ;;
    *) echo "usage: bench_python.sh [--compilers LIST] [--rounds N] [--repeats N] [--tests] [--reuse] [--layout [--bolt]]" >&2; exit 2 ;;
  esac
  shift
done
work=${BENCH_WORK:-$(mktemp -d)}
mkdir -p "$work"
# clang's PGO build needs llvm-profdata on PATH (configure looks for it)
export PATH=$PATH:/usr/lib/llvm-14/bin
ensure_debs zlib1g-dev libbz2-dev liblzma-dev libsqlite3-dev libffi-dev libssl-dev \
  libexpat1-dev libncurses-dev libreadline-dev uuid-dev
((bolt)) && ensure_debs bolt-16

# fetch: CPython's sources in $work/src.
fetch() { deb_source "$work" python3.11; }

# build KIND COMPILER: a native, native-ir (clang's IR instrumentation),
# xprof, plain or bolt build in $work/KIND-COMPILER; its log in build.log
# there.  Returns make's status.
build() {
  local kind=$1 cc=$2 dir=$work/$1-$2 driver=$2 make_args=() conf=(--enable-optimizations)
  [ $reuse = 1 ] && grep -qs "^built$" "$dir/stamp" && return 0
  rm -rf "$dir" && cp -r "$work/src" "$dir"
  case $kind in
    xprof)
      driver=xprof-$cc
      make_args=(PGO_PROF_USE_FLAG="-xprofile=use:$dir/train${order_flag:-}" LLVM_PROF_MERGER=true)
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
    plain) conf=() ;;
    # As CPython 3.12's --enable-bolt configures it, but for its -fno-pie
    # and -no-pie: every build here is PIE, as Debian's compilers make
    # them, so that the rows differ in layout alone.
    bolt)
      conf+=(LDFLAGS=-Wl,--emit-relocs)
      [ "$cc" = gcc ] && conf+=(CFLAGS=-fno-reorder-blocks-and-partition) ;;
  esac
  (cd "$dir" && ./configure -q "${conf[@]}" CC="$driver" > build.log 2>&1 &&
     make -j"$(nproc)" "${make_args[@]}" >> build.log 2>&1) || return 1
  [ "$kind" = bolt ] && bolt_optimize "$dir/python" "$dir" pgo_task "$dir"
  echo built > "$dir/stamp"
}

# pgo_task DIR: the Makefile's PGO task (PROFILE_TASK) on DIR's python.
pgo_task() { (cd "$1" && ./python -m test --pgo --timeout=1200 > bolt-task.log 2>&1); }

# relink_ordered DIR: DIR's python linked again from the same objects as
# python-order, with -xprofile_order (the Makefile's last link of python,
# from build.log).
relink_ordered() {
  local cmd
  cmd=$(grep -E ' -o python Programs/python\.o ' "$1/build.log" | tail -1)
  [ -n "$cmd" ] || return 1
  (cd "$1" && eval "${cmd/ -o python / -o python-order } -xprofile=use:$1/train -xprofile_order" \
     > order-link.log 2>&1)
}

# failed_modules DIR: the extension modules the build could not import.
failed_modules() {
  local m
  m=$(sed -n 's/^\*\*\* WARNING: renaming "\([^"]*\)" since importing it failed.*/\1/p' "$1/build.log" |
        sort -u | tr '\n' ' ' | sed 's/ $//')
  echo "${m:-none}"
}

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

# python_of KIND CC: the python of a --layout row.
python_of() {
  case $1 in
    xprof-order) echo "$work/xprof-$2/python-order" ;;
    *) echo "$work/$1-$2/python" ;;
  esac
}

# layout CC: the --layout rows of compiler CC (built before).
layout() {
  local cc=$1 kinds=(plain native) k names=() expected
  ((bolt)) && kinds+=(bolt)
  kinds+=(xprof xprof-order)
  for k in "${kinds[@]}"; do
    eval "run_$k-$cc() { \"$(python_of "$k" "$cc")\" \"$root/bench/workloads/python-work.py\"; }"
    names+=("$k-$cc")
    rm -f "$work/times.$k-$cc"
  done
  expected=$("run_native-$cc")
  for k in "${kinds[@]}"; do
    [ "$("run_$k-$cc")" = "$expected" ] || echo "  $cc $k: the workload's output DIFFERS"
    [ "$k" = xprof-order ] && continue
    [ "$(failed_modules "$work/$k-$cc")" = none ] ||
      echo "  $cc $k: modules not importable: $(failed_modules "$work/$k-$cc")"
    ! grep -q "^Failed to build these modules" "$work/$k-$cc/build.log" ||
      echo "  $cc $k: extension modules failed to build ($work/$k-$cc/build.log)"
  done
  time_runs "$rounds" "${names[@]}"
  echo "| compiler | build | CPU ms: median (range) | / native: median (range) | rounds faster than native | .text | file |"
  echo "|---|---|---|---|---|---|---|"
  for k in "${kinds[@]}"; do
    local bin m lo hi r rlo rhi won=
    bin=$(python_of "$k" "$cc")
    read -r m lo hi < <(stats < "$work/times.$k-$cc")
    read -r r rlo rhi < <(ratio_stats "$k-$cc" "native-$cc")
    [ "$k" != native ] && won="$(rounds_faster "$k-$cc" "native-$cc") of $rounds"
    printf '| %s | %s | %.0f (%.0f-%.0f) | %s (%s-%s) | %s | %s | %s |\n' "$cc" "$k" \
      "$(awk -v v="$m" 'BEGIN {print v * 1000}')" "$(awk -v v="$lo" 'BEGIN {print v * 1000}')" \
      "$(awk -v v="$hi" 'BEGIN {print v * 1000}')" "$r" "$rlo" "$rhi" "$won" \
      "$(text_bytes "$bin")" "$(stat -c %s "$bin")"
  done
  read -r r rlo rhi < <(ratio_stats "xprof-order-$cc" "xprof-$cc")
  echo "  $cc xprof-order / xprof: $r ($rlo-$rhi), faster in $(rounds_faster "xprof-order-$cc" "xprof-$cc") of $rounds"
}

fetch
if ((layout)); then
  order_flag=" -xprofile_order"
  for cc in $compilers; do
    kinds=(plain native xprof)
    ((bolt)) && kinds+=(bolt)
    ok=1
    for kind in "${kinds[@]}"; do
      build "$kind" "$cc" || { echo "  $cc $kind: the build FAILED ($work/$kind-$cc/build.log)"; ok=0; }
    done
    ((ok)) && { relink_ordered "$work/xprof-$cc" ||
                { echo "  $cc: the ordered link FAILED ($work/xprof-$cc/order-link.log)"; ok=0; }; }
    ((ok)) && layout "$cc"
  done
  echo "work: $work"
  exit 0
fi
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
    text=$(awk -v a="$(text_bytes "$xprof_dir/python")" -v b="$(text_bytes "$native_dir/python")" 'BEGIN {printf "%.3f", a / b}')
    read -r m lo hi < <(ratio_stats xprof "$kind")
    echo "| $cc | $kind | $ok | $(failed_modules "$native_dir"); $(failed_modules "$xprof_dir") | $warnings | $text | $m ($lo-$hi) | $(rounds_faster xprof "$kind") of $rounds |"
  done
  if [ $tests = 1 ]; then
    echo "  $cc native tests: $(suite "$work/native-$cc")"
    echo "  $cc xprof tests: $(suite "$xprof_dir")"
  fi
done
echo "work: $work"
