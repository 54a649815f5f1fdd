#!/usr/bin/env bash
# Runs lit over some of the lit tests and ends, as the suite's other tests
# do, with "N passed, M failed" (lit's own summary counts them by kind).
#   test/lit-run.sh PYTHON LIT BUILD_DIR TEST_DIR...
python=$1 lit=$2 build=$3
shift 3
log=$(mktemp)
"$python" "$lit" -sv --param build="$build" "$@" >"$log" 2>&1
rc=$?
grep -E '^(FAIL|UNRESOLVED|XPASS|TIMEOUT):' "$log"
[ $rc -ne 0 ] && sed -n '/^\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\* TEST/,/^\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*$/p' "$log" | head -200
passed=$(grep -E '^ *(Passed|Expectedly Failed|Unsupported): ' "$log" | awk '{s+=$NF} END {print s+0}')
failed=$(grep -E '^ *(Failed|Unresolved|Unexpectedly Passed|Timed Out): ' "$log" | awk '{s+=$NF} END {print s+0}')
rm -f "$log"
[ "$passed" -eq 0 ] && [ $rc -ne 0 ] && failed=$((failed + 1))
echo "$passed passed, $failed failed"
exit $rc
