# run-then-kill.sh SECONDS PROGRAM ARGS...: run, then kill -9 after SECONDS.
secs=$1; shift
"$@" &
pid=$!
sleep "$secs"
kill -9 "$pid"
wait "$pid" 2>/dev/null
exit 0
