# signals.sh DRIVER DIR: the server of Inputs/server.c (8 threads) killed
# with SIGTERM mid-run, with and without SUN_PROFDATA_SIGNALS, and aborted
# with SUN_PROFDATA_ASYNC_INTERVAL; prints how it ended, what the profile
# holds of its functions, and what a use build makes of it.
set -u
drv=$1 w=$2 inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$w" && mkdir -p "$w" && cd "$w" || exit 1
"$drv" -xprofile=collect:"$w/srv" -O2 "$inputs/server.c" -o server -lpthread || exit 1

run() { # TITLE ENV...: start the server, kill it when ready (or let it
  # abort), report
  local title=$1
  shift
  rm -rf srv.profile out
  env "$@" ./server $ARG >out 2>&1 &
  local pid=$! i=0
  while ! grep -q ready out 2>/dev/null && [ $i -lt 1000 ]; do sleep 0.01; i=$((i + 1)); done
  sleep 0.2
  case $ARG in abort | crash | _exit) ;; *) kill -TERM $pid ;; esac
  wait $pid 2>/dev/null # (no "Aborted" from the shell)
  echo "$title: exit status $?"
  if [ -f srv.profile/feedback ]; then
    xprof_show srv.profile | awk '/^first procedures/ { done = 1 } !done && ($2 == "worker" || $2 == "main") { print "  N", $2, $3 }'
  else
    echo "  no profile"
  fi
}

ARG= run "no SUN_PROFDATA_SIGNALS"
ARG= run "SUN_PROFDATA_SIGNALS=TERM" SUN_PROFDATA_SIGNALS=TERM
cp -r srv.profile term.profile
ARG= run "SUN_PROFDATA_SIGNALS=INT,SIGTERM" SUN_PROFDATA_SIGNALS=INT,SIGTERM
ARG=exit-handler run "the program's own handler, which calls exit" SUN_PROFDATA_SIGNALS=TERM
ARG=abort run "abort, SUN_PROFDATA_ASYNC_INTERVAL=1" SUN_PROFDATA_ASYNC_INTERVAL=1
ARG=crash run "a crash, SUN_PROFDATA_ASYNC_INTERVAL=1" SUN_PROFDATA_ASYNC_INTERVAL=1
ARG=_exit run "_exit, SUN_PROFDATA_ASYNC_INTERVAL=1" SUN_PROFDATA_ASYNC_INTERVAL=1
ARG= run "SUN_PROFDATA_SIGNALS=BOGUS,TERM" SUN_PROFDATA_SIGNALS=BOGUS,TERM
cat out

# The worker never returns: its loop's fake edge to EXIT carries the eight
# frames still in it, and the use build sees that it ran.
cp "$inputs/server.c" .
case $drv in
*clang*) verbose="-mllvm -xprof-verbose" ;;
*) verbose=-fplugin-arg-xprof-verbose ;;
esac
rm -rf srv.profile && mv term.profile srv.profile
"$drv" -xprofile=use:"$w/srv" $verbose -O2 -c server.c -o server.o 2>&1 | sed "s|$w/||"
