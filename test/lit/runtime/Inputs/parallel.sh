# parallel.sh N PROGRAM ARGS...: start N copies at once, wait for all,
# fail if any failed.
n=$1; shift
pids=()
for ((i = 0; i < n; i++)); do "$@" & pids+=($!); done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
