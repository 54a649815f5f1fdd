#!/usr/bin/env bash
# gcc_testsuite.sh [--torture | --scans] [gcc|clang|both]: GCC's own tests through
# xprof, from Debian's gcc-12 source package (apt-get source, never
# committed).
#
# The programs that GCC tests its profile feedback with (gcc.dg/tree-prof,
# g++.dg/tree-prof and gcc.misc-tests/bprob-*), each built plain, built
# with -xprofile=collect and run (training), rebuilt with -xprofile=use
# and run again, with the options its dg-options line gives.  Every build
# must compile, every run must exit and print as the plain build's does,
# and the use build must not warn (but that a call did not return in
# training, which some of these programs arrange on purpose).  For clang
# the options clang refuses are left out (GCC's dump options and the
# like), but for -freorder-blocks-and-partition, which xprof-clang takes;
# programs clang does not compile (GCC extensions) are skipped.  GCC's
# dump scans (dg-final) are GCC's own and not checked: what xprof's use
# builds do with a profile is checked by the lit tests.
#
# Then the other tests of gcc.dg and g++.dg whose options ask for GCC's
# profiling (-fprofile-generate, -fprofile-use, -fprofile-arcs,
# -fbranch-probabilities): most are programs that once crashed GCC's
# instrumentation or profile use beside some other option.  Each goes
# through one of the drivers, picked by its name, about half to each
# (XPROF_SUITE_ALL=1: both).  Their profiling
# options go, -xprofile=collect and then -xprofile=use come in; both builds
# must compile (and link and train, for the tests that run) as the plain
# build does, without a crash.
#
# --torture instead: the programs of gcc.c-torture/execute and the run
# tests of g++.dg/eh and g++.dg/torture (about 1,700), trained and rebuilt
# as the tree-prof ones at -O2, where the plain build passes them (exits
# 0; many rely on what the C standard leaves undefined, which clang and
# GCC decide differently); a program passes when its runs exit 0.  About
# 10 minutes on 2 cores: not part of scripts/check.sh.
#
# --scans instead: the scans GCC's tree-prof tests make of the use
# build's dumps and assembly, on GCC's own use build and xprof-gcc's
# (gcc_scans.py says which and how); a scan fails when GCC's own passes it
# and xprof's does not.  About 3 minutes.
#
# Environment: XPROF_SUITES (default /tmp/xprof-suites), where the
# sources are kept between runs; XPROF_SUITE_JOBS (default: the number of
# processors) programs at a time; XPROF_SUITE_FLAGS, options added to
# every build of the tree-prof and torture programs (-flto: C++ under
# -flto once crashed GCC in xprof's collect pass); XPROF_SUITE_ONLY, an
# extended regular expression the tests' paths must match.  Ends with "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/bench/lib.sh"
export PATH=$build/tools:$PATH # lib.sh: BUILD, default build/
torture=${XPROF_SUITE_TORTURE:-0} # set for the --one runs below
[ "${1:-}" = --torture ] && { torture=1; shift; }
scans=0
[ "${1:-}" = --scans ] && { scans=1; shift; }
compilers=${1:-both}
[ "$compilers" = both ] && compilers="gcc clang"
jobs=${XPROF_SUITE_JOBS:-$(nproc)}
store=${XPROF_SUITES:-/tmp/xprof-suites}
tests=$store/gcc-12/gcc/testsuite

# fetch: the test directories of gcc-12's source package.
fetch() {
  [ -e "$tests/.ready-2" ] && return 0
  ensure_deb_src
  rm -rf "$store/dl" "$store/gcc-12" && mkdir -p "$store/dl" "$store/gcc-12"
  (cd "$store/dl" && apt-get source --download-only -qq gcc-12 2>&1 |
     grep -v '^W: Download is performed unsandboxed' || true)
  local outer inner
  outer=$(ls "$store"/dl/gcc-12_*.orig.tar.gz | head -1)
  inner=$(tar -tzf "$outer" | grep -E '/gcc-[0-9.]+-dfsg\.tar\.xz$' | head -1)
  tar -xzf "$outer" -C "$store/dl" "$inner" &&
    tar -xJf "$store/dl/$inner" -C "$store/gcc-12" --strip-components=1 --wildcards \
      '*/gcc/testsuite/gcc.dg/*' '*/gcc/testsuite/g++.dg/*' \
      '*/gcc/testsuite/gcc.misc-tests/bprob-*' '*/gcc/testsuite/gcc.c-torture/execute/*' ||
    return 1
  rm -rf "$store/dl"
  touch "$tests/.ready-2"
}

# directive FILE NAME: the value of FILE's first dg-NAME directive, quoted
# or a single word.
directive() {
  sed -n "s/.*dg-$2 \"\([^\"]*\)\".*/\1/p; t done; s/.*dg-$2 \([^ \"}][^ }]*\) .*/\1/p; d; :done" "$1" |
    head -1
}

# clang_options OPTION...: those clang takes (and GCC's partitioning,
# which xprof-clang takes).  Clang's answer for each option is kept in
# $work/clang-options (the same options recur in many tests; a line is
# appended whole, so the parallel tests may share the file).
clang_options() {
  local o kept="" known=$work/clang-options answer
  for o in "$@"; do
    answer=$(grep -Fx -e "+$o" -e "-$o" "$known" 2>/dev/null | head -1)
    if [ -z "$answer" ]; then
      answer=-$o
      [ "$o" = -freorder-blocks-and-partition ] ||
        clang "$o" -c -x c /dev/null -o /dev/null 2>/dev/null && answer=+$o
      echo "$answer" >> "$known"
    fi
    [ "${answer:0:1}" = + ] && kept="$kept $o"
  done
  echo "$kept"
}

# run_one DIR BINARY LOG: run BINARY in DIR; prints its exit status and
# keeps its output in LOG.
run_one() {
  (cd "$1" && timeout 60 "./$2" > "$3" 2>&1) 2>/dev/null # no "Aborted" from bash
  echo $?
}

# check COMPILER SOURCE: one program; prints "ok", "skipped: why" or
# "FAILED: what".
check() {
  local cc=$1 src=$2 dir name opts extra driver plain_cc x
  name=$(basename "$src")
  dir=$work/$cc/$(basename "$(dirname "$src")")-$name
  mkdir -p "$dir" && cd "$dir" # -save-temps writes here
  opts=$(directive "$src" options)
  [ $torture = 1 ] && opts="-O2 $opts $(directive "$src" additional-options)"
  extra=""
  for x in $(directive "$src" additional-sources); do extra="$extra $(dirname "$src")/$x"; done
  [ $torture = 1 ] && extra="$extra -lm"
  [ "$cc" = clang ] && opts=$(clang_options $opts)
  opts="$opts ${XPROF_SUITE_FLAGS:-}"
  case $name in
    *.C) driver=xprof-${cc/gcc/g}++; plain_cc=${cc/gcc/g}++ ;;
    *) driver=xprof-$cc; plain_cc=$cc ;;
  esac
  # clang refuses GCC's partitioning: the plain build goes without it.
  if ! $plain_cc ${opts//-freorder-blocks-and-partition/} "$src" $extra -o "$dir/plain" \
       > "$dir/plain.log" 2>&1; then
    echo "skipped: $plain_cc does not compile it"; return
  fi
  local want got
  want=$(run_one "$dir" plain plain.out)
  [ $torture = 1 ] && [ "$want" != 0 ] && { echo "skipped: the plain build fails it"; return; }
  if ! $driver $opts -xprofile=collect:"$dir/p" "$src" $extra -o "$dir/t" > "$dir/collect.log" 2>&1; then
    echo "FAILED: the collect build ($(head -c 300 "$dir/collect.log"))"; return
  fi
  got=$(run_one "$dir" t train.out)
  [ "$got" = "$want" ] || { echo "FAILED: the training run exits $got, plain $want"; return; }
  if ! $driver $opts -xprofile=use:"$dir/p" "$src" $extra -o "$dir/t" > "$dir/use.log" 2>&1; then
    echo "FAILED: the use build ($(head -c 300 "$dir/use.log"))"; return
  fi
  x=$(grep "warning: xprof" "$dir/use.log" | grep -v "did not return in training" | head -1)
  [ -z "$x" ] || { echo "FAILED: the use build warns: $x"; return; }
  got=$(run_one "$dir" t use.out)
  [ "$got" = "$want" ] || { echo "FAILED: the use build's run exits $got, plain $want"; return; }
  # (torture programs may print addresses, which differ run to run; their
  # verdict is their exit status, as in GCC's testsuite)
  [ $torture = 1 ] || cmp -s "$dir/plain.out" "$dir/use.out" ||
    { echo "FAILED: the use build prints other output"; return; }
  echo ok
}

# profiling_options: the tests outside tree-prof whose options ask for
# GCC's profiling.
profiling_options() {
  grep -rlE 'dg-options "[^"]*-f(profile-(generate|use|arcs)|branch-probabilities)' \
    "$tests/gcc.dg" "$tests/g++.dg" | grep -v /tree-prof/ | sort
}

# without_profiling OPTION...: all but GCC's profiling options.
without_profiling() {
  local o kept=""
  for o in "$@"; do
    case $o in
      -fprofile-generate* | -fprofile-use* | -fprofile-arcs | -fbranch-probabilities | \
        -ftest-coverage | --coverage | -fprofile-dir=* | -fprofile-update=* | \
        -fprofile-info-section* | -fprofile-prefix-path=* | -fprofile-correction | \
        -fauto-profile*) ;;
      *) kept="$kept $o" ;;
    esac
  done
  echo "$kept"
}

# check_options COMPILER SOURCE: one of those; prints "ok", "skipped: why"
# or "FAILED: what".
check_options() {
  local cc=$1 src=$2 dir opts driver plain_cc out m runs=0
  dir=$work/$cc/options-$(basename "$src")
  mkdir -p "$dir" && cd "$dir"
  opts=$(without_profiling $(directive "$src" options))
  [ "$cc" = clang ] && opts=$(clang_options $opts)
  case $src in
    *.C) driver=xprof-${cc/gcc/g}++; plain_cc=${cc/gcc/g}++ ;;
    *) driver=xprof-$cc; plain_cc=$cc ;;
  esac
  grep -q 'dg-do run' "$src" && runs=1
  out="-c -o $dir/t.o"
  [ $runs = 1 ] && out="-o $dir/t"
  $plain_cc ${opts//-freorder-blocks-and-partition/} "$src" $out > "$dir/plain.log" 2>&1 ||
    { echo "skipped: $plain_cc does not compile it"; return; }
  for m in collect use; do
    if ! $driver $opts -xprofile=$m:"$dir/p" "$src" $out > "$dir/$m.log" 2>&1; then
      echo "FAILED: the $m build ($(head -c 300 "$dir/$m.log"))"; return
    fi
    if [ $runs = 1 ] && [ $m = collect ] && ! (cd "$dir" && timeout 60 ./t > /dev/null 2>&1); then
      echo "FAILED: the training run"; return
    fi
  done
  echo ok
}

# One test, run by xargs: --one WORK KIND COMPILER SOURCE prints
# "COMPILER<TAB>KIND<TAB>TEST<TAB>RESULT".
if [ "${1:-}" = --one ]; then
  work=$2
  echo "$4	$3	${5#$tests/}	$("$3" "$4" "$5")"
  exit 0
fi

# tests_of KIND COMPILER: the sources of that kind for that compiler, one
# a line.
tests_of() {
  local src
  case $1 in
    check)
      for src in "$tests"/gcc.dg/tree-prof/*.c "$tests"/g++.dg/tree-prof/*.C \
                 "$tests"/gcc.misc-tests/bprob-*.c; do
        # a test's second source, built with the test that names it
        grep -qs "dg-additional-sources \"$(basename "$src")\"" "$(dirname "$src")"/* ||
          echo "$src"
      done ;;
    check_options)
      # one compiler per test, by its name's length and last letter
      profiling_options | awk -v cc="$2" -v all="${XPROF_SUITE_ALL:-0}" '
        { n = split($0, p, "/"); b = p[n]
          pick = (length(b) + index("abcdefghijklmnopqrstuvwxyz0123456789", substr(b, length(b) - 2, 1))) % 2
          if (all == 1 || (pick == 0) == (cc == "gcc")) print }' ;;
    torture)
      ls "$tests"/gcc.c-torture/execute/*.c
      grep -l 'dg-do run' "$tests"/g++.dg/eh/*.C "$tests"/g++.dg/torture/*.C ;;
  esac
}

fetch || { echo "cannot fetch gcc-12's testsuite"; echo "0 passed, 1 failed"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $scans = 1 ]; then
  python3 "$root/test/suites/gcc_scans.py" "$tests" "$work"
  exit
fi
kinds="check check_options"
[ $torture = 1 ] && kinds=torture
for cc in $compilers; do
  for kind in $kinds; do
    tests_of $kind $cc | grep -E -- "${XPROF_SUITE_ONLY:-.}" |
      sed "s|^|$([ $kind = torture ] && echo check || echo $kind) $cc |"
  done
done | XPROF_SUITE_TORTURE=$torture xargs -P"$jobs" -L1 bash "$0" --one "$work" > "$work/results"
# what each kind of test is, in the summary
title() {
  case $1 in
    check) echo "$([ $torture = 1 ] && echo "torture programs" || echo "tree-prof and bprob programs") right" ;;
    check_options) echo "tests of profiling options built with xprof's" ;;
  esac
}
awk -F'\t' '$4 != "ok" && ($4 !~ /^skipped/ || $2 == "check" && !torture) {print $1 ": " $3 ": " $4}' \
  torture=$torture "$work/results"
passed=0 failed=0
for cc in $compilers; do
  for kind in check check_options; do
    n=$(awk -F'\t' -v c=$cc -v k=$kind '$1 == c && $2 == k' "$work/results" | wc -l)
    ((n)) || continue
    ok=$(awk -F'\t' -v c=$cc -v k=$kind '$1 == c && $2 == k && $4 == "ok"' "$work/results" | wc -l)
    skipped=$(awk -F'\t' -v c=$cc -v k=$kind '$1 == c && $2 == k && $4 ~ /^skipped/' "$work/results" | wc -l)
    echo "$cc: $ok of $n $(title $kind), $skipped skipped, $((n - ok - skipped)) failed"
    passed=$((passed + ok))
    failed=$((failed + n - ok - skipped))
  done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
