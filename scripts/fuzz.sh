#!/usr/bin/env bash
# Build the libFuzzer targets (CMake's target `fuzz`, with clang) and run
# each for a while.
#   scripts/fuzz.sh [BUILD_DIR]          (default build)
# Environment: FUZZ_SECONDS per target (default 10; 0: build only).
# The committed corpus in test/fuzz/corpus seeds a scratch copy, so a run
# never changes the repository.  A crash leaves its input in
# BUILD_DIR/test/fuzz/crashes/ and makes the script fail.  Ends with
# "N passed, M failed" over the targets.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
secs=${FUZZ_SECONDS:-10}
out=$build/test/fuzz
if ! cmake --build "$build" --target fuzz -j "$(nproc)" >"$out/build.log" 2>&1; then
  tail -20 "$out/build.log"
  echo "0 passed, 1 failed"
  exit 1
fi
mkdir -p "$out/crashes"
passed=0
failed=0
for target in text binary shape exports lists; do
  [ "$secs" = 0 ] && break
  work=$(mktemp -d)
  cp "$root/test/fuzz/corpus/$target/"* "$work/"
  log="$out/fuzz_$target.log"
  if "$out/fuzz_$target" -max_total_time="$secs" -max_len=4096 -timeout=10 \
       -artifact_prefix="$out/crashes/$target-" "$work" >"$log" 2>&1; then
    runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 || true)
    echo "fuzz $target: ok (${runs:-no summary}, ${secs}s)"
    passed=$((passed + 1))
  else
    echo "fuzz $target: FAILED, see $log and $out/crashes/"
    tail -20 "$log"
    failed=$((failed + 1))
  fi
  rm -rf "$work"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
