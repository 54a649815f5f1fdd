#!/usr/bin/env bash
# One step of the suite that is one test (a benchmark's smoke run, a
# comparison with gcov...): runs COMMAND, prints the last N lines of its
# output (all of it when it fails), then "1 passed, 0 failed" or "0
# passed, 1 failed", as the suite's other tests end.
#   test/step.sh N COMMAND...
n=$1
shift
log=$(mktemp)
if "$@" >"$log" 2>&1; then
  tail -"$n" "$log"
  echo "1 passed, 0 failed"
  rc=0
else
  cat "$log"
  echo "0 passed, 1 failed"
  rc=1
fi
rm -f "$log"
exit $rc
