#!/usr/bin/env bash
# Collection under thread churn: a program that starts 20,000 short-lived
# threads over a large counter set (bench/programs/churn/gen.sh), built
# plain, with the compiler's own atomic instrumentation and with xprof's
# per-thread counters (thread-local twins, the default in executables;
# copies found at function entry, no-tls-counters) and atomic counters,
# and plain with a __thread array the size of the twins (plain-tls: what
# the C library's zeroing of static TLS costs by itself), measured in
# one run.
#   bench/bench_churn.sh [ROUNDS] [FUNCS] [gcc|clang|both]   (7, 1000, both)
# Prints, per build, its CPU time (user + system, all threads) as a ratio
# to the plain -O2 build's in the same round (median and range), and the
# counters xprof's build has.  Checks first that every build prints the
# plain build's output and that xprof's per-thread counts equal its
# atomic ones.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=${1:-7}
funcs=${2:-1000}
which=${3:-both}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$here/programs/churn/gen.sh" "$funcs" > "$work/churn.c"

compile() { # NAME COMPILER FLAGS...
  local name=$1 cc=$2; shift 2
  mkdir -p "$work/$name"
  (cd "$work/$name" && "$cc" -O2 "$@" ../churn.c -o churn -pthread)
}
# The counts of a profile, without the names that differ between builds.
counts() { xprof_btoa "$1" - | grep -Ev '^(OBJFILE|OBJREF|PROGRAM|VP_PROC)'; }

measure() { # COMPILER
  local cc=$1 xcc=xprof-$1 names=() v
  rm -rf "$work"/*/
  compile plain "$cc"
  if [ "$cc" = gcc ]; then
    compile native-atomic gcc -fprofile-generate -fprofile-update=atomic
    compile xprof xprof-gcc -xprofile=collect
    compile xprof-copies xprof-gcc -xprofile=collect -fplugin-arg-xprof-no-tls-counters
    compile xprof-atomic xprof-gcc -xprofile=collect -fplugin-arg-xprof-update=atomic
  else
    compile native-atomic clang -fprofile-generate -mllvm -instrprof-atomic-counter-update-all
    compile xprof xprof-clang -xprofile=collect
    compile xprof-copies xprof-clang -xprofile=collect -mllvm -xprof-tls-counters=false
    compile xprof-atomic xprof-clang -xprofile=collect -mllvm -xprof-update=atomic
  fi
  # plain-tls: plain with a __thread array as large as xprof's twins, the
  # C library's zeroing of static TLS alone (the floor of twins).
  local n
  (cd "$work/xprof" && rm -rf churn.profile && ./churn > /dev/null)
  n=$(xprof_btoa "$work/xprof/churn.profile" - | awk '$1 == "PROC:" {n += $4} END {print n}')
  compile plain-tls "$cc" -DTLS_WORDS="$n"
  names=(plain native-atomic xprof xprof-copies xprof-atomic plain-tls)
  for v in "${names[@]}"; do
    eval "run_$v() { (cd \"$work/$v\" && rm -rf churn.profile *.gcda *.profraw && LLVM_PROFILE_FILE=$work/$v/p.profraw ./churn); }"
  done
  local want
  want=$(run_plain)
  for v in "${names[@]:1}"; do
    [ "$("run_$v")" = "$want" ] || { echo "output of $v differs" >&2; exit 1; }
  done
  # run_* left each build's profile of its last run: the same counts.
  for v in xprof xprof-copies; do
    cmp -s <(counts "$work/$v/churn.profile") <(counts "$work/xprof-atomic/churn.profile") ||
      { echo "$cc: the counts of $v differ from xprof-atomic's" >&2; exit 1; }
  done
  rm -f "$work"/times.*
  time_runs "$rounds" "${names[@]}"
  local base
  read -r base _ _ < <(stats < "$work/times.plain")
  echo "churn, $cc, $funcs functions ($n xprof counters), 20000 threads, $rounds rounds;"
  echo "CPU time relative to plain $cc -O2 in the same round (median, range):"
  printf "  %-34s %6.3f s\n" "plain -O2" "$base"
  for v in "${names[@]:1}"; do
    read -r m lo hi < <(ratio_stats "$v" plain)
    printf "  %-34s %6.3fx  (%.3f-%.3f)\n" "$v" "$m" "$lo" "$hi"
  done
}

case $which in
  both) measure gcc; measure clang ;;
  gcc | clang) measure "$which" ;;
  *) echo "usage: bench_churn.sh [ROUNDS] [FUNCS] [gcc|clang|both]" >&2; exit 2 ;;
esac
