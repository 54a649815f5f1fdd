# kill-while-writing.sh PROGRAM: run PROGRAM with a pause between writing
# its temporary profile file and renaming it, and kill -9 it there.
prog=$1
XPROF_TEST_PAUSE_BEFORE_RENAME_MS=10000 "$prog" 7 &
pid=$!
for _ in $(seq 100); do
  ls count.profile 2>/dev/null | grep -q 'feedback.tmp' && break
  sleep 0.05
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
exit 0
