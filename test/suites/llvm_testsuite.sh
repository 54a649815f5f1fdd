#!/usr/bin/env bash
# llvm_testsuite.sh [gcc|clang|both]: the programs of compiler-rt's
# profile tests (LLVM 14, from Debian's llvm-toolchain-14 source package:
# apt-get source, never committed) through xprof's drivers.
#
# Each single-file program of compiler-rt/test/profile (and its Linux and
# Posix directories) is built with the compiler's own -fprofile-generate
# -O2 (so
# that the calls into clang's runtime that many of them make link) and
# run (without the arguments of its RUN lines: many then exit 1); then
# with -xprofile=collect and run (training), rebuilt with -xprofile=use
# and run.  Both runs must exit as the native one does.
# The test's RUN lines (llvm-profdata, FileCheck of .profraw contents) are
# clang's own business and not followed.  Skipped, and said why:
# programs the native build does not build or run to exit 0 (they need
# arguments, other files or lld), programs that call the parts of clang's
# runtime that mean nothing for xprof's data (the raw format's buffers and
# sections, __llvm_profile_set_file_object, internal lprof* names:
# docs/runtime.md), and use builds that do not link for the calls into
# the runtime, as the compilers' own -fprofile-use builds do not.  With
# GCC, the programs that call clang's runtime by its own names are
# skipped as GCC's own build of them is (it does not link).  By hand,
# about a minute on 2 cores: not part of scripts/check.sh.
#
# Environment: XPROF_SUITES (default /tmp/xprof-suites), where the sources
# are kept between runs.  Ends with "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/bench/lib.sh"
export PATH=$build/tools:$PATH # lib.sh: BUILD, default build/
compilers=${1:-both}
[ "$compilers" = both ] && compilers="gcc clang"
store=${XPROF_SUITES:-/tmp/xprof-suites}
tests=$store/llvm-14/compiler-rt/test/profile

# fetch: compiler-rt's profile tests from llvm-toolchain-14's sources.
fetch() {
  [ -e "$tests/.ready-1" ] && return 0
  ensure_deb_src
  rm -rf "$store/dl-llvm" "$store/llvm-14" && mkdir -p "$store/dl-llvm" "$store/llvm-14"
  (cd "$store/dl-llvm" && apt-get source --download-only -qq llvm-toolchain-14 2>&1 |
     grep -v '^W: Download is performed unsandboxed' || true)
  tar -xJf "$(ls "$store"/dl-llvm/llvm-toolchain-14_*.orig.tar.xz | head -1)" \
    -C "$store/llvm-14" --strip-components=1 --wildcards '*/compiler-rt/test/profile/*' ||
    return 1
  rm -rf "$store/dl-llvm"
  touch "$tests/.ready-1"
}

# The parts of clang's runtime that mean nothing for xprof's data: the raw
# format's buffers, sections and records, and its internal names.
internal='^(__llvm_profile_(begin|end|get_size_for_buffer|write_buffer|merge_from_buffer|set_file_object|data_|names_|counters_|iterate_data|instrument_target|set_num_value_sites)|__llvm_get_function_addr|lprof)'

# Programs that check what only clang's runtime does, with the reason
# (both compilers).
declare -A differs=([instrprof-get-filename.c]="checks the names of clang's .profraw files")

# run_in DIR BINARY: its exit status, run in DIR.
run_in() {
  (cd "$1" && timeout 60 "./$2" > "$2.out" 2>&1) 2>/dev/null
  echo $?
}

# check COMPILER SOURCE: prints "ok", "skipped: why" or "FAILED: what".
check() {
  local src=$2 dir cc want got missing
  dir=$work/$1-$(basename "$(dirname "$src")")-$(basename "$src")
  mkdir -p "$dir"
  case $1-$src in
    clang-*.cpp) cc=clang++ ;; gcc-*.cpp) cc=g++ ;; *) cc=$1 ;;
  esac
  $cc -O2 -fprofile-generate "$src" -o "$dir/native" -ldl -lpthread > "$dir/native.log" 2>&1 ||
    { echo "skipped: $1's own build fails"; return; }
  [ -n "${differs[$(basename "$src")]:-}" ] && { echo "skipped: ${differs[$(basename "$src")]}"; return; }
  # Many exit 1 without the arguments their RUN lines give: the same
  # status is what is asked of xprof's builds.  A native crash is skipped.
  want=$(run_in "$dir" native)
  [ "$want" -lt 124 ] || { echo "skipped: the native run exits $want"; return; }
  if ! xprof-$cc -O2 -xprofile=collect:"$dir/p" "$src" -o "$dir/t" -ldl -lpthread > "$dir/collect.log" 2>&1; then
    missing=$(grep -o "undefined reference to \`[^']*" "$dir/collect.log" | sed 's/.*`//' | sort -u | tr '\n' ' ')
    [ -n "$missing" ] && [ -z "$(echo "$missing" | tr ' ' '\n' | grep -Ev "$internal" | grep .)" ] &&
      { echo "skipped: calls $missing"; return; }
    echo "FAILED: the collect build ($(grep -m1 -i 'error' "$dir/collect.log" | head -c 200))"; return
  fi
  got=$(run_in "$dir" t)
  [ "$got" = "$want" ] || { echo "FAILED: the training run exits $got ($(head -c 200 "$dir/t.out"))"; return; }
  if ! xprof-$cc -O2 -xprofile=use:"$dir/p" "$src" -o "$dir/u" -ldl -lpthread > "$dir/use.log" 2>&1; then
    grep -q "undefined reference to \`\(__llvm_profile\|__gcov\)" "$dir/use.log" &&
      { echo "skipped: the use build does not link the runtime it calls (as $1's own)"; return; }
    echo "FAILED: the use build ($(grep -m1 -i 'error' "$dir/use.log" | head -c 200))"; return
  fi
  got=$(run_in "$dir" u)
  [ "$got" = "$want" ] || { echo "FAILED: the use build's run exits $got"; return; }
  echo ok
}

fetch || { echo "cannot fetch llvm-toolchain-14's compiler-rt tests"; echo "0 passed, 1 failed"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
total_passed=0 total_failed=0
for cc in $compilers; do
  passed=0 failed=0 skipped=0
  for src in "$tests"/*.c "$tests"/*.cpp "$tests"/Linux/*.c "$tests"/Linux/*.cpp \
             "$tests"/Posix/*.c "$tests"/Posix/*.cpp; do
    [ -f "$src" ] || continue
    r=$(check "$cc" "$src")
    case $r in
      ok) passed=$((passed + 1)) ;;
      skipped*) skipped=$((skipped + 1)) ;;
      *) failed=$((failed + 1)) ;;
    esac
    [ "$r" = ok ] || echo "$cc: ${src#$tests/}: $r"
  done
  echo "$cc: $passed of $((passed + failed + skipped)) compiler-rt profile programs right, $skipped skipped, $failed failed"
  total_passed=$((total_passed + passed)) total_failed=$((total_failed + failed))
done
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
