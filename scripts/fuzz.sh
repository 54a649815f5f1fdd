#!/usr/bin/env bash
# Build the libFuzzer targets with clang and run each for a while.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     (default 30)
# The committed corpus in test/fuzz/corpus seeds a scratch copy, so a run
# never changes the repository.  A crash leaves its input in
# build-fuzz/crashes/ and makes the script fail.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
cc=${FUZZ_CC:-clang-14}
out=build-fuzz
mkdir -p "$out/crashes"
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Ilibxprof"
status=0
for target in text binary shape exports; do
  bin="$out/fuzz_$target"
  # shellcheck disable=SC2086
  "$cc" $flags -o "$bin" "test/fuzz/fuzz_$target.c" libxprof/*.c
  work=$(mktemp -d)
  cp "test/fuzz/corpus/$target/"* "$work/"
  log="$out/fuzz_$target.log"
  if "$bin" -max_total_time="$secs" -max_len=4096 -timeout=10 \
       -artifact_prefix="$out/crashes/$target-" "$work" >"$log" 2>&1; then
    runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 || true)
    echo "fuzz $target: ok (${runs:-no summary}, ${secs}s)"
  else
    echo "fuzz $target: FAILED, see $log and $out/crashes/"
    tail -20 "$log"
    status=1
  fi
  rm -rf "$work"
done
exit $status
