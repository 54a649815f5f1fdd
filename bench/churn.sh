# churn.sh - collection under thread churn, sourced by bench_churn.sh and
# bench_programs.sh (which then reproduces every figure of issue 42's
# table in one run).  A program that starts 20,000 short-lived threads
# over a large counter set (bench/programs/churn/gen.sh), built plain,
# with the compiler's own atomic instrumentation and with xprof's
# per-thread counters (thread-local twins, the default in executables;
# copies found at function entry, no-tls-counters) and atomic counters,
# and plain with a __thread array the size of the twins (plain-tls: what
# the C library's zeroing of static TLS costs by itself).
#
# churn_measure COMPILER ROUNDS FUNCS DIR: builds in DIR (emptied first),
# checks that every build prints the plain build's output and that
# xprof's per-thread counts equal its atomic ones, times the builds with
# lib.sh's time_runs and prints each one's CPU time (user + system, all
# threads) as a ratio to the plain -O2 build's in the same round (median
# and range), and the counters xprof's build has.  Expects lib.sh.

churn_compile() { # DIR NAME COMPILER FLAGS...
  local dir=$1 name=$2 cc=$3; shift 3
  mkdir -p "$dir/$name"
  (cd "$dir/$name" && "$cc" -O2 "$@" ../churn.c -o churn -pthread)
}
# The counts of a profile, without the names that differ between builds
# and the extension lines (first-run ranks depend on how threads race).
churn_counts() { xprof_btoa "$1" - | grep -Ev '^(OBJFILE|OBJREF|PROGRAM|VP_PROC|#\+)'; }

churn_measure() {
  local cc=$1 rounds=$2 funcs=$3 dir=$4 names v n want base m lo hi
  local work=$dir # time_runs and ratio_stats keep their times in $work
  rm -rf "$dir" && mkdir -p "$dir"
  bash "$here/programs/churn/gen.sh" "$funcs" > "$dir/churn.c"
  churn_compile "$dir" plain "$cc"
  if [ "$cc" = gcc ]; then
    churn_compile "$dir" native-atomic gcc -fprofile-generate -fprofile-update=atomic
    churn_compile "$dir" xprof xprof-gcc -xprofile=collect
    churn_compile "$dir" xprof-copies xprof-gcc -xprofile=collect -fplugin-arg-xprof-no-tls-counters
    churn_compile "$dir" xprof-atomic xprof-gcc -xprofile=collect -fplugin-arg-xprof-update=atomic
  else
    churn_compile "$dir" native-atomic clang -fprofile-generate -mllvm -instrprof-atomic-counter-update-all
    churn_compile "$dir" xprof xprof-clang -xprofile=collect
    churn_compile "$dir" xprof-copies xprof-clang -xprofile=collect -mllvm -xprof-tls-counters=false
    churn_compile "$dir" xprof-atomic xprof-clang -xprofile=collect -mllvm -xprof-update=atomic
  fi
  # plain-tls: plain with a __thread array as large as xprof's twins, the
  # C library's zeroing of static TLS alone (the floor of twins).
  (cd "$dir/xprof" && rm -rf churn.profile && ./churn > /dev/null)
  n=$(xprof_btoa "$dir/xprof/churn.profile" - | awk '$1 == "PROC:" {n += $4} END {print n}')
  churn_compile "$dir" plain-tls "$cc" -DTLS_WORDS="$n"
  names=(plain native-atomic xprof xprof-copies xprof-atomic plain-tls)
  for v in "${names[@]}"; do
    eval "run_$v() { (cd \"$dir/$v\" && rm -rf churn.profile *.gcda *.profraw && LLVM_PROFILE_FILE=$dir/$v/p.profraw ./churn); }"
  done
  want=$(run_plain)
  for v in "${names[@]:1}"; do
    [ "$("run_$v")" = "$want" ] || { echo "churn: output of $v differs" >&2; return 1; }
  done
  # run_* left each build's profile of its last run: the same counts.
  for v in xprof xprof-copies; do
    cmp -s <(churn_counts "$dir/$v/churn.profile") <(churn_counts "$dir/xprof-atomic/churn.profile") ||
      { echo "churn, $cc: the counts of $v differ from xprof-atomic's" >&2; return 1; }
  done
  time_runs "$rounds" "${names[@]}"
  read -r base _ _ < <(stats < "$dir/times.plain")
  echo "churn, $cc, $funcs functions ($n xprof counters), 20000 threads, $rounds rounds;"
  echo "CPU time relative to plain $cc -O2 in the same round (median, range):"
  printf "  %-34s %6.3f s\n" "plain -O2" "$base"
  for v in "${names[@]:1}"; do
    read -r m lo hi < <(ratio_stats "$v" plain)
    printf "  %-34s %6.3fx  (%.3f-%.3f)\n" "$v" "$m" "$lo" "$hi"
  done
}
