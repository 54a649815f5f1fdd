#!/usr/bin/env bash
# The LLVM pass plugin against another LLVM than the suite's (LLVM 16,
# when llvm-16-dev and clang-16 are installed; the test is not defined
# otherwise): xprof configured with that llvm-config and its plugin and
# driver built (code that builds with LLVM 14 alone breaks here first:
# headers LLVM 14 includes for us), then a program trained and used
# with that clang, exactly, and a profile trained with the suite's clang
# used by the other.
#   test/llvm16/plugin_check.sh LLVM_CONFIG BUILD
# Ends with "N passed, N failed".
set -uo pipefail
config=$1 suite_build=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$suite_build/test/llvm16
rm -rf "$work/t" && mkdir -p "$work/t"
passed=0 failed=0
check() { # NAME COMMAND...: one check
  if "${@:2}"; then passed=$((passed + 1)); else echo "FAIL: $1"; failed=$((failed + 1)); fi
}
build() {
  cmake -S "$root" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DXPROF_LLVM_CONFIG="$config" \
    > "$work/cmake.log" 2>&1 &&
    make -C "$work/build" -j2 xprof_llvm_plugin xprof-clang xprof_rt xprof_rt_object > "$work/make.log" 2>&1 ||
    { tail -20 "$work/make.log" >&2; false; }
}
rm -f "$work/build/tools/xprof-clang" "$work/build/llvm-pass/"*.so # a failed build leaves none
check "the plugin builds against $($config --version)" build
new=$work/build/tools/xprof-clang old=$suite_build/tools/xprof-clang
src=$root/test/lit/pipeline/Inputs/afdo/calls.c
cd "$work/t" && cp "$src" .
# Trained and used with the other LLVM: the call promoted by its own
# training, the output as the training run's.
run_own() {
  "$new" -O2 -xprofile=collect -o calls calls.c && ./calls 70000 > train.out &&
    "$new" -O2 -xprofile=use:calls -Xclang -mllvm -Xclang -xprof-verbose \
      -Rremark-backend-plugin -o calls-use calls.c 2> use.err &&
    grep -q "3 procedures matched the profile, 0 mismatched, 0 missing; 2 indirect calls promoted" use.err &&
    ./calls-use 70000 | cmp -s - train.out
}
[ -x "$new" ] && check "collect and use with $($config --version)" run_own
# Trained with the suite's LLVM, used by the other: nothing mismatched.
run_across() {
  "$old" -O2 -xprofile=collect:old -o calls-old calls.c && ./calls-old 70000 > /dev/null &&
    "$new" -O2 -xprofile=use:old -Xclang -mllvm -Xclang -xprof-verbose \
      -Rremark-backend-plugin -o calls-across calls.c 2> across.err &&
    grep -q "0 mismatched, 0 missing" across.err && ./calls-across 70000 | cmp -s - train.out
}
[ -x "$new" ] && [ -x "$old" ] && check "trained with the suite's LLVM, used with the other" run_across
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
